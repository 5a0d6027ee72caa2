"""Consistent, realistic surrogates for detected PHI, and the MappingStore that keeps them consistent."""

from deid_core.surrogate.engine import SurrogateConfig, Surrogator, patient_scope
from deid_core.surrogate.keys import HmacKey, KeyRing, load_keyring, load_secret, mapping_key
from deid_core.surrogate.store import InMemoryMappingStore, MappingStore, RedisMappingStore, StoreUnavailable

__all__ = [
    "HmacKey",
    "InMemoryMappingStore",
    "KeyRing",
    "MappingStore",
    "RedisMappingStore",
    "StoreUnavailable",
    "SurrogateConfig",
    "Surrogator",
    "load_keyring",
    "load_secret",
    "mapping_key",
    "patient_scope",
]
