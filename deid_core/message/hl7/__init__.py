"""HL7 v2 (ER7) messages as typed leaves: ``codec`` (the loader), ``kinds`` and ``datatypes.yaml`` (what
each value is), ``tables`` (v2.5.1 structure from hl7apy), ``load`` (bytes to parsed message) and
``header`` (patient header and notes)."""
