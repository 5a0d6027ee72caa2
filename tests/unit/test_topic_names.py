"""Topic names have one source: the worker settings. Everything else gets them from there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from workers.settings import TopicNames, WorkerSettings

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "workers" / "settings.py"
# The shipped packages; tests, benches and deploy/ set topics through DEID_TOPIC_* like any deployment.
PACKAGES = ("workers", "deid_core", "schemas")
TOPIC_FIELDS = [name for name in WorkerSettings.model_fields if name.startswith("topic_") and name != "topic_partitions"]
# The shape of a default name, so that a new literal is caught even before it matches a current default.
TOPIC_LIKE = re.compile(r"^deid\.(notes|demographics|deadletter|dead_letter|audit)\b")


def _defaults() -> set[str]:
    return {d for d in (WorkerSettings.model_fields[f].default for f in TOPIC_FIELDS) if isinstance(d, str)}


def _topic_literals(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    defaults = _defaults()
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and (node.value in defaults or TOPIC_LIKE.match(node.value))
    }  # fmt: skip


def test_only_the_settings_spell_out_topic_names() -> None:
    assert _topic_literals(SETTINGS) == _defaults()  # the scan finds them where they are
    offenders = {
        str(path.relative_to(ROOT)): sorted(found)
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != SETTINGS and (found := _topic_literals(path))
    }
    assert offenders == {}


def test_topic_names_default_to_the_settings_and_follow_them() -> None:
    assert TopicNames() == WorkerSettings.model_construct().topic_names()
    assert {f.removeprefix("topic_") for f in TOPIC_FIELDS} == set(TopicNames.__dataclass_fields__)
    custom = WorkerSettings(**{f: f"site.{f}" for f in TOPIC_FIELDS})  # type: ignore[arg-type]
    names = custom.topic_names()
    assert all(getattr(names, f.removeprefix("topic_")) == f"site.{f}" for f in TOPIC_FIELDS)


def test_the_app_and_the_processor_use_the_settings_topics() -> None:
    from workers.compose import build_app, build_processor
    from workers.processor import InMemoryDemographics

    settings = WorkerSettings(topic_notes_in="site.in", topic_demographics="site.demo", topic_dead_letter="site.dlq")
    app = build_app(settings)
    assert sorted(a.channel.get_topic_name() for a in app.agents.values()) == ["site.demo", "site.in"]
    processor = build_processor(settings, InMemoryDemographics(), settings.topic_names())
    assert processor.topics.dead_letter == "site.dlq"
