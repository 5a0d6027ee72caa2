from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from deid_core.merge import Merger, SpanMerger, merge_spans
from schemas import PhiType, Span

H, R, T = frozenset({"header"}), frozenset({"rules"}), frozenset({"tagger"})


def sp(
    start: int, end: int, type_: PhiType, sources: frozenset[str] = T, score: float = 0.5, why: str = ""
) -> Span:
    return Span(start, end, type_, score, sources, why)


def triples(spans: list[Span]) -> list[tuple[int, int, PhiType]]:
    return [(s.start, s.end, s.type) for s in spans]


def test_empty_and_single() -> None:
    assert merge_spans([]) == []
    s = sp(3, 7, PhiType.DATE, R, 0.8, "pattern=date")
    [out] = merge_spans([s])
    assert (out.start, out.end, out.type, out.score, out.sources, out.explanation) == (
        3,
        7,
        PhiType.DATE,
        0.8,
        R,
        "pattern=date",
    )


def test_output_sorted_and_disjoint_spans_untouched() -> None:
    out = merge_spans([sp(20, 25, PhiType.CITY), sp(0, 4, PhiType.PATIENT), sp(10, 12, PhiType.AGE)])
    assert triples(out) == [(0, 4, PhiType.PATIENT), (10, 12, PhiType.AGE), (20, 25, PhiType.CITY)]


def test_identical_extents_union_sources_max_score_and_priority_type() -> None:
    out = merge_spans(
        [
            sp(0, 10, PhiType.DOCTOR, T, 0.9, "tagger"),
            sp(0, 10, PhiType.PATIENT, H, 0.99, "header=names"),
            sp(0, 10, PhiType.PATIENT, R, 0.7, "pattern=name"),
        ]
    )
    assert len(out) == 1
    assert out[0].type is PhiType.PATIENT  # header beats tagger regardless of the tagger's type
    assert out[0].sources == H | R | T
    assert out[0].score == 0.99
    assert set(out[0].explanation.split(";")) == {"tagger", "header=names", "pattern=name"}


def test_source_priority_beats_type_priority() -> None:
    # The tagger says DATE (higher type priority) but the header says IDNUM over the same region.
    out = merge_spans([sp(0, 12, PhiType.DATE, T, 0.99), sp(0, 12, PhiType.IDNUM, H, 0.5)])
    assert triples(out) == [(0, 12, PhiType.IDNUM)]


def test_type_priority_then_score_then_length_for_equal_sources() -> None:
    assert triples(merge_spans([sp(0, 10, PhiType.PATIENT, R), sp(0, 10, PhiType.DATE, R)])) == [
        (0, 10, PhiType.DATE)
    ]
    assert triples(merge_spans([sp(0, 10, PhiType.CITY, R, 0.9), sp(0, 10, PhiType.CITY, R, 0.4)])) == [
        (0, 10, PhiType.CITY)
    ]
    # same source, type, score: the longer span wins the shared region
    out = merge_spans([sp(0, 4, PhiType.HOSPITAL, R, 0.5), sp(2, 10, PhiType.CITY, R, 0.5)])
    assert triples(out) == [(0, 2, PhiType.HOSPITAL), (2, 10, PhiType.CITY)]


def test_partial_overlap_loser_keeps_alphanumeric_remainder() -> None:
    text = "Seen at Boston General today"
    #       0123456789012345678901234567
    city = sp(8, 14, PhiType.CITY, R, 0.9)  # "Boston"
    hosp = sp(8, 22, PhiType.HOSPITAL, T, 0.8)  # "Boston General"
    out = merge_spans([city, hosp], text)
    assert [(text[s.start : s.end], s.type) for s in out] == [
        ("Boston", PhiType.CITY),
        (" General", PhiType.HOSPITAL),
    ]


def test_partial_overlap_punctuation_remainder_absorbed_into_winner() -> None:
    text = "Pt Smith, John seen"
    #       0123456789012345678
    header = sp(3, 8, PhiType.PATIENT, H)  # "Smith"
    tagger = sp(3, 10, PhiType.DOCTOR, T)  # "Smith, " -> remainder ", " has no alphanumeric
    out = merge_spans([header, tagger], text)
    assert triples(out) == [(3, 10, PhiType.PATIENT)]
    assert out[0].sources == H | T
    # Without the text the remainder cannot be inspected and is kept as the loser's type.
    assert triples(merge_spans([header, tagger])) == [(3, 8, PhiType.PATIENT), (8, 10, PhiType.DOCTOR)]


def test_a_conjunction_between_two_winners_is_absorbed_then_coalesced() -> None:
    text = "officers Kessler and Farouk arrived"
    #       0123456789012345678901234567
    firm = sp(9, 27, PhiType.ORGANIZATION, T)  # the tagger's "Kessler and Farouk"
    first, second = sp(9, 16, PhiType.PATIENT, R), sp(21, 27, PhiType.PATIENT, R)
    out = merge_spans([firm, first, second], text)
    assert [(text[s.start : s.end], s.type) for s in out] == [("Kessler and Farouk", PhiType.PATIENT)]
    # A conjunction with a winner on one side only keeps the loser's type: a word of its own name.
    tail = sp(9, 20, PhiType.ORGANIZATION, T)  # "Kessler and"
    assert [(text[s.start : s.end], s.type) for s in merge_spans([tail, first], text)] == [
        ("Kessler", PhiType.PATIENT),
        (" and", PhiType.ORGANIZATION),
    ]


def test_punctuation_between_two_winners_is_absorbed_then_coalesced() -> None:
    text = "Pt Smith, John seen"
    #       0123456789012345678
    spans = [sp(3, 14, PhiType.DOCTOR, T), sp(3, 8, PhiType.PATIENT, H), sp(10, 14, PhiType.PATIENT, H)]
    out = merge_spans(spans, text)
    assert triples(out) == [(3, 14, PhiType.PATIENT)]
    assert out[0].sources == H | T


def test_loser_straddling_winner_keeps_both_sides() -> None:
    text = "Dr John A Smith MD"
    #       012345678901234567
    out = merge_spans([sp(3, 15, PhiType.DOCTOR, T), sp(8, 9, PhiType.USERNAME, H)], text)
    assert triples(out) == [(3, 8, PhiType.DOCTOR), (8, 9, PhiType.USERNAME), (9, 15, PhiType.DOCTOR)]


def test_same_type_adjacent_and_overlapping_coalesce() -> None:
    out = merge_spans(
        [
            sp(0, 5, PhiType.DATE, R, 0.6, "a"),
            sp(5, 9, PhiType.DATE, T, 0.7, "b"),
            sp(7, 12, PhiType.DATE, H, 0.8, "c"),
        ]
    )
    assert triples(out) == [(0, 12, PhiType.DATE)]
    assert out[0].sources == H | R | T and out[0].score == 0.8
    assert out[0].explanation.split(";") == ["a", "b", "c"]
    # a gap keeps them apart
    assert triples(merge_spans([sp(0, 4, PhiType.PATIENT), sp(5, 10, PhiType.PATIENT)])) == [
        (0, 4, PhiType.PATIENT),
        (5, 10, PhiType.PATIENT),
    ]


def test_contained_loser_disappears() -> None:
    out = merge_spans([sp(0, 20, PhiType.STREET, H), sp(3, 8, PhiType.PATIENT, T)])
    assert triples(out) == [(0, 20, PhiType.STREET)]


def test_custom_priorities() -> None:
    m = SpanMerger(source_priority={"tagger": 9, "rules": 1}, type_priority=[PhiType.PATIENT, PhiType.DATE])
    assert triples(m.merge([sp(0, 5, PhiType.DATE, R), sp(0, 5, PhiType.AGE, T)])) == [(0, 5, PhiType.AGE)]
    assert triples(m.merge([sp(0, 5, PhiType.DATE, R), sp(0, 5, PhiType.PATIENT, R)])) == [
        (0, 5, PhiType.PATIENT)
    ]
    # unlisted types rank below listed ones
    assert triples(m.merge([sp(0, 5, PhiType.SSN, R), sp(0, 5, PhiType.DATE, R)])) == [(0, 5, PhiType.DATE)]


def test_result_is_independent_of_input_order() -> None:
    spans = [
        sp(0, 6, PhiType.CITY, R, 0.5),
        sp(3, 9, PhiType.HOSPITAL, R, 0.5),
        sp(3, 9, PhiType.ZIP, T, 0.5),
    ]
    assert merge_spans(spans) == merge_spans(list(reversed(spans)))
    assert triples(merge_spans(spans)) == triples(merge_spans(list(reversed(spans))))


def test_span_merger_satisfies_protocol() -> None:
    merger: Merger = SpanMerger()
    assert merger.merge([sp(0, 1, PhiType.AGE)])[0].type is PhiType.AGE


# --- properties -------------------------------------------------------------------------------------

TEXT = st.text(alphabet="ab1 ,.-", min_size=1, max_size=40)
TYPES = st.sampled_from(list(PhiType))
SOURCES = st.sampled_from([H, R, T, H | T, frozenset({"other"})])


@st.composite
def text_and_spans(draw: st.DrawFn) -> tuple[str, list[Span]]:
    text = draw(TEXT)
    n = len(text)
    spans = []
    for _ in range(draw(st.integers(0, 12))):
        start = draw(st.integers(0, n - 1))
        end = draw(st.integers(start + 1, n))
        score = draw(st.sampled_from([0.3, 0.5, 0.9, 1.0]))
        spans.append(Span(start, end, draw(TYPES), score, draw(SOURCES), "x"))
    return text, spans


def covered(spans: list[Span]) -> set[int]:
    return {i for s in spans for i in range(s.start, s.end)}


@settings(max_examples=400, deadline=None)
@given(text_and_spans(), st.booleans())
def test_merge_preserves_exact_coverage_and_is_disjoint_sorted(
    case: tuple[str, list[Span]], with_text: bool
) -> None:
    text, spans = case
    out = merge_spans(spans, text if with_text else None)
    assert covered(out) == covered(spans)
    for a, b in zip(out, out[1:], strict=False):
        assert a.end <= b.start
        # coalescing leaves no two touching spans of one type
        assert not (a.end == b.start and a.type is b.type)
    for s in out:
        assert s.sources and s.sources <= frozenset().union(*(i.sources for i in spans))
        assert s.type in {i.type for i in spans if i.start < s.end and s.start < i.end}


@settings(max_examples=200, deadline=None)
@given(text_and_spans())
def test_merge_is_idempotent_and_order_independent(case: tuple[str, list[Span]]) -> None:
    text, spans = case
    once = merge_spans(spans, text)
    assert triples(merge_spans(list(reversed(spans)), text)) == triples(once)
    assert triples(merge_spans(once, text)) == triples(once)
