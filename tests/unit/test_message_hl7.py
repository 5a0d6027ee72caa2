"""HL7 v2 loader: every value a typed leaf, kinds from the v2.5.1 tables, faithful rendering.

Synthetic messages use invented values only; the samples in /work/shared/data/hl7v2-samples and
tests/fixtures/hl7 are public.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest
from hl7apy.v2_5_1 import SEGMENTS

from deid_core.message.hl7 import kinds
from deid_core.message.hl7.codec import Hl7Loader, Hl7Message, field_specs, segment_names, value_type_specs
from deid_core.message.hl7.load import normalise
from deid_core.message.hl7.tables import segment_fields
from schemas.events import EventFormat, EventParseError
from schemas.hl7v2 import Hl7v2Codec
from schemas.message import Kind, LeafSpec, LoadedMessage, MessageLoader, Role
from schemas.phi import PhiType

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "hl7"
SHARED = Path("/work/shared/data/hl7v2-samples")
SAMPLES = sorted(SHARED.glob("*.hl7")) + sorted(FIXTURES.glob("*.hl7"))
# Samples that carry several patients (merges, batch accounts): refused as today.
MULTI_PATIENT = {"ADT-A40-02.hl7", "ADT-A41-02.hl7", "ADT-A47-02.hl7", "BAR-P02-01.hl7", "BAR-P02-02.hl7"}
PHI_KINDS = {Kind.NAME, Kind.LOCATION, Kind.ADDRESS, Kind.CONTACT, Kind.IDENTIFIER, Kind.DATE}

MSH = "MSH|^~\\&|LAB|LABFAC|EHR|EHRFAC|20240101120000||ORU^R01^ORU_R01|CTRL-7|P|2.5.1"
PID = (
    "PID|1||MRN40411^^^HOSP^MR~987-65-4329^^^SSA^SS||Quibbleton&van^Zephyrine^Marisol|"
    "Thistlewaite^Hortensia|19800101|F||2106-3|4417 Larkspur Way^Unit 9B^Brambleford^WY^82999^USA||"
    "^PRN^PH^zqz@example.org^1^307^5550177~^WPN^FX^^1^307^5550111||||ACCT9981|123-45-6789"
)
OBR = "OBR|1|PL1|FL1|11529-5^Surgical path report^LN|||20240101|||||||||D8815^Castellanos^Rufina"
OBX_TX = "OBX|1|TX|22634-0^Path gross^LN|1|Line one.~Second line \\T\\ more||||||F"


def _msg(*segments: str) -> bytes:
    return "\r".join(segments).encode("utf-8")


def _load(raw: bytes) -> Hl7Message:
    return Hl7Loader().load(raw)


def _by_path(message: Hl7Message) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for leaf in message.leaves():
        out.setdefault(leaf.path, []).append(leaf.value)
    return out


def _leaf(message: Hl7Message, path: str):  # noqa: ANN202 - a Leaf
    found = [leaf for leaf in message.leaves() if leaf.path == path]
    assert found, path
    return found[0]


def _keep_all(message: Hl7Message) -> None:
    for leaf in message.leaves():
        leaf.decide(leaf.value)


def _spec(path: str) -> LeafSpec:
    segment = path.split("-", 1)[0]
    found = [s for s in field_specs(segment) if s.path == path]
    assert len(found) == 1, path
    return found[0]


# --- the tables ---------------------------------------------------------------------------------------


def test_protocols() -> None:
    loader: MessageLoader = Hl7Loader()
    message: LoadedMessage = _load(_msg(MSH, PID, OBR, OBX_TX))
    assert loader.format is EventFormat.HL7V2 and message.format is EventFormat.HL7V2


def test_every_segment_and_field_of_v251_has_specs() -> None:
    defined = {name for name, (kind, _) in SEGMENTS.items() if kind == "sequence"}
    assert set(segment_names()) == defined
    for segment in defined:
        specs = field_specs(segment)
        fields = {int(s.path.split("-")[1].split(".")[0]) for s in specs}
        first = 3 if segment == "MSH" else 1  # MSH-1/2 are the delimiters
        assert fields == set(range(first, len(SEGMENTS[segment][1]) + 1)), segment
        for spec in specs:
            assert isinstance(spec.kind, Kind)
            assert re.fullmatch(rf"{segment}-\d+\.\d+\.\d+", spec.path)
            # Only fields whose type the tables leave open are unknown.
            if spec.kind is Kind.UNKNOWN:
                assert spec.datatype in ("", "varies"), spec.path
    assert len(Hl7Loader.describe()) == sum(len(field_specs(s)) for s in defined)
    assert field_specs("ZXX") == []


def _field_names() -> list[tuple[str, int, str, str]]:
    out = []
    for segment, (kind, fields) in SEGMENTS.items():
        if kind == "sequence":
            out.extend((segment, n, f[1][3] or "", f[1][2] or "") for n, f in enumerate(fields, 1))
    return out


def test_identifying_fields_found_by_name_have_phi_kinds() -> None:
    """What the table's field names say: SSNs, birth dates, control ids, employers, e-mail."""
    by_field: dict[str, list[LeafSpec]] = {}
    for spec in Hl7Loader.describe():
        by_field.setdefault(spec.path.split(".")[0], []).append(spec)
    for segment, n, name, _ in _field_names():
        specs = by_field.get(f"{segment}-{n}", [])
        if not specs:
            continue  # MSH-1/2
        if re.search(r"SSN|SOCIAL_SECURITY", name):
            assert (specs[0].kind, specs[0].phi_type) == (Kind.IDENTIFIER, PhiType.SSN), name
        if re.search(r"CONTROL_ID|PRESCRIPTION_NUMBER|POLICY_NUMBER|GROUP_NUMBER|E_MAIL|BIRTH_PLACE", name):
            assert specs[0].kind in PHI_KINDS, (segment, n, name)
        if "BIRTH" in name and specs[0].kind is Kind.DATE:
            assert specs[0].role is Role.BIRTH_DATE, (segment, n)
        if "EMPLOYER" in name and "NAME" in name and "CONTACT" not in name:
            assert any((s.kind, s.phi_type) == (Kind.LOCATION, PhiType.ORGANIZATION) for s in specs), name


def test_yaml_corrections_name_real_fields() -> None:
    cfg = kinds.config()
    for key in [*cfg.fields, *cfg.names]:
        m = re.fullmatch(r"([A-Z0-9]{3})(?:-(\d+)(?:\.(\d+)(?:\.(\d+))?)?)?", key)
        assert m, key
        fields = segment_fields(m.group(1))
        assert fields is not None, key
        if m.group(2):
            node = fields[int(m.group(2)) - 1]
            if m.group(3):
                assert int(m.group(3)) <= max(len(node.children), 1), key


@pytest.mark.parametrize(
    ("path", "kind", "phi_type"),
    [
        ("GT1-3.1.1", Kind.NAME, PhiType.PATIENT),
        ("GT1-3.2.1", Kind.NAME, PhiType.PATIENT),
        ("IN1-19.1.1", Kind.ADDRESS, PhiType.STREET),
        ("IN1-19.3.1", Kind.ADDRESS, PhiType.CITY),
        ("IN1-19.5.1", Kind.ADDRESS, PhiType.ZIP),
        ("IN1-16.2.1", Kind.NAME, PhiType.PATIENT),
        ("EVN-5.2.1", Kind.NAME, PhiType.DOCTOR),
        ("EVN-5.3.1", Kind.NAME, PhiType.DOCTOR),
        ("EVN-5.1.1", Kind.IDENTIFIER, PhiType.IDNUM),
        ("ORC-12.2.1", Kind.NAME, PhiType.DOCTOR),
        ("OBR-32.1.2", Kind.NAME, PhiType.DOCTOR),
        ("OBR-33.1.3", Kind.NAME, PhiType.DOCTOR),
        ("OBR-34.1.2", Kind.NAME, PhiType.DOCTOR),
        ("OBR-35.1.2", Kind.NAME, PhiType.DOCTOR),
        ("OBR-35.1.1", Kind.IDENTIFIER, PhiType.IDNUM),
        ("OBR-2.1.1", Kind.IDENTIFIER, PhiType.IDNUM),
        ("ORC-3.1.1", Kind.IDENTIFIER, PhiType.IDNUM),
        ("TXA-12.1.1", Kind.IDENTIFIER, PhiType.IDNUM),
        ("SPM-2.1.1", Kind.IDENTIFIER, PhiType.IDNUM),
        ("MSH-7.1.1", Kind.DATE, None),
        ("MSH-10.1.1", Kind.IDENTIFIER, PhiType.IDNUM),
        ("MSH-4.1.1", Kind.LOCATION, PhiType.HOSPITAL),
        ("MSH-9.1.1", Kind.CODE, None),
        ("NTE-3.1.1", Kind.TEXT, None),
        ("PID-5.1.1", Kind.NAME, PhiType.PATIENT),
        ("PID-6.2.1", Kind.NAME, PhiType.PATIENT),
        ("PID-11.1.1", Kind.ADDRESS, PhiType.STREET),
        ("PID-11.9.1", Kind.ADDRESS, PhiType.LOCATION_OTHER),
        ("PID-11.7.1", Kind.CODE, None),
        ("PID-13.4.1", Kind.CONTACT, PhiType.EMAIL),
        ("PID-13.7.1", Kind.CONTACT, PhiType.PHONE),
        ("PID-13.2.1", Kind.CODE, None),
        ("PID-19.1.1", Kind.IDENTIFIER, PhiType.SSN),
        ("PID-20.1.1", Kind.IDENTIFIER, PhiType.LICENSE),
        ("PID-3.4.1", Kind.LOCATION, PhiType.HOSPITAL),
        ("PID-3.4.2", Kind.IDENTIFIER, PhiType.IDNUM),
        ("PID-3.4.3", Kind.CODE, None),
        ("PID-10.2.1", Kind.TEXT, None),
        ("PID-10.1.1", Kind.CODE, None),
        ("PV1-3.1.1", Kind.LOCATION, PhiType.DEPARTMENT),
        ("PV1-3.3.1", Kind.LOCATION, PhiType.ROOM),
        ("PV1-3.4.1", Kind.LOCATION, PhiType.HOSPITAL),
        ("PV1-3.9.1", Kind.TEXT, None),
        ("PV1-39.1.1", Kind.LOCATION, PhiType.HOSPITAL),
        ("PV1-19.1.1", Kind.IDENTIFIER, PhiType.IDNUM),
        ("NK1-13.1.1", Kind.LOCATION, PhiType.ORGANIZATION),
        ("NK1-37.1.1", Kind.IDENTIFIER, PhiType.SSN),
        ("GT1-12.1.1", Kind.IDENTIFIER, PhiType.SSN),
        ("STF-3.1.1", Kind.NAME, PhiType.DOCTOR),
        ("TXA-22.2.1", Kind.NAME, PhiType.DOCTOR),
        ("TXA-22.15.1", Kind.DATE, None),
        ("PV1-37.1.1", Kind.LOCATION, PhiType.LOCATION_OTHER),
        ("PV1-37.2.1", Kind.DATE, None),
        ("OBX-14.1.1", Kind.DATE, None),
        ("OBX-18.1.1", Kind.IDENTIFIER, PhiType.DEVICE),
        ("OBX-6.1.1", Kind.CODE, None),
        ("OBX-5.1.1", Kind.UNKNOWN, None),
        ("OBX-20.1.1", Kind.UNKNOWN, None),
        ("MSH-21.1.1", Kind.CODE, None),
        ("PID-11.12.1", Kind.DATE, None),
    ],
)
def test_kinds(path: str, kind: Kind, phi_type: PhiType | None) -> None:
    spec = _spec(path)
    assert (spec.kind, spec.phi_type) == (kind, phi_type)


def test_datatypes_and_roles() -> None:
    assert _spec("PID-7.1.1").role is Role.BIRTH_DATE and _spec("PID-7.1.1").datatype == "DTM"
    assert _spec("PID-7.2.1").role is Role.NONE
    for path in ("NK1-16.1.1", "GT1-8.1.1", "IN1-18.1.1", "STF-6.1.1"):
        assert _spec(path).role is Role.BIRTH_DATE, path
    assert _spec("PID-29.1.1").role is Role.NONE
    assert _spec("PID-5.1.1").types == ("XPN", "FN")
    assert _spec("PID-11.12.1").datatype == "DTM"  # DR inside a component: ST in the tables
    assert _spec("PID-24.1.1").datatype == "ID"


def test_value_type_specs() -> None:
    ed = {s.path: s for s in value_type_specs("ED")}
    assert ed["OBX-5.5.1"].kind is Kind.ATTACHMENT
    assert ed["OBX-5.2.1"].kind is Kind.CODE
    rp = {s.path: s for s in value_type_specs("RP")}
    assert (rp["OBX-5.1.1"].kind, rp["OBX-5.1.1"].phi_type) == (Kind.IDENTIFIER, PhiType.URL)
    assert [s.kind for s in value_type_specs("NM")] == [Kind.NUMBER]
    assert value_type_specs("PN")[0].kind is Kind.NAME  # withdrawn in v2.5: the v2.4 tables answer
    assert value_type_specs("no such") == [] and value_type_specs("ZZ") == []


# --- loading ------------------------------------------------------------------------------------------


def test_leaves_of_a_message() -> None:
    msg = _load(_msg(MSH, PID, OBR, OBX_TX, "OBX|2|NM|3141-9^Weight^LN||72|kg|||||F", "ZXX|secret^x|y"))
    leaves = {leaf.path: leaf for leaf in msg.leaves()}
    assert "MSH-1.1.1" not in leaves and "MSH-2.1.1" not in leaves
    assert leaves["MSH-10.1.1"].value == "CTRL-7"
    assert leaves["PID-5.1.1"].value == "Quibbleton" and leaves["PID-5.1.2"].value == "van"
    assert leaves["PID-7.1.1"].role is Role.BIRTH_DATE and leaves["PID-7.1.1"].kind is Kind.DATE
    assert (leaves["ZXX-1.1.1"].kind, leaves["ZXX-1.2.1"].kind, leaves["ZXX-2.1.1"].kind) == (
        Kind.UNKNOWN,
    ) * 3
    assert leaves["OBX-5.1.1"].kind is Kind.NUMBER and leaves["OBX-5.1.1"].value == "72"
    # The TX OBX-5 is note text, not a leaf; the rest of that OBX is.
    assert [leaf.value for leaf in msg.leaves() if leaf.path == "OBX-5.1.1"] == ["72"]
    assert msg.notes[0].text == "Line one.\nSecond line & more" and msg.notes[0].note_id == "CTRL-7:0"
    # CX.5 and XTN.3 refine the PHI type per repetition.
    ids = [(leaf.value, leaf.phi_type) for leaf in msg.leaves() if leaf.path == "PID-3.1.1"]
    assert ids == [("MRN40411", PhiType.MEDICALRECORD), ("987-65-4329", PhiType.SSN)]
    phones = [leaf.phi_type for leaf in msg.leaves() if leaf.path == "PID-13.7.1"]
    assert phones == [PhiType.PHONE, PhiType.FAX]
    assert msg.leaves() is msg.leaves()


def test_explicit_null_and_blank_are_not_leaves() -> None:
    msg = _load(_msg(MSH, 'PID|1||MRN1^^^H^MR||""^Given| |19800101'))
    paths = _by_path(msg)
    assert "PID-5.1.1" not in paths and "PID-6.1.1" not in paths and paths["PID-5.2.1"] == ["Given"]


def test_obx_value_types() -> None:
    b64 = base64.b64encode(b"Seen by Dr Zed at 4417 Larkspur Way").decode()
    msg = _load(
        _msg(
            MSH.replace("ORU^R01^ORU_R01", "ADT^A08"),
            PID,
            f"OBX|1|ED|X^Doc^L||^TEXT^PLAIN^Base64^{b64}||||||F",
            "OBX|2|ED|X^Img^L||^IM^JPEG^Base64^/9j/4AAQSkZJRg==||||||F",
            "OBX|3|ED|X^Doc^L||^text^plain^A^Plain \\T\\ simple||||||F",
            "OBX|4|ED|X^Doc^L||^TEXT^PLAIN^Base64^!!notbase64||||||F",
            "OBX|5|ZZ|X^Odd^L||opaque^value||||||F",
            "OBX|6||X^Untyped^L||opaque||||||F",
            "OBX|7|TX|X^Text^L||In an ADT this is a field, not a note||||||F",
        )
    )
    att = [leaf for leaf in msg.leaves() if leaf.path == "OBX-5.5.1"]
    assert [a.kind for a in att] == [Kind.ATTACHMENT] * 4
    assert [a.binary for a in att] == [False, True, False, True]
    assert att[0].value == "Seen by Dr Zed at 4417 Larkspur Way"
    assert att[1].value == "/9j/4AAQSkZJRg=="
    assert att[2].value == "Plain & simple"
    unknown = [
        leaf.value for leaf in msg.leaves() if leaf.path.startswith("OBX-5.") and leaf.kind is Kind.UNKNOWN
    ]
    assert unknown == ["opaque", "value", "opaque"]
    assert msg.demographics_only and msg.notes == ()
    texts = [leaf for leaf in msg.leaves() if leaf.kind is Kind.TEXT and leaf.path == "OBX-5.1.1"]
    assert [t.value for t in texts] == ["In an ADT this is a field, not a note"]
    # A decoded text attachment is written back encoded the same way.
    for leaf in msg.leaves():
        leaf.decide(
            "Seen by [DOCTOR]" if leaf is att[0] else "Also & changed" if leaf is att[2] else leaf.value
        )
    out = msg.render([])
    assert base64.b64encode(b"Seen by [DOCTOR]").decode().encode() in out
    assert b"Also \\T\\ changed" in out
    again = [leaf.value for leaf in _load(out).leaves() if leaf.path == "OBX-5.5.1"]
    assert again == ["Seen by [DOCTOR]", "/9j/4AAQSkZJRg==", "Also & changed", "!!notbase64"]


def test_message_types_and_patients() -> None:
    siu = _load(_msg("MSH|^~\\&|A|B|C|D|20240101||SIU^S12|C1|P|2.5.1", "SCH|P1^X|F1^X"))
    assert siu.patient is None and siu.patient_ref is None and siu.notes == () and not siu.demographics_only
    oru = _load(_msg(MSH, "OBR|1|P|F|X^Y^L", "OBX|1|NM|X^Y^L||1"))
    assert oru.patient is None and oru.notes == ()
    with pytest.raises(EventParseError) as info:
        _load(_msg(MSH, OBR, OBX_TX))
    assert info.value.code == "hl7.missing_pid"
    with pytest.raises(EventParseError) as info:
        _load(_msg(MSH.replace("ORU^R01^ORU_R01", "ADT^A01"), "EVN|A01|20240101"))
    assert info.value.code == "hl7.missing_pid"
    a03 = _load(_msg(MSH.replace("ORU^R01^ORU_R01", "ADT^A03"), PID, OBX_TX))
    assert not a03.demographics_only and [n.text for n in a03.notes] == ["Line one.\nSecond line & more"]
    assert a03.patient is not None and a03.patient_ref == "MRN40411"
    with pytest.raises(EventParseError) as info:
        _load(_msg(MSH, PID, PID.replace("MRN40411", "MRN2"), OBR, OBX_TX))
    assert info.value.code == "hl7.multi_patient"


# --- rendering ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_samples_round_trip_and_match_the_old_codec(path: Path) -> None:
    raw = path.read_bytes()
    if path.name in MULTI_PATIENT:
        with pytest.raises(EventParseError) as info:
            _load(raw)
        assert info.value.code == "hl7.multi_patient"
        return
    msg = _load(raw)
    try:
        old = Hl7v2Codec().parse(raw)
    except EventParseError:
        old = None  # types the old codec refused
    if old is not None:
        assert (msg.patient, msg.patient_ref, msg.notes, msg.demographics_only) == (
            old.patient,
            old.patient_ref,
            old.notes,
            old.demographics_only,
        )
        assert msg.message_id == old.message_id
    assert msg.leaves(), path.name
    _keep_all(msg)
    out = msg.render([n.text for n in msg.notes])
    charset = msg.loaded.codec.charset
    assert out == (normalise(raw.decode(charset)) + "\r").encode(charset)


@pytest.mark.parametrize(
    "path", [p for p in SAMPLES if p.name not in MULTI_PATIENT][::3], ids=lambda p: p.name
)
def test_changed_leaves_appear_and_reparse(path: Path) -> None:
    msg = _load(path.read_bytes())
    expected: list[tuple[str, str]] = []
    for i, leaf in enumerate(msg.leaves()):
        # Codes stay: OBX-2, CX.5, ED.2-4 and MSH-9 say how the other values read.
        if leaf.kind is Kind.CODE:
            new: str | None = leaf.value
        elif i % 4 == 0 and leaf.kind is not Kind.IDENTIFIER:
            new = None
        else:
            new = f"n{i} |^&~\\ x\ny"
        leaf.decide(new)
        if new is not None:
            expected.append((leaf.path, new))
    # As many lines as before, so no text OBX (and none of its leaves) is removed.
    texts = [
        "\n".join(f"note {i} line {j}" for j in range(n.text.count("\n") + 1))
        for i, n in enumerate(msg.notes)
    ]
    out = msg.render(texts)
    again = _load(out)
    assert [(leaf.path, leaf.value) for leaf in again.leaves()] == expected
    assert [n.text for n in again.notes] == texts


def test_escapes_round_trip() -> None:
    msg = _load(_msg(MSH, PID, OBR, OBX_TX))
    tricky = "a|b^c&d~e\\f\ng\r\nh"
    for leaf in msg.leaves():
        leaf.decide(tricky if leaf.path == "PID-5.2.1" else leaf.value)
    out = msg.render(["new text | with ^ delimiters\nand two lines"])
    assert b"a\\F\\b\\S\\c\\T\\d\\R\\e\\E\\f\\.br\\g\\.br\\h" in out
    again = _load(out)
    assert _by_path(again)["PID-5.2.1"] == ["a|b^c&d~e\\f\ng\nh"]
    assert again.notes[0].text == "new text | with ^ delimiters\nand two lines"


def test_shorter_note_removes_its_surplus_obx() -> None:
    obx2 = "OBX|2|TX|22634-0^Path gross^LN|1|Third line.||||||F|||||D9926^Pemberton^Agathe"
    msg = _load(_msg(MSH, PID, OBR, OBX_TX, obx2))
    assert msg.notes[0].text == "Line one.\nSecond line & more\nThird line."
    _keep_all(msg)
    out = msg.render(["Only line."])
    again = _load(out)
    assert [n.text for n in again.notes] == ["Only line."]
    assert b"Pemberton" not in out and out.count(b"\rOBX|") == 1


def test_redacted_leaf_is_emptied() -> None:
    msg = _load(_msg(MSH, PID, OBR, OBX_TX))
    for leaf in msg.leaves():
        leaf.decide(None if leaf.path == "PID-5.1.1" else leaf.value)
    out = msg.render([msg.notes[0].text])
    assert b"Quibbleton" not in out and b"|&van^Zephyrine^Marisol|" in out


def test_undecided_leaf_refuses_to_render() -> None:
    msg = _load(_msg(MSH, PID, OBR, OBX_TX))
    for leaf in msg.leaves()[1:]:
        leaf.decide(leaf.value)
    with pytest.raises(RuntimeError) as info:
        msg.render([msg.notes[0].text])
    assert not any(leaf.value in str(info.value) for leaf in msg.leaves() if len(leaf.value) > 3)
    msg.leaves()[0].decide(msg.leaves()[0].value)
    assert msg.render([msg.notes[0].text])


def test_render_check_refuses_a_broken_output() -> None:
    from deid_core.message.hl7.codec import _check_rendered

    with pytest.raises(EventParseError) as info:
        _check_rendered(b"NOT-HL7 Quibbleton", ["MSH"])
    assert info.value.code == "hl7.render_invalid" and "Quibbleton" not in str(info.value)
    with pytest.raises(EventParseError) as info:
        _check_rendered(_msg(MSH, "PID|1||Quibbleton"), ["MSH"])
    assert info.value.code == "hl7.render_invalid" and "Quibbleton" not in str(info.value)


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"Quibbleton was here", "hl7.not_hl7"),
        (b"MSH|^~\\&Q|Quibbleton", "hl7.malformed"),
        (_msg(MSH.replace("CTRL-7", ""), "PID|1||Quibbleton"), "hl7.malformed"),
        (_msg(MSH.replace("ORU^R01^ORU_R01", ""), "PID|1||Quibbleton"), "hl7.malformed"),
        (_msg(MSH, OBR, "OBX|1|TX|X||Quibbleton"), "hl7.missing_pid"),
        (_msg(MSH, "PID|1||||Quibbleton", OBR, "OBX|1|TX|X||text"), "hl7.missing_pid"),
        (_msg(MSH, "PID|1||Quibbleton", "PID|1||Quibbleton2"), "hl7.multi_patient"),
        (_msg(MSH, MSH, "PID|1||Quibbleton"), "hl7.malformed"),
        (_msg(MSH, "PID|1||MRN1", "Quibbleton stray line"), "hl7.malformed"),
        ((MSH + "\rPID|1||Quibbl\xe9ton").encode("latin-1"), "hl7.decode"),
    ],
)
def test_errors_never_quote_the_input(raw: bytes, code: str) -> None:
    with pytest.raises(EventParseError) as info:
        _load(raw)
    assert info.value.code == code
    assert "Quibbl" not in str(info.value)


def test_single_byte_charset_round_trip() -> None:
    raw = (MSH + "||||||8859/1\rPID|1||MRN1^^^H^MR||Quibbl\xe9ton^Z\xebphyrine").encode("latin-1")
    msg = _load(raw)
    assert _by_path(msg)["PID-5.1.1"] == ["Quibbl\xe9ton"]
    for leaf in msg.leaves():
        leaf.decide("M\xfcller" if leaf.path == "PID-5.1.1" else leaf.value)
    out = msg.render([])
    assert out.decode("latin-1").endswith("PID|1||MRN1^^^H^MR||M\xfcller^Z\xebphyrine\r")
