"""Readers for the i2b2 de-identification corpora.

2014 (one note per file, stand-off annotations)::

    <deIdi2b2><TEXT><![CDATA[...]]></TEXT>
      <TAGS><DATE id="P0" start="16" end="26" text="..." TYPE="DATE" comment=""/>...</TAGS></deIdi2b2>

The document id is the file name without ``.xml``. ``TYPE`` is the subtype; the element name is the
category and is used only when ``TYPE`` is missing.

2006 (many notes per file, inline annotations)::

    <ROOT><RECORD ID="1"><TEXT>... <PHI TYPE="PATIENT">...</PHI> ...</TEXT></RECORD>...</ROOT>

The text is the concatenation of all character data inside ``TEXT`` with the ``PHI`` tags removed;
offsets are computed over that text. 2006 types are mapped onto the 2014 subtypes by ``I2B2_2006_TYPES``.

XML parsing normalises ``\\r\\n`` to ``\\n`` (as the XML specification requires); i2b2 2014 offsets
are over ``\\n`` text, so a converted file with CRLF line ends will show up as text mismatches.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from deid_tools.eval.model import EvalInputError, GoldDoc
from schemas import PhiType, Span

I2B2_2006_TYPES: dict[str, PhiType] = {
    "PATIENT": PhiType.PATIENT,
    "DOCTOR": PhiType.DOCTOR,
    "HOSPITAL": PhiType.HOSPITAL,
    # 2006 "ID" lumps medical record, accession and other numbers together.
    "ID": PhiType.IDNUM,
    "DATE": PhiType.DATE,
    "LOCATION": PhiType.LOCATION_OTHER,
    "PHONE": PhiType.PHONE,
    "AGE": PhiType.AGE,
}

_WS_TABLE = str.maketrans({"\n": " ", "\r": " ", "\t": " "})


def parse_xml_file(path: Path) -> tuple[list[GoldDoc], list[str]]:
    """Parse one i2b2 2014 or 2006 XML file; returns the documents and the warnings."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        line, col = exc.position
        raise EvalInputError(f"{path}, line {line}, column {col}: malformed XML ({_reason(exc)})") from None
    except OSError as exc:
        raise EvalInputError(f"{path}: cannot read ({exc.strerror})") from None
    if root.tag == "ROOT":
        return _parse_2006(path, root)
    if root.tag == "deIdi2b2" or root.find("TEXT") is not None:
        return _parse_2014(path, root)
    raise EvalInputError(
        f"{path}: root element <{root.tag}> is neither i2b2 2014 (<deIdi2b2> with TEXT and TAGS) nor 2006 (<ROOT>)"
    )


def _reason(exc: ET.ParseError) -> str:
    # ParseError's message ends with ": line L, column C", which the caller already reports.
    return str(exc).split(":", 1)[0]


def _parse_2014(path: Path, root: ET.Element) -> tuple[list[GoldDoc], list[str]]:
    text_el = root.find("TEXT")
    tags_el = root.find("TAGS")
    if text_el is None:
        raise EvalInputError(f"{path}: <{root.tag}> has no <TEXT> element")
    text = text_el.text or ""
    warnings: list[str] = []
    spans: list[Span] = []
    for el in [] if tags_el is None else list(tags_el):
        where = f"{path}, element <{el.tag} id={el.get('id', '?')!r}>"
        raw_type = el.get("TYPE") or el.tag
        try:
            type_ = PhiType.parse(raw_type)
        except ValueError:
            raise EvalInputError(f"{where}: unknown PHI type {raw_type!r}") from None
        start, end = _int_attr(el, "start", where), _int_attr(el, "end", where)
        if not 0 <= start < end <= len(text):
            raise EvalInputError(f"{where}: offsets {start}:{end} outside the text (length {len(text)})")
        expected = el.get("text")
        # Attribute values have their newlines and tabs turned into spaces by the XML parser.
        if expected is not None and expected.translate(_WS_TABLE) != text[start:end].translate(_WS_TABLE):
            warnings.append(f"{where}: text attribute does not match TEXT[{start}:{end}]; using the offsets")
        spans.append(Span(start, end, type_))
    spans.sort(key=lambda s: (s.start, s.end))
    return [GoldDoc(id=path.stem, text=text, spans=tuple(spans))], warnings


def _int_attr(el: ET.Element, name: str, where: str) -> int:
    value = el.get(name)
    if value is None:
        raise EvalInputError(f"{where}: missing attribute {name!r}")
    try:
        return int(value)
    except ValueError:
        raise EvalInputError(f"{where}: attribute {name!r} is not an integer") from None


def _parse_2006(path: Path, root: ET.Element) -> tuple[list[GoldDoc], list[str]]:
    docs: list[GoldDoc] = []
    warnings: list[str] = []
    for n, record in enumerate(root.iter("RECORD"), start=1):
        rec_id = record.get("ID")
        where = f"{path}, element <RECORD ID={rec_id!r}>" if rec_id else f"{path}, RECORD #{n}"
        if not rec_id:
            raise EvalInputError(f"{where}: missing ID attribute")
        text_el = record.find("TEXT")
        if text_el is None:
            raise EvalInputError(f"{where}: no <TEXT> element")
        parts: list[str] = [text_el.text or ""]
        length = len(parts[0])
        spans: list[Span] = []
        for k, child in enumerate(text_el, start=1):
            if child.tag != "PHI":
                raise EvalInputError(f"{where}: unexpected element <{child.tag}> inside TEXT")
            if len(child):
                raise EvalInputError(f"{where}: PHI #{k} contains nested elements")
            raw_type = (child.get("TYPE") or "").strip().upper()
            type_ = I2B2_2006_TYPES.get(raw_type)
            if type_ is None:
                try:
                    type_ = PhiType.parse(raw_type)
                except ValueError:
                    raise EvalInputError(f"{where}: PHI #{k} has unknown TYPE {raw_type!r}") from None
            value = child.text or ""
            if value:
                spans.append(Span(length, length + len(value), type_))
            else:
                warnings.append(f"{where}: PHI #{k} is empty; skipped")
            parts.append(value)
            parts.append(child.tail or "")
            length += len(value) + len(child.tail or "")
        docs.append(GoldDoc(id=rec_id, text="".join(parts), spans=tuple(spans)))
    return docs, warnings
