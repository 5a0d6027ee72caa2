"""Hypothesis strategies for hostile input: valid HL7 v2, FHIR and JSON-envelope messages, then mutated.

Seeds are the repository's own samples (tests/fixtures, workers/samples) with a synthetic canary patient
written into them, so a test can check that whatever still parses after mutation never leaves with the
canary in it. Each mutator is meant to make the message invalid (truncation, wrong encodings, huge fields,
bad base64, missing segments, wrong JSON types, deep nesting, ...); some mutants still parse, and those
must then come out fully de-identified.

Files are read lazily (on first draw), never at import.
"""

from __future__ import annotations

import base64
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]

# Synthetic canary patient (not a real person): written into every seed's header and note text.
CANARY_GIVEN = "Zephyrine"
CANARY_FAMILY = "Quixotebeard"
CANARY_ID = "ZQ48213"
CANARIES = (CANARY_GIVEN, CANARY_FAMILY, CANARY_ID)
# The FHIR fixtures' own synthetic patient.
FHIR_FAMILY = "Quennell"

MiB = 1024 * 1024
HUGE = (2 * MiB, 5 * MiB)
"""Sizes of huge fields in-process: over any sane message limit."""
SENDABLE = (300_000, 900_000)
"""Sizes of huge fields for a real broker: under the producer's default 1 MB request size."""


# --- seeds -------------------------------------------------------------------------------------------


def _hl7_with_canary(raw: bytes) -> bytes:
    text = raw.decode("latin-1").replace("\r\n", "\r").replace("\n", "\r").strip()
    segments = text.split("\r")
    out = []
    for seg in segments:
        if seg.startswith("PID|"):
            fields = seg.split("|")
            fields += [""] * (6 - len(fields))
            fields[3] = f"{CANARY_ID}^^^HOSP^MR"
            fields[5] = f"{CANARY_FAMILY}^{CANARY_GIVEN}"
            seg = "|".join(fields)
        out.append(seg)
    if "|ORU^" in segments[0] or "|MDM^" in segments[0]:
        out.append(f"OBX|99|TX|NOTE^Note||{CANARY_GIVEN} {CANARY_FAMILY} was seen today; {CANARY_FAMILY} is stable.")
    return "\r".join(out).encode("latin-1")


@lru_cache(maxsize=1)
def hl7_seeds() -> tuple[bytes, ...]:
    files = sorted((ROOT / "tests" / "fixtures" / "hl7").glob("*.hl7")) + sorted((ROOT / "workers" / "samples").glob("*.hl7"))
    return tuple(_hl7_with_canary(f.read_bytes()) for f in files)


@lru_cache(maxsize=1)
def fhir_seeds() -> tuple[bytes, ...]:
    files = sorted((ROOT / "tests" / "fixtures" / "fhir").glob("*.json")) + sorted((ROOT / "workers" / "samples").glob("*.json"))
    return tuple(f.read_bytes() for f in files)


_WORDS = st.sampled_from(["seen", "today", "stable", "BP", "120/80", "on", "by", "Dr.", "Lee", "03/05/2014", "note", "\n"])


@st.composite
def envelope_docs(draw: st.DrawFn) -> dict[str, Any]:
    """A valid JSON-envelope note about the canary patient."""
    words = draw(st.lists(_WORDS, max_size=12))
    doc: dict[str, Any] = {
        "id": draw(st.from_regex(r"[a-z0-9][a-z0-9\-]{0,20}", fullmatch=True)),
        "text": f"{CANARY_GIVEN} {CANARY_FAMILY} " + " ".join(words),
    }
    if draw(st.booleans()):
        doc["patient"] = {"patient_id": CANARY_ID, "names": [f"{CANARY_GIVEN} {CANARY_FAMILY}"]}
        if draw(st.booleans()):
            doc["patient"]["birth_date"] = "1961-06-15"
    else:
        doc["patient_ref"] = CANARY_ID
        doc["text"] = doc["text"].replace(f"{CANARY_GIVEN} {CANARY_FAMILY} ", "Patient ")
    if draw(st.booleans()):
        doc["kind"] = "discharge"
    return doc


def envelope_seeds() -> st.SearchStrategy[bytes]:
    return envelope_docs().map(lambda d: json.dumps(d).encode())


# --- generic byte mutators ----------------------------------------------------------------------------

_BAD_UTF8 = [b"\xff", b"\xfe", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xe2\x82"]
_BOMS = [b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00", b"\xef\xbb\xbf\xef\xbb\xbf"]


@st.composite
def truncated(draw: st.DrawFn, raw: bytes) -> bytes:
    return raw[: draw(st.integers(0, max(len(raw) - 1, 0)))]


@st.composite
def byte_flips(draw: st.DrawFn, raw: bytes) -> bytes:
    out = bytearray(raw)
    for _ in range(draw(st.integers(1, 8))):
        if out:
            out[draw(st.integers(0, len(out) - 1))] = draw(st.integers(0, 255))
    return bytes(out)


@st.composite
def insertions(draw: st.DrawFn, raw: bytes) -> bytes:
    pos = draw(st.integers(0, len(raw)))
    junk = draw(st.one_of(st.binary(min_size=1, max_size=64), st.sampled_from(_BAD_UTF8)))
    return raw[:pos] + junk + raw[pos:]


@st.composite
def deletions(draw: st.DrawFn, raw: bytes) -> bytes:
    start = draw(st.integers(0, max(len(raw) - 1, 0)))
    end = draw(st.integers(start + 1, max(start + 1, min(len(raw), start + 400))))
    return raw[:start] + raw[end:]


@st.composite
def wrong_encodings(draw: st.DrawFn, raw: bytes) -> bytes:
    text = raw.decode("utf-8", errors="replace")
    kind = draw(st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "cp500", "bom", "bad-utf8", "latin1-accents"]))
    if kind == "bom":
        return draw(st.sampled_from(_BOMS)) + raw
    if kind == "bad-utf8":
        pos = draw(st.integers(0, len(raw)))
        return raw[:pos] + draw(st.sampled_from(_BAD_UTF8)) + raw[pos:]
    if kind == "latin1-accents":
        # Non-ASCII written as latin-1 with no charset declared.
        return text.replace("e", "\u00e9", 3).encode("latin-1", errors="replace")
    return text.encode(kind, errors="replace")


@st.composite
def huge_insert(draw: st.DrawFn, raw: bytes, big: tuple[int, int]) -> bytes:
    pos = draw(st.integers(0, len(raw)))
    unit = draw(st.sampled_from([b"A", b"x ", b"Seen 03/05/2014. ", b"\\.br\\", b"\xff"]))
    size = draw(st.integers(*big)) - len(raw)
    return raw[:pos] + unit * (size // len(unit)) + raw[pos:]


def byte_mutants(raw: bytes, big: tuple[int, int]) -> st.SearchStrategy[bytes]:
    return st.one_of(truncated(raw), byte_flips(raw), insertions(raw), deletions(raw), wrong_encodings(raw), huge_insert(raw, big))


def garbage() -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.just(b""),
        st.binary(max_size=512),
        st.text(max_size=200).map(lambda t: t.encode("utf-8", errors="surrogatepass")),
        st.sampled_from([b"MSH", b"MSH|", b"MSH|^~\\&", b"{", b"{}", b"[]", b"null", b"\x00" * 64, b" \r\n\t"]),
    )


# --- HL7 v2 mutators ----------------------------------------------------------------------------------


def _segments(raw: bytes) -> list[bytes]:
    return raw.split(b"\r")


@st.composite
def hl7_structural(draw: st.DrawFn, raw: bytes, big: tuple[int, int]) -> bytes:
    segs = _segments(raw)
    kind = draw(st.sampled_from([
        "drop-pid", "drop-msh", "separator", "dup-msh", "dup-pid", "msh9", "msh2", "msh10", "many-segments",
        "escape-bomb", "charset", "drop-segment", "shuffle", "field-sep", "huge-obx",
    ]))
    if kind == "drop-pid":
        return b"\r".join(s for s in segs if not s.startswith(b"PID"))
    if kind == "drop-msh":
        return b"\r".join(segs[1:])
    if kind == "separator":
        sep = draw(st.sampled_from([b"", b"|", b"\x00", b"\x1c", b"\t", b"~", b"\\r"]))
        return sep.join(segs)
    if kind == "dup-msh":
        return b"\r".join([segs[0], *segs])
    if kind == "dup-pid":
        pid = [s for s in segs if s.startswith(b"PID")]
        return b"\r".join(segs + pid[:1] + [b"PID|1||OTHER99^^^X^MR||Other^Person"])
    if kind in ("msh9", "msh2", "msh10"):
        fields = segs[0].split(b"|")
        index = {"msh9": 8, "msh2": 1, "msh10": 9}[kind]
        if index < len(fields):
            fields[index] = draw(st.sampled_from([b"", b"ZZZ^Q01", b"ORU", b"^", b"&&&&", b"ORU^R01^ORU_R01^x^y", b'""']))
        return b"\r".join([b"|".join(fields), *segs[1:]])
    if kind == "many-segments":
        n = draw(st.integers(min(2_000, big[1] // 30), big[1] // 30))
        return b"\r".join([*segs, *([b"OBX|1|TX|N^N||line of text"] * n)])
    if kind == "escape-bomb":
        n = draw(st.integers(100, 50_000))
        return b"\r".join([*segs, b"OBX|1|TX|N^N||" + b"\\.sp99999\\" * n])
    if kind == "charset":
        fields = segs[0].split(b"|")
        fields += [b""] * (19 - len(fields))
        fields[17] = draw(st.sampled_from([b"UNICODE UTF-8", b"8859/1", b"KLINGON", b"8859/99", b"CP1252"]))
        return b"\r".join([b"|".join(fields), *segs[1:]]) + b"\rOBX|9|TX|N||caf\xe9 \x81\x8d\x90\x9d"
    if kind == "drop-segment" and len(segs) > 1:
        i = draw(st.integers(1, len(segs) - 1))
        return b"\r".join(segs[:i] + segs[i + 1 :])
    if kind == "shuffle":
        return b"\r".join(draw(st.permutations(segs)))
    if kind == "field-sep":
        return raw.replace(b"|", draw(st.sampled_from([b"^", b"#", b"", b"||"])))
    if kind == "huge-obx":
        return b"\r".join([*segs, b"OBX|1|TX|N^N||" + b"Seen 03/05/2014 by Dr. Lee. " * (draw(st.integers(*big)) // 28)])
    return raw


def hl7_messages(big: tuple[int, int] = HUGE) -> st.SearchStrategy[bytes]:
    seed = st.deferred(lambda: st.sampled_from(hl7_seeds()))
    structural = seed.flatmap(lambda r: hl7_structural(r, big))
    return st.one_of(structural, structural, seed.flatmap(lambda r: byte_mutants(r, big)), garbage())


# --- JSON mutators (FHIR and envelope) --------------------------------------------------------------------

_WRONG_VALUES: list[Any] = [None, 0, -1, 1.5, 10**30, True, False, "", "x", [], [None], {}, {"a": 1}, ["x", 2]]


def _paths(node: Any, prefix: tuple[Any, ...] = (), out: list[tuple[Any, ...]] | None = None) -> list[tuple[Any, ...]]:
    out = [] if out is None else out
    if isinstance(node, dict):
        for k, v in node.items():
            out.append((*prefix, k))
            _paths(v, (*prefix, k), out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.append((*prefix, i))
            _paths(v, (*prefix, i), out)
    return out


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for p in path[:-1]:
        doc = doc[p]
    return doc


def _deep(depth: int, opener: str) -> str:
    closer = {"[": "]", '{"a":': "}"}[opener]
    return opener * depth + ("1" if opener != "[" else "") + closer * depth


@st.composite
def json_structural(draw: st.DrawFn, raw: bytes, big: tuple[int, int]) -> bytes:
    doc = json.loads(raw)
    paths = _paths(doc)
    kind = draw(st.sampled_from([
        "wrong-type", "wrong-type", "delete", "deep", "deep-unclosed", "root-type", "not-fhir", "resource-type",
        "bad-base64", "huge-field", "bad-charset", "surrogate", "dup-keys", "nan",
    ]))
    if kind == "wrong-type" and paths:
        path = draw(st.sampled_from(paths))
        _parent(doc, path)[path[-1]] = draw(st.sampled_from(_WRONG_VALUES))
        return json.dumps(doc).encode()
    if kind == "delete" and paths:
        path = draw(st.sampled_from(paths))
        del _parent(doc, path)[path[-1]]
        return json.dumps(doc).encode()
    if kind in ("deep", "deep-unclosed"):
        depth = draw(st.integers(10_000, 100_000))
        opener = draw(st.sampled_from(["[", '{"a":']))
        nested = _deep(depth, opener)
        if kind == "deep-unclosed":
            nested = opener * depth
        key = draw(st.sampled_from(["text", "extension", "zz", "subject", "resourceType", "content"]))
        doc[key] = "@@NESTED@@"
        return json.dumps(doc).encode().replace(b'"@@NESTED@@"', nested.encode())
    if kind == "root-type":
        return json.dumps(draw(st.sampled_from([[doc], "doc", 5, None, [], True]))).encode()
    if kind == "not-fhir":
        return json.dumps({"resourceType": draw(st.sampled_from(["Foo", "Observation", "", "patient", "Bundle "])), "id": "x"}).encode()
    if kind == "resource-type":
        doc["resourceType"] = draw(st.sampled_from(["Observation", "Unknown", "Binary", 7, None, ["Patient"]]))
        return json.dumps(doc).encode()
    if kind == "bad-base64":
        junk = draw(st.sampled_from(["!!!!", "QUJD=", "QQ", "====", "\u00e9\u00e9", "A" * 5, "QUJD\x00"]))
        return json.dumps(_set_all(doc, "data", junk)).encode()
    if kind == "huge-field":
        size = draw(st.integers(*big)) - len(raw)
        key = draw(st.sampled_from(["text", "data", "family", "id", "conclusion"]))
        value = base64.b64encode(b"Seen by Dr. Lee. " * (size // 23)).decode() if key == "data" else "x" * size
        return json.dumps(_set_all(doc, key, value) if key != "text" else {**doc, key: value}).encode()
    if kind == "bad-charset":
        ctype = draw(st.sampled_from(["text/plain; charset=klingon", "text/plain; charset=utf-16", "text/plain; charset=ascii"]))
        doc = _set_all(doc, "contentType", ctype)
        return json.dumps(_set_all(doc, "data", base64.b64encode("caf\u00e9 \u2603".encode()).decode())).encode()
    if kind == "surrogate":
        doc["text" if "text" in doc else "id"] = "@@S@@"
        return json.dumps(doc).encode().replace(b'"@@S@@"', b'"\\ud800 lone"')
    if kind == "dup-keys":
        return raw.rstrip()[:-1] + b', "id": 5, "resourceType": null}' if raw.rstrip().endswith(b"}") else raw + b"}"
    if kind == "nan":
        return json.dumps({**doc, "id": float("nan")}).encode()
    return raw + b"\x00"


def _set_all(node: Any, key: str, value: Any) -> Any:
    """Set ``key`` to ``value`` wherever it occurs (or at the top when it occurs nowhere)."""
    found = False

    def walk(n: Any) -> None:
        nonlocal found
        if isinstance(n, dict):
            for k in list(n):
                if k == key:
                    n[k] = value
                    found = True
                else:
                    walk(n[k])
        elif isinstance(n, list):
            for v in n:
                walk(v)

    walk(node)
    if not found and isinstance(node, dict):
        node[key] = value
    return node


def fhir_messages(big: tuple[int, int] = HUGE) -> st.SearchStrategy[bytes]:
    seed = st.deferred(lambda: st.sampled_from(fhir_seeds()))
    structural = seed.flatmap(lambda r: json_structural(r, big))
    return st.one_of(structural, structural, seed.flatmap(lambda r: byte_mutants(r, big)), garbage())


def envelope_messages(big: tuple[int, int] = HUGE) -> st.SearchStrategy[bytes]:
    seed = envelope_seeds()
    structural = seed.flatmap(lambda r: json_structural(r, big))
    return st.one_of(structural, structural, seed.flatmap(lambda r: byte_mutants(r, big)), garbage())
