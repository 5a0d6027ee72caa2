"""The ``deid`` command line: detect, deidentify, eval, corpus, demo, worker and serve.

Input records are JSONL ``{"id", "text", "patient"?}``. All input is read and validated before any
output is written, so a bad line means a clear error on stderr, a non-zero exit and no partial output.
Nothing here prints note text or PHI to stderr or logs.

One module per concern: ``common`` (errors, exit codes, JSONL, progress), ``detection`` (detect),
``deidentify`` and ``messages`` (deidentify, JSONL and HL7/FHIR files), ``tooling`` (eval, corpus, demo,
train: the tooling distribution), ``service`` (worker, serve), ``parser`` (arguments and ``main``).
"""

from __future__ import annotations

from workers.cli.common import TOOLING_MISSING
from workers.cli.detection import detection_pipeline
from workers.cli.parser import build_parser, main
from workers.cli.service import cmd_serve

__all__ = ["TOOLING_MISSING", "build_parser", "cmd_serve", "detection_pipeline", "main"]
