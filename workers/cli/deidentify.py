"""``deid deidentify``: JSONL note records or HL7 v2 / FHIR messages through the worker's message path,
with this command's store, key ring and policy. Any failure raises before anything is written."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deid_core.pipeline import DetectionPipeline
from deid_core.tagger.base import TaggerUnavailable
from schemas import DeidentifiedNote, NoteRecord
from workers.cli.common import (
    EXIT_OK,
    BadInputError,
    Bar,
    CliError,
    log,
    read_records,
    spans_json,
    write_output,
)
from workers.cli.detection import detection_pipeline


async def _message_pipeline(args: argparse.Namespace, detection: DetectionPipeline) -> Any:
    """The worker's message path with this command's store, key ring and policy."""
    from pydantic import ValidationError

    from deid_core.surrogate.engine import SurrogateConfig, Surrogator
    from deid_core.surrogate.keys import load_keyring
    from workers.compose import ConfigurationError, build_pipeline, build_store
    from workers.security import redis_options, settings_error_message
    from workers.settings import WorkerSettings

    try:
        # Redis AUTH/TLS and the previous keys of a rotation come from the same DEID_* settings as the
        # worker's, so the CLI and the workers agree on every surrogate.
        env = WorkerSettings()
        redis = redis_options(env) if args.store != "memory" else None
    except ValidationError as exc:
        raise CliError(settings_error_message(exc)) from None
    except ConfigurationError as exc:
        raise CliError(str(exc)) from None
    try:
        keyring = load_keyring(args.secret_file, env.previous_secret_files if args.secret_file else ())
    except OSError as exc:
        raise CliError(f"cannot read --secret-file: {exc.strerror}") from None
    except ValueError as exc:  # a short secret or a bad version label; the message never holds the secret
        raise CliError(f"--secret-file: {exc}") from None
    try:
        store = build_store(args.store, redis)
    except ConfigurationError:
        raise CliError("unknown --store: use 'memory' or a redis:// URL") from None
    config = SurrogateConfig(date_shift_min_days=args.date_shift_min_days, date_shift_max_days=args.date_shift_max_days)
    surrogator = Surrogator(store, keyring, config)
    try:
        pipeline = build_pipeline(detection, surrogator, args.policy, keyring.chain[0])
    except ConfigurationError as exc:
        raise CliError(str(exc).removeprefix("DEID_POLICY: ")) from None
    await store.ping()
    return pipeline


async def _deidentify_async(args: argparse.Namespace, work: Any) -> Any:
    from workers.cli.messages import DeidentifyError
    from workers.processor import DependencyUnavailable, dependency_errors

    detection = detection_pipeline(args)
    bar = Bar(work.total, "deidentify", args.progress)
    pipeline = None
    try:
        with dependency_errors():
            pipeline = await _message_pipeline(args, detection)
            return await work.run(pipeline, bar)
    except DependencyUnavailable as exc:  # the message names the service and error type, never data
        raise CliError(f"{exc}; nothing was written") from None
    except TaggerUnavailable as exc:
        raise CliError(f"{exc}; nothing was written") from None
    except DeidentifyError as exc:
        if exc.bad_input:
            raise BadInputError(f"{exc}; no output was written") from None
        raise CliError(str(exc)) from None
    finally:
        bar.close()
        await detection.close()
        if pipeline is not None:
            await pipeline.surrogator.store.close()


class _RecordWork:
    def __init__(self, records: Sequence[NoteRecord], batch_size: int) -> None:
        self.records, self.batch_size, self.total = records, batch_size, len(records)

    async def run(self, pipeline: Any, bar: Bar) -> list[DeidentifiedNote]:
        from workers.cli.messages import deidentify_records

        return await deidentify_records(pipeline, self.records, self.batch_size, bar)


def deidentify_notes(records: Sequence[NoteRecord], args: argparse.Namespace) -> list[DeidentifiedNote]:
    """Note records through the message path; any failure raises before anything is written."""
    return asyncio.run(_deidentify_async(args, _RecordWork(records, max(1, args.batch_size))))


def deidentified_rows(results: Sequence[DeidentifiedNote]) -> Any:
    return ({"id": r.note_id, "text": r.text, "spans": spans_json(r.spans)} for r in results)


def cmd_deidentify(args: argparse.Namespace) -> int:
    if args.date_shift_min_days < 1 or args.date_shift_max_days < args.date_shift_min_days:
        raise CliError("--date-shift-min-days must be >= 1 and <= --date-shift-max-days")
    if args.format == "jsonl":
        results = deidentify_notes(read_records(args.input), args)
        n = write_output(args.output, deidentified_rows(results))
        log.info("deidentify: %d notes", n)
        return EXIT_OK
    from workers.cli.messages import (
        DeidentifyError,
        deidentify_messages,
        format_of,
        read_inputs,
        write_outputs,
    )

    try:
        inputs = read_inputs(args.input)
    except DeidentifyError as exc:
        raise (BadInputError(str(exc)) if exc.bad_input else CliError(str(exc))) from None

    class _Messages:
        total = len(inputs)

        async def run(self, pipeline: Any, bar: Bar) -> list[tuple[str, bytes]]:
            return await deidentify_messages(
                pipeline, inputs, format_of(args.format), max(1, args.batch_size), args.skip_invalid, bar
            )

    outputs = asyncio.run(_deidentify_async(args, _Messages()))
    try:
        write_outputs(outputs, args.output, folder_input=args.input not in (None, "-") and Path(args.input).is_dir())
    except DeidentifyError as exc:
        raise CliError(str(exc)) from None
    log.info("deidentify: %d messages", len(outputs))
    return EXIT_OK
