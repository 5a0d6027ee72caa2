"""Whole-process throughput of ``deid detect`` (default detectors: rules, header, in-process tagger).

Generates held-out synthetic notes (test split) joined into realistic 1-5 KB notes, at least
``--min-chars`` characters in all, writes them to a temporary JSONL file and times:

- the whole process: ``python -m workers.cli detect -i notes.jsonl -o out.jsonl`` as a subprocess,
  ``--runs`` times, start-up included; wall time, chars/s and (user + sys CPU of the process and its
  children) / wall, where a value above 1.5 means both cores of a 2-core machine were busy;
- the steady state: ``workers.cli.main`` called twice in one process, the second call timed, so
  imports are warm (the command still reads its input, loads the weights and writes its output).

Prints figures; asserts nothing.

    .venv/bin/python bench/detect_throughput.py [--min-chars 500000] [--runs 5]
    .venv/bin/python bench/detect_throughput.py --compare a57cd55   # the same on another commit too
    .venv/bin/python bench/detect_throughput.py --compare a57cd55 --bytecode-cache   # modules compiled once

With ``--compare REV`` the other revision is checked out in a temporary ``git worktree`` and run with
its code first on PYTHONPATH, in the same session on the same machine, its runs interleaved with this
checkout's so that a busy neighbour slows both alike; the bench prints the ratios and whether the two
revisions wrote the same spans.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

@dataclass(frozen=True, slots=True)
class Run:
    wall: float
    cpu: float


def realistic_notes(min_chars: int, seed: int) -> list[dict[str, object]]:
    """Held-out notes of 1-5 KB (short kinds joined with the next note), until ``min_chars`` in all."""
    from deid_tools.corpus import generate_notes

    out: list[dict[str, object]] = []
    total, pending, batch = 0, "", 0
    while total < min_chars:
        batch += 1
        for g in generate_notes("test", 400, seed=seed * 1000 + batch):
            text = (pending + "\n\n" + g.text) if pending else g.text
            if len(text) < 1000:
                pending = text
                continue
            pending = ""
            if len(text) > 5000:
                continue
            patient = g.patient.model_dump(mode="json") if g.patient is not None else None
            out.append({"id": f"{g.id}-{batch}", "text": text, "patient": patient})
            total += len(text)
            if total >= min_chars:
                break
    return out


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


_PYCACHE: dict[str, str] = {}
"""Set by --bytecode-cache: PYTHONPYCACHEPREFIX, a temporary folder per revision."""


def _env(tree: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("DEID_DETECT_WORKERS", None)
    if str(tree) in _PYCACHE:
        # As an installed package runs: modules compiled once (by the untimed first run), not at every start.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = _PYCACHE[str(tree)]
    return env


def whole_process(tree: Path, notes: Path, out: Path) -> Run:
    cpu0, started = _children_cpu(), time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "workers.cli", "detect", "-i", str(notes), "-o", str(out)],
        cwd=tree, env=_env(tree), check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    return Run(time.perf_counter() - started, _children_cpu() - cpu0)


def steady_state(tree: Path, notes: Path, out: Path) -> Run:
    code = (
        "import resource, sys, time\n"
        "import workers.cli as cli\n"
        "argv = ['detect', '-i', sys.argv[1], '-o', sys.argv[2]]\n"
        "cli.main(argv)\n"
        "def cpu():\n"
        "    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime\n"
        "c0, t0 = cpu(), time.perf_counter()\n"
        "cli.main(argv)\n"
        "print(time.perf_counter() - t0, cpu() - c0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(notes), str(out)], cwd=tree, env=_env(tree), check=True,
        capture_output=True, text=True,
    )  # fmt: skip
    wall, cpu = (float(x) for x in result.stdout.split()[-2:])
    return Run(wall, cpu)


def imported_from(tree: Path) -> str:
    """Where ``workers.cli`` comes from in that tree's environment (the bench checks it is the tree)."""
    result = subprocess.run(
        [sys.executable, "-c", "import workers.cli, deid_core; print(workers.cli.__file__)"],
        cwd=tree, env=_env(tree), check=True, capture_output=True, text=True,
    )  # fmt: skip
    return result.stdout.strip()


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="deid-bench-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev], check=True, capture_output=True)
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False, capture_output=True)


def _summary(label: str, runs: list[Run], chars: int) -> dict[str, float]:
    walls = [r.wall for r in runs]
    best = min(runs, key=lambda r: r.wall)
    med = statistics.median(walls)
    ratio = statistics.median(r.cpu / r.wall for r in runs)
    print(
        f"  {label:30s} wall min {best.wall:6.2f} s, median {med:6.2f} s   "
        f"{chars / best.wall:9,.0f} chars/s (best), {chars / med:9,.0f} (median)   CPU/wall {ratio:4.2f}"
    )
    return {"min": best.wall, "median": med, "cpu_wall": ratio}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--min-chars", type=int, default=500_000, help="characters of input at least (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=5, help="whole-process runs per revision (default: %(default)s)")
    parser.add_argument("--steady-runs", type=int, default=2, help="steady-state runs per revision (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--compare", metavar="REV", help="also run on this git revision and print ratios")
    parser.add_argument(
        "--bytecode-cache", action="store_true",
        help="let the runs cache compiled modules (in a temporary PYTHONPYCACHEPREFIX) even where "
        "PYTHONDONTWRITEBYTECODE is set, as an installed package would have them",
    )  # fmt: skip
    args = parser.parse_args()

    notes = realistic_notes(args.min_chars, args.seed)
    chars = sum(len(str(n["text"])) for n in notes)
    with tempfile.TemporaryDirectory(prefix="deid-detect-bench-") as tmp, contextlib.ExitStack() as stack:
        path = Path(tmp) / "notes.jsonl"
        path.write_text("".join(json.dumps(n, ensure_ascii=False) + "\n" for n in notes), encoding="utf-8")
        trees = {"this checkout": ROOT}
        if args.compare:
            trees = {f"before ({args.compare})": stack.enter_context(worktree(args.compare)), **trees}
        print(
            f"{len(notes)} notes, {chars:,} chars (mean {chars / len(notes):,.0f}); {os.cpu_count()} CPUs; "
            f"Python {sys.version.split()[0]}; PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}"
        )
        for label, tree in trees.items():
            origin = imported_from(tree)
            if not origin.startswith(str(tree)):
                print(f"warning: {label} imports workers.cli from {origin}, not from {tree}")
        outs = {label: Path(tmp) / f"out-{i}.jsonl" for i, label in enumerate(trees)}
        if args.bytecode_cache:
            for i, tree in enumerate(trees.values()):
                _PYCACHE[str(tree)] = str(Path(tmp) / f"pycache-{i}")
        print(f"bytecode cache: {'on (temporary PYTHONPYCACHEPREFIX)' if args.bytecode_cache else 'as the environment says'}")
        whole: dict[str, list[Run]] = {label: [] for label in trees}
        steady: dict[str, list[Run]] = {label: [] for label in trees}
        # One untimed run each (fills OS caches, and Python's bytecode cache where it is written), then
        # the timed runs, interleaved.
        for label, tree in trees.items():
            whole_process(tree, path, outs[label])
        for _ in range(args.runs):
            for label, tree in trees.items():
                whole[label].append(whole_process(tree, path, outs[label]))
        for _ in range(args.steady_runs):
            for label, tree in trees.items():
                steady[label].append(steady_state(tree, path, outs[label]))
        # Other processes on the machine take cores from both revisions; the load average shows how busy it was.
        print(f"load average after the runs (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print("\nwhole `deid detect` process (start-up included)")
        w = {label: _summary(label, runs, chars) for label, runs in whole.items()}
        print("\nsteady state (second `deid detect` in one warm interpreter)")
        s = {label: _summary(label, runs, chars) for label, runs in steady.items()}
        if args.compare:
            before, after = next(iter(trees)), "this checkout"
            print(
                f"\nratio this/before, throughput: whole process {w[before]['min'] / w[after]['min']:.2f}x (best runs), "
                f"{w[before]['median'] / w[after]['median']:.2f}x (medians); steady state "
                f"{s[before]['min'] / s[after]['min']:.2f}x (best), {s[before]['median'] / s[after]['median']:.2f}x (medians)"
            )
            same = outs[before].read_bytes() == outs[after].read_bytes()
            print(f"outputs byte-identical between the revisions: {'yes' if same else 'no'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
