"""The ``deid`` argument parser and ``main``: one sub-command per module of this package."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from deid_core.detect.registry import DEFAULT_DETECTORS, KNOWN_DETECTORS
from schemas.jsonl import InputError
from workers.cli.common import (
    DEFAULT_BATCH_SIZE,
    EXIT_BAD_INPUT,
    EXIT_FAILURE,
    EXIT_OK,
    BadInputError,
    CliError,
)
from workers.cli.deidentify import cmd_deidentify
from workers.cli.detection import cmd_detect
from workers.cli.service import cmd_serve, cmd_worker
from workers.cli.tooling import cmd_corpus, cmd_demo, cmd_eval, cmd_train


def build_parser() -> argparse.ArgumentParser:
    from workers.cli.messages import add_arguments as add_deidentify_arguments

    parser = argparse.ArgumentParser(
        prog="deid",
        description="De-identify clinical notes: detect PHI (i2b2 2014 types) and replace it with consistent surrogates.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output on stderr (ids and counts only)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add_io(p: argparse.ArgumentParser) -> None:
        p.add_argument("-i", "--input", help="JSONL input {id, text, patient?}, or with --format a message file or folder (default: stdin)")
        p.add_argument("-o", "--output", help="JSONL output, or with --format a file or folder (default: stdout)")
        p.add_argument(
            "--policy", default="surrogate",
            help="de-identification policy: surrogate, safe-harbor, limited-data-set, or a YAML file (default: %(default)s; see docs/policy.md)",
        )  # fmt: skip
        add_detectors(p)
        add_progress(p)

    def add_detectors(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--detectors",
            default=",".join(DEFAULT_DETECTORS),
            help=f"comma-separated detectors among {', '.join(KNOWN_DETECTORS)} (default: %(default)s)",
        )
        p.add_argument("--triton-url", help="run the tagger on a Triton server at this gRPC address (host:port) instead of in-process")
        p.add_argument("--tagger-model-dir", help="weights for the in-process tagger (default: the shipped model)")
        p.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE, help="notes per tagger call (default: %(default)s)")

    def add_progress(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--progress", action=argparse.BooleanOptionalAction, default=None,
            help="show a progress bar on stderr (default: when stderr is a terminal)",
        )

    p = sub.add_parser("detect", help="find PHI spans; writes {id, spans:[{start,end,type}]} per input line")
    add_io(p)
    p.set_defaults(func=cmd_detect)

    p = sub.add_parser("deidentify", help="replace PHI with consistent surrogates; writes {id, text, spans}")
    add_io(p)
    p.add_argument("--store", default="memory", help="'memory' or a Redis URL such as redis://localhost:6379/0 (default: memory)")
    p.add_argument("--secret-file", help="file holding the HMAC secret for mapping keys (default: a development key, with a warning)")
    p.add_argument("--date-shift-min-days", type=int, default=1, help="smallest per-patient date shift (default: %(default)s)")
    p.add_argument("--date-shift-max-days", type=int, default=365, help="largest per-patient date shift (default: %(default)s)")
    add_deidentify_arguments(p)
    p.set_defaults(func=cmd_deidentify)

    p = sub.add_parser("eval", help="score predictions (or the detectors themselves) against gold annotations")
    p.add_argument("--gold", required=True, help="gold JSONL {id, text, spans}, an i2b2 2014 XML file, or a directory of them")
    p.add_argument("--pred", help="predictions JSONL from 'deid detect' or 'deid deidentify'; omitted: run --detectors on the gold texts")
    add_detectors(p)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    add_progress(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("corpus", help="generate synthetic labelled notes (train/dev/test split by template family)")
    p.add_argument("--split", choices=["train", "dev", "test"], default="test")
    p.add_argument("-n", type=int, default=200, help="number of notes (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("-o", "--output", help="JSONL output (default: stdout)")
    add_progress(p)
    p.set_defaults(func=cmd_corpus)

    p = sub.add_parser("train", help="train the BiLSTM-CRF tagger on the synthetic corpus and write a model card")
    p.add_argument("--out", help="artifact directory (default: the shipped model directory in triton_models/)")
    p.add_argument("--train-n", type=int, default=3000, help="training notes (default: %(default)s)")
    p.add_argument("--dev-n", type=int, default=300, help="dev notes for early stopping (default: %(default)s)")
    p.add_argument("--test-n", type=int, default=400, help="held-out test notes for the model card (default: %(default)s)")
    p.add_argument("--corpus-seed", type=int, default=0)
    p.add_argument("--seed", type=int, default=13, help="model initialisation and batch order seed")
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--patience", type=int, default=4, help="epochs without dev F1 gain before stopping")
    p.add_argument("--threads", type=int, default=2, help="torch CPU threads (default: %(default)s)")
    p.add_argument(
        "--hidden", type=int, default=100,
        help="units per direction of the word BiLSTM; the tagger's cost grows with its square (default: %(default)s)",
    )
    p.add_argument(
        "--lexicon", action=argparse.BooleanOptionalAction, default=True,
        help="give the model the lexicons' token classes (names, places, ordinary words) as input (default: on)",
    )
    for split in ("train", "dev", "test"):
        p.add_argument(
            f"--{split}-gold",
            help=f"{split} notes from your own gold files (JSONL, or i2b2 2006/2014 XML file or directory) instead of the synthetic corpus",
        )
    p.add_argument(
        "--augment-gold", action="append", default=[], metavar="PATH",
        help="hand-written development gold (JSONL); surrogate copies of its notes join the training notes (repeatable)",
    )
    p.add_argument("--augment-copies", type=int, default=8, help="surrogate copies per augmenting note (default: %(default)s)")
    p.add_argument(
        "--hard-names", type=float, default=0.0, metavar="SHARE",
        help="share of the copies' given names drawn from names that are also words or very short (Grace, Per, Bo) (default: %(default)s)",
    )
    p.add_argument(
        "--lower-share", type=float, default=0.0, metavar="SHARE",
        help="share of the copies lower-cased whole, as lower-case logs are (default: %(default)s)",
    )
    p.add_argument("--learning-rate", type=float, default=2e-3, help="Adam's learning rate (default: %(default)s)")
    p.add_argument(
        "--init-from", metavar="DIR",
        help="continue from a trained artifact (its vocabulary, shape and weights) instead of a fresh model",
    )
    add_progress(p)
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("worker", help="run a streaming worker (settings from DEID_* environment variables)")
    p.add_argument("--kafka-bootstrap", help="broker host:port (DEID_KAFKA_BOOTSTRAP)")
    p.add_argument("--triton-url", help="Triton gRPC host:port; unset = in-process tagger (DEID_TRITON_URL)")
    p.add_argument("--store", help="'memory' or a redis:// URL (DEID_STORE)")
    p.add_argument("--secret-file", help="HMAC secret file (DEID_SECRET_FILE)")
    p.add_argument("--web-port", type=int, help="metrics/health port (DEID_WEB_PORT)")
    p.add_argument("--settings-file", help="a file of DEID_*=value lines; the environment overrides it")
    p.add_argument("--loglevel", default="warning", help="faust log level (default: %(default)s)")
    p.set_defaults(func=cmd_worker)

    p = sub.add_parser("serve", help="run the HTTP service: /v1/detect, /v1/deidentify, /v1/hl7, /fhir/$de-identify")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    p.add_argument("--port", type=int, default=8080, help="port to listen on (default: %(default)s)")
    p.add_argument("--settings-file", help="a file of DEID_*=value lines; the environment overrides it")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser(
        "demo", help="run the service on embedded defaults: local broker, a worker, HL7/FHIR/JSON samples; summarise"
    )
    p.add_argument("--offline", action="store_true", help="no broker or worker: de-identify synthetic notes in-process and score them")
    p.add_argument("-n", type=int, default=20, help="number of sample notes (default: %(default)s)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--store", default="memory", help="'memory' or a Redis URL (default: memory)")
    p.add_argument("--triton-url", help="run the tagger on a Triton server (gRPC host:port) instead of in-process")
    p.add_argument("--out-dir", default="out/demo", help="where results are written (default: %(default)s)")
    add_progress(p)
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.WARNING - 10 * min(args.verbose, 2),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        return int(args.func(args))
    except InputError as exc:
        print(f"deid {args.command}: error: {exc}; no output was written", file=sys.stderr)
        return EXIT_BAD_INPUT
    except CliError as exc:
        print(f"deid {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT if isinstance(exc, BadInputError) else EXIT_FAILURE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
