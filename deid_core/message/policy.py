"""Loading policies (shipped by name, or a user's YAML file) and resolving a value to its action.

Resolution order is stated in ``schemas.policy``; this module only compiles the override patterns once
per policy and memoises the answer per distinct (path, kind, PHI type, datatype, enclosing types).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from deid_core import yamldata
from schemas.message import Kind, Leaf, LeafSpec
from schemas.phi import PhiType
from schemas.policy import Action, Policy, Rule

SHIPPED = ("surrogate", "safe-harbor", "limited-data-set")
DEFAULT_POLICY = "surrogate"
_MAX_POLICY_BYTES = 256 * 1024


class PolicyError(ValueError):
    """A policy that cannot be loaded; the message names the file and the problem, never data."""


_NODES_BY_TYPE = re.compile(r"^nodesByType\('([A-Za-z0-9]+)'\)$")


def _compile(pattern: str) -> re.Pattern[str]:
    # '*' stays within one segment/element name; a pattern matches its own path and everything below.
    body = "".join("[^.\\-]*" if c == "*" else re.escape(c) for c in pattern)
    return re.compile(f"^{body}(?:[.\\-].*)?$")


@dataclass(frozen=True, slots=True)
class _CompiledRule:
    rule: Rule
    path: re.Pattern[str] | None
    node_type: str | None

    def matches(self, path: str, kind: Kind, phi_type: PhiType | None, datatype: str, types: tuple[str, ...]) -> bool:
        r = self.rule
        if r.kind is not None and r.kind is not kind:
            return False
        if r.phi_type is not None and r.phi_type is not phi_type:
            return False
        if r.datatype is not None and r.datatype != datatype:
            return False
        if self.node_type is not None:
            return self.node_type in types or self.node_type == datatype
        return self.path is None or bool(self.path.match(path))


@dataclass(slots=True)
class PolicyResolver:
    policy: Policy
    _rules: tuple[_CompiledRule, ...] = field(init=False)
    _memo: dict[tuple[object, ...], Action] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        compiled = []
        for rule in self.policy.overrides:
            node = _NODES_BY_TYPE.match(rule.path) if rule.path else None
            compiled.append(
                _CompiledRule(rule, _compile(rule.path) if rule.path and not node else None, node.group(1) if node else None)
            )
        self._rules = tuple(compiled)

    def action(self, leaf: Leaf | LeafSpec) -> Action:
        key = (leaf.path, leaf.kind, leaf.phi_type, leaf.datatype, leaf.types)
        found = self._memo.get(key)
        if found is None:
            found = self._resolve(leaf.path, leaf.kind, leaf.phi_type, leaf.datatype, leaf.types)
            if len(self._memo) < 100_000:
                self._memo[key] = found
        return found

    def _resolve(self, path: str, kind: Kind, phi_type: PhiType | None, datatype: str, types: tuple[str, ...]) -> Action:
        for compiled in self._rules:
            if compiled.matches(path, kind, phi_type, datatype, types):
                return compiled.rule.action
        if phi_type is not None and phi_type in self.policy.types and kind not in (Kind.TEXT, Kind.CODE, Kind.UNKNOWN):
            return self.policy.types[phi_type]
        return self.policy.defaults[kind]


def parse_policy(text: str, source: str = "policy") -> Policy:
    try:
        data = yamldata.safe_load(text)
    except yamldata.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise PolicyError(f"{source}: not valid YAML{where}") from None
    if not isinstance(data, dict):
        raise PolicyError(f"{source}: expected a mapping at the top level")
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        # A policy is configuration, not data: pydantic's messages may be shown (PhiType.parse and the
        # model's own validators never repeat the value).
        problems = [
            f"{'.'.join(str(p) for p in e['loc']) or 'policy'}: {e['msg']}"
            for e in exc.errors(include_input=False, include_url=False)[:5]
        ]
        raise PolicyError(f"{source}: " + "; ".join(problems)) from None


@cache
def shipped_policy(name: str) -> Policy:
    if name not in SHIPPED:
        raise PolicyError(f"unknown policy name; shipped policies: {', '.join(SHIPPED)}")
    text = resources.files("deid_core.message").joinpath("policies").joinpath(f"{name}.yaml").read_text("utf-8")
    return parse_policy(text, f"shipped policy {name}")


def load_policy(name_or_path: str | Path | None) -> Policy:
    """A shipped policy by name, or a YAML file. ``None`` is the default (``surrogate``)."""
    if name_or_path is None:
        return shipped_policy(DEFAULT_POLICY)
    if isinstance(name_or_path, str) and name_or_path in SHIPPED:
        return shipped_policy(name_or_path)
    path = Path(name_or_path)
    if not path.is_file():
        raise PolicyError(f"{path}: no such policy file (shipped policies: {', '.join(SHIPPED)})")
    if path.stat().st_size > _MAX_POLICY_BYTES:
        raise PolicyError(f"{path}: larger than {_MAX_POLICY_BYTES} bytes")
    return parse_policy(path.read_text("utf-8"), str(path))


def unresolved(resolver: PolicyResolver, specs: Iterable[LeafSpec]) -> list[str]:
    """Paths of specs that resolve to no action: empty for every valid policy (coverage tests use it)."""
    out = []
    for spec in specs:
        try:
            resolver.action(spec)
        except KeyError:
            out.append(spec.path)
    return out
