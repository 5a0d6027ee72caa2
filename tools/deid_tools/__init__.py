"""deid-stream's tooling, kept out of the runtime packages (schemas, deid_core, workers).

The synthetic corpus (``corpus``), the evaluation harness (``eval``), tagger training (``train``) and the
stream drivers shared by the integration tests and ``bench/`` (``drivers``). Only the commands that need
them (``deid corpus``, ``deid train``, ``deid eval``, ``deid demo``), the tests and the benches import
this package; the worker image does not contain it.
"""
