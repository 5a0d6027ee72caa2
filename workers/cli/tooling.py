"""The commands that need the tooling distribution (deid-stream-tools): eval, corpus, demo, train.

Each checks for it first (``require_tooling``) and imports it inside the command, so the runtime never does.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deid_core.detect.registry import DEFAULT_DETECTORS
from schemas import EnrichedNote, NoteRecord
from workers.cli.common import (
    DEFAULT_BATCH_SIZE,
    EXIT_OK,
    Bar,
    CliError,
    open_output,
    require_tooling,
    write_output,
)
from workers.cli.deidentify import deidentified_rows, deidentify_notes
from workers.cli.detection import detection_pipeline, run_detection


def _gold_notes(path: Path, gold: Sequence[Any]) -> list[EnrichedNote]:
    """Gold texts as notes, with the patient headers a JSONL gold file carries (the corpus writes them)."""
    from schemas import PatientHeader

    headers: dict[str, PatientHeader] = {}
    if path.is_file() and path.suffix.lower() != ".xml":
        with path.open("rb") as fh:
            for raw in fh:
                if raw.strip():
                    obj = json.loads(raw)
                    if obj.get("patient"):
                        headers[str(obj["id"])] = PatientHeader.model_validate(obj["patient"])
    return [EnrichedNote(doc.id, doc.text, headers.get(doc.id)) for doc in gold]


def cmd_eval(args: argparse.Namespace) -> int:
    require_tooling()
    from deid_tools.eval import EvalInputError, evaluate, load_gold, load_predictions

    gold_path = Path(args.gold)
    try:
        gold = load_gold(gold_path)
        if args.pred:
            predictions = load_predictions(Path(args.pred))
            label = f"predictions from {args.pred}"
        else:
            notes = _gold_notes(gold_path, gold)
            started = time.perf_counter()
            found = run_detection(detection_pipeline(args), notes, args)
            elapsed = time.perf_counter() - started
            predictions = {note.note_id: spans for note, spans in zip(notes, found, strict=True)}
            chars = sum(len(d.text) for d in gold)
            label = (
                f"detectors {args.detectors} on {len(gold)} notes, {chars} chars, "
                f"{elapsed:.2f} s ({chars / max(elapsed, 1e-9):,.0f} chars/s)"
            )
    except EvalInputError as exc:
        raise CliError(str(exc)) from None
    except FileNotFoundError as exc:
        raise CliError(f"file not found: {exc.filename}") from None
    report = evaluate(gold, predictions)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(f"# {label}")
        print(report.format_table())
    return EXIT_OK


def cmd_corpus(args: argparse.Namespace) -> int:
    require_tooling()
    from deid_tools.corpus import generate_notes, write_jsonl

    out = open_output(args.output)
    bar = Bar(args.n, f"corpus {args.split}", args.progress)
    try:
        def counted(notes: Any) -> Any:
            for note in notes:
                bar.update(1)
                yield note

        n = write_jsonl(counted(generate_notes(args.split, args.n, seed=args.seed)), out)
    finally:
        bar.close()
        if out is not sys.stdout:
            out.close()
    print(f"wrote {n} {args.split} notes", file=sys.stderr)
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    """The service on embedded defaults (broker, worker, samples); ``--offline`` skips the broker."""
    require_tooling()  # both paths send synthetic corpus notes; --offline also scores them
    if not args.offline:
        from workers.demo import DemoOptions, run_demo

        show = sys.stderr.isatty() if args.progress is None else args.progress
        try:
            return run_demo(DemoOptions(args.n, args.seed, args.store, args.triton_url, Path(args.out_dir), show))
        except RuntimeError as exc:
            raise CliError(str(exc)) from None
    return _offline_demo(args)


def _offline_demo(args: argparse.Namespace) -> int:
    """De-identify a few synthetic notes in this process and score them against their gold spans."""
    from deid_tools.corpus import generate_notes

    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    gold = list(generate_notes("test", args.n, seed=args.seed))
    records = [NoteRecord(id=g.id, text=g.text, patient=g.patient) for g in gold]
    demo_args = argparse.Namespace(
        secret_file=None, store=args.store, date_shift_min_days=1, date_shift_max_days=365, policy="surrogate",
        progress=args.progress, detectors=",".join(DEFAULT_DETECTORS), triton_url=args.triton_url,
        tagger_model_dir=None, batch_size=DEFAULT_BATCH_SIZE,
    )
    started = time.perf_counter()
    results = deidentify_notes(records, demo_args)
    elapsed = time.perf_counter() - started
    out_path = out_dir / "deidentified.jsonl"
    write_output(str(out_path), deidentified_rows(results))
    by_type = Counter(s.type.value for r in results for s in r.spans)
    chars = sum(len(r.text) for r in records)
    print(f"de-identified {len(results)} synthetic notes ({chars} chars) in {elapsed:.2f} s -> {out_path}")
    print("replaced spans by type: " + ", ".join(f"{t}={c}" for t, c in by_type.most_common()))
    from deid_tools.eval import GoldDoc, evaluate

    report = evaluate([GoldDoc(g.id, g.text, g.spans) for g in gold], {r.note_id: list(r.spans) for r in results})
    for row in ("ALL", "HIPAA"):
        m = report.metric("token", row)
        print(f"against the synthetic gold, {row:5s} PHI tokens: recall {m.recall:.3f}, precision {m.precision:.3f}")
    sample = results[0]
    print(f"\n--- first de-identified note ({sample.note_id}), first 600 chars ---\n{sample.text[:600]}")
    return EXIT_OK


def cmd_train(args: argparse.Namespace) -> int:
    """Train the tagger on the synthetic corpus, evaluate on held-out families, write weights + model card."""
    require_tooling()
    import torch
    from tqdm import tqdm

    from deid_core.tagger import default_model_dir
    from deid_tools.train.job import JobConfig, run_training_job
    from deid_tools.train.train import TrainConfig

    torch.set_num_threads(args.threads)
    out_dir = Path(args.out) if args.out else default_model_dir()
    config = JobConfig(
        train_n=args.train_n, dev_n=args.dev_n, test_n=args.test_n, corpus_seed=args.corpus_seed,
        train=TrainConfig(
            epochs=args.epochs, patience=args.patience, seed=args.seed, threads=args.threads, lexicon=args.lexicon,
            model={"hidden": args.hidden}, learning_rate=args.learning_rate, init_from=args.init_from,
        ),
        train_gold=args.train_gold, dev_gold=args.dev_gold, test_gold=args.test_gold,
        augment_gold=tuple(args.augment_gold), augment_copies=args.augment_copies,
        hard_names=args.hard_names, lower_share=args.lower_share,
    )
    show = sys.stderr.isatty() if args.progress is None else args.progress
    progress = (lambda it, **kw: tqdm(it, file=sys.stderr, **kw)) if show else (lambda it, **kw: it)
    metrics = run_training_job(out_dir, config, progress=progress)
    test = metrics["eval"]["test"]  # type: ignore[index]
    print(f"wrote {out_dir} (weights, vocab, tagger.json, MODEL_CARD.md, metrics.json)")
    for who in ("tagger", "pipeline"):
        strict = test[who]["strict"]["ALL"]
        hipaa = test[who]["token"]["HIPAA"]
        print(f"test {who:8s}: strict ALL F1 {strict['f1']:.3f}; HIPAA token recall {hipaa['recall']:.3f}")
    return EXIT_OK
