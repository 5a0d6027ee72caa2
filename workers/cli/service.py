"""``deid worker`` (the faust streaming worker) and ``deid serve`` (the HTTP service)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from workers.cli.common import EXIT_OK, CliError


def cmd_worker(args: argparse.Namespace) -> int:
    """Run a streaming worker (faust) against the configured broker, tagger and mapping store."""
    # Before torch loads: oneDNN's primitive cache keeps a compiled kernel per input shape (up to 1,024),
    # and note lengths vary, so a long-running in-process tagger would grow by ~90 MB before levelling
    # off (bench/soak.py); without the cache throughput measured the same. An explicit value wins.
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "0")
    from pydantic import ValidationError

    from workers.security import (
        ConfigurationError,
        aiokafka_client_options,
        load_keyring,
        redis_options,
        settings_error_message,
    )
    from workers.settings import WorkerSettings

    overrides = {k: v for k, v in {
        "kafka_bootstrap": args.kafka_bootstrap, "triton_url": args.triton_url, "store": args.store,
        "secret_file": args.secret_file, "web_port": args.web_port,
    }.items() if v is not None}
    if args.settings_file is not None and not Path(args.settings_file).is_file():
        raise CliError(f"--settings-file {args.settings_file} is not a readable file")
    # Settings, secret files and the production checks, before anything connects (or faust is imported).
    try:
        settings = WorkerSettings(_env_file=args.settings_file, **overrides)  # type: ignore[call-arg]
        keyring = load_keyring(settings)
        redis_options(settings)
        aiokafka_client_options(settings)  # reads the SASL password file and loads the TLS files
    except ValidationError as exc:
        raise CliError(settings_error_message(exc)) from None
    except ConfigurationError as exc:
        raise CliError(str(exc)) from None

    import faust

    from workers.compose import build_app

    try:
        app = build_app(settings, keyring=keyring)
    except ValidationError as exc:
        raise CliError(settings_error_message(exc)) from None
    except (ConfigurationError, ValueError) as exc:
        raise CliError(str(exc)) from None
    worker = faust.Worker(app, loglevel=args.loglevel)
    worker.execute_from_commandline()
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    """The HTTP service (workers/serve.py) on uvicorn; settings from DEID_* variables and --settings-file."""
    if args.settings_file is not None and not Path(args.settings_file).is_file():
        raise CliError(f"--settings-file {args.settings_file} is not a readable file")
    from workers.serve import ConfigurationError, run_server

    try:
        return run_server(args.host, args.port, args.settings_file)
    except ConfigurationError as exc:
        raise CliError(str(exc)) from None
