"""Loading gold annotations and predictions.

Gold comes as JSONL (``{"id", "text", "spans": [{"start", "end", "type"}]}`` per line; other keys such
as ``patient``, ``kind`` or ``family`` are ignored), as one i2b2 2014 or 2006 XML file, or as a
directory of such ``*.xml`` files. Predictions are the JSONL written by ``deid detect``
(``{"id", "spans"}``) or by ``deid deidentify`` (which adds the surrogate ``text``; its spans refer to
the original offsets, so only they are read). ``note_id`` is accepted in place of ``id``.

Blank lines are skipped. Problems raise :class:`EvalInputError` naming the file, the line and the problem.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

from deid_tools.eval.i2b2 import parse_xml_file
from deid_tools.eval.model import EvalInputError, GoldDoc, GoldSet
from schemas import PhiType, Span

log = logging.getLogger(__name__)


def read_gold(path: str | Path) -> GoldSet:
    """Read gold annotations from JSONL, an i2b2 XML file or a directory of i2b2 XML files."""
    path = Path(path)
    docs: list[GoldDoc] = []
    warnings: list[str] = []
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".xml" and p.is_file())
        if not files:
            raise EvalInputError(f"{path}: directory holds no *.xml files")
        for file in files:
            file_docs, file_warnings = parse_xml_file(file)
            docs.extend(file_docs)
            warnings.extend(file_warnings)
    elif _looks_like_xml(path):
        docs, warnings = parse_xml_file(path)
    else:
        docs = list(_read_gold_jsonl(path))
    seen: set[str] = set()
    for doc in docs:
        if doc.id in seen:
            raise EvalInputError(f"{path}: duplicate document id {doc.id!r}")
        seen.add(doc.id)
    return GoldSet(docs=tuple(docs), warnings=tuple(warnings))


def load_gold(path: str | Path) -> list[GoldDoc]:
    """Like :func:`read_gold`, but returns the documents only and logs the number of warnings."""
    gold = read_gold(path)
    if gold.warnings:
        log.warning("gold %s: %d annotation warnings (offsets trusted)", path, len(gold.warnings))
    return list(gold.docs)


def load_predictions(path: str | Path) -> dict[str, list[Span]]:
    """Read ``deid detect`` / ``deid deidentify`` JSONL output: document id -> predicted spans."""
    path = Path(path)
    out: dict[str, list[Span]] = {}
    for lineno, obj in _jsonl_objects(path):
        where = f"{path}, line {lineno}"
        doc_id = _doc_id(obj, where)
        if doc_id in out:
            raise EvalInputError(f"{where}: duplicate document id {doc_id!r}")
        out[doc_id] = _spans(obj, where, text_len=None)
    return out


def _looks_like_xml(path: Path) -> bool:
    if path.suffix.lower() == ".xml":
        return True
    try:
        with path.open("rb") as fh:
            head = fh.read(256)
    except OSError as exc:
        raise EvalInputError(f"{path}: cannot read ({exc.strerror})") from None
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def _read_gold_jsonl(path: Path) -> Iterator[GoldDoc]:
    for lineno, obj in _jsonl_objects(path):
        where = f"{path}, line {lineno}"
        doc_id = _doc_id(obj, where)
        text = obj.get("text")
        if not isinstance(text, str):
            problem = "missing 'text'" if text is None else "'text' is not a string"
            raise EvalInputError(f"{where}: {problem}")
        spans = _spans(obj, where, text_len=len(text))
        spans.sort(key=lambda s: (s.start, s.end))
        yield GoldDoc(id=doc_id, text=text, spans=tuple(spans))


def _jsonl_objects(path: Path) -> Iterator[tuple[int, dict[str, object]]]:
    try:
        fh = path.open(encoding="utf-8-sig")
    except OSError as exc:
        raise EvalInputError(f"{path}: cannot read ({exc.strerror})") from None
    with fh:
        try:
            for lineno, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise EvalInputError(
                        f"{path}, line {lineno}: invalid JSON ({exc.msg} at column {exc.colno})"
                    ) from None
                if not isinstance(obj, dict):
                    raise EvalInputError(
                        f"{path}, line {lineno}: expected a JSON object, got {type(obj).__name__}"
                    )
                yield lineno, obj
        except UnicodeDecodeError:
            raise EvalInputError(f"{path}: not valid UTF-8") from None


def _doc_id(obj: dict[str, object], where: str) -> str:
    doc_id = obj.get("id", obj.get("note_id"))
    if doc_id is None:
        raise EvalInputError(f"{where}: missing 'id'")
    if not isinstance(doc_id, str) or not doc_id:
        raise EvalInputError(f"{where}: 'id' must be a non-empty string")
    return doc_id


def _spans(obj: dict[str, object], where: str, text_len: int | None) -> list[Span]:
    raw = obj.get("spans")
    if raw is None:
        raise EvalInputError(f"{where}: missing 'spans'")
    if not isinstance(raw, list):
        raise EvalInputError(f"{where}: 'spans' must be a list")
    return [_span(item, f"{where}, span #{k}", text_len) for k, item in enumerate(raw, start=1)]


def _span(item: object, where: str, text_len: int | None) -> Span:
    if not isinstance(item, dict):
        raise EvalInputError(f"{where}: expected an object with start, end and type")
    start, end, raw_type = item.get("start"), item.get("end"), item.get("type")
    for name, value in (("start", start), ("end", end)):
        # bool is an int subclass; true/false offsets are a producer bug, not 1/0.
        if not isinstance(value, int) or isinstance(value, bool):
            raise EvalInputError(f"{where}: {name!r} must be an integer")
    assert isinstance(start, int) and isinstance(end, int)
    if not isinstance(raw_type, str):
        raise EvalInputError(f"{where}: 'type' must be a string")
    try:
        type_ = PhiType.parse(raw_type)
    except ValueError:
        raise EvalInputError(f"{where}: unknown PHI type {raw_type!r}") from None
    if not 0 <= start < end:
        raise EvalInputError(f"{where}: invalid offsets {start}:{end} (need 0 <= start < end)")
    if text_len is not None and end > text_len:
        raise EvalInputError(f"{where}: offsets {start}:{end} outside the text (length {text_len})")
    return Span(start, end, type_)
