"""The lexical detectors' fast paths answer exactly as the plain definitions they replace."""

from __future__ import annotations

import pytest

from deid_core.detect.lexical.tokens import Token, TokenView
from deid_core.lexicon import Lexicons, _stems, load_lexicons
from deid_core.textfold import fold_accents


def _reference(text: str) -> tuple[object, ...]:
    """Token's shape as first written, one expression per field, without early returns."""
    n = len(text)
    word = text[:-1] if n > 1 and text[-1] == "." else text
    low = word.lower()
    first = word[0]
    is_word = first.isalpha()
    upper = is_word and word.isupper()
    return (
        word,
        fold_accents(low),  # the word lists' spelling: accents folded
        is_word and len(word) > 1 and first.isupper() and not upper,
        upper and len(word) > 1 and word.isalpha(),
        is_word and low == word and word.isalpha(),
        (n == 1 or (n == 2 and text[1] == ".")) and "A" <= first <= "Z",
        is_word,
    )


_TEXT = (
    "Dr. Brown saw MR. SMITH and dtr ximena at 10:30; K. Petra K O'Brien McAdams o'neil "
    "ICU 2 North, St. Aldric (SVMC) ÉMILE émile ß ǅungla Ǆ ϒ ªB 3rd a. I. - • x.y e.g. ñandú ÑANDÚ"
)


def test_token_shapes_match_reference() -> None:
    view = TokenView(_TEXT)
    assert view.tokens
    for t in view.tokens:
        got = (t.word, t.low, t.is_title, t.is_caps, t.is_lower, t.is_initial, t.is_word)
        assert got == _reference(t.text), t.text


def test_capitalised_and_lows() -> None:
    view = TokenView(_TEXT)
    toks = view.tokens
    assert view.lows == [_reference(t.text)[1] for t in toks]
    assert view.capitalised == tuple(
        i for i, t in enumerate(toks) if t.text[0].isupper() and (t.is_title or t.is_caps)
    )


def test_is_word_cache_agrees_and_is_per_instance() -> None:
    lex = load_lexicons()
    for w in ("Guidelines", "called", "stopping", "Ximena", "grace", "GRACE", "Ted", "ring"):
        low = w.lower()
        plain = low in lex.common_words or any(s in lex.common_words for s in _stems(low))
        assert lex.is_word(w) is plain
        assert lex.is_word(w) is plain  # second answer from the cache
    other = Lexicons(
        first_names=frozenset(), surnames=frozenset(), common_words=frozenset({"grace"}), nicknames={},
        cities=frozenset(), us_states={}, countries=frozenset(), hospitals=frozenset(),
        hospital_abbreviations=frozenset(), professions=frozenset(), cues={},
    )
    assert other.is_word("Grace") and not other.is_word("called")
    assert lex == lex and other._word_cache is not lex._word_cache


def test_token_is_plain_slots() -> None:
    t = Token(0, 2, "Dr.")
    assert (t.word, t.low, t.is_title) == ("Dr", "dr", True)


def test_the_word_cache_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import deid_core.lexicon as lexicon

    monkeypatch.setattr(lexicon, "_WORD_CACHE_MAX", 50)
    lex = lexicon.load_lexicons()
    for i in range(500):
        lex.is_word(f"zzword{i}")
    assert len(lex._word_cache) <= 50
    assert lex.is_word("will") and not lex.is_word("zzword7")


_ASCII = (
    "Dr.. Brown e.g. K. O'NEIL X-RAY Mc-Adams A- B.C. x.y ICU 2 North\tMRN   123_456 3rd I. a "
    "SMITH, JOHN E. o'neil Z. .. - St. Aldric's (SVMC) DR MS. ms. 10:30; end."
)


@pytest.mark.parametrize("text", [_ASCII, _TEXT, " \n ", "", "Q", "Ann."])
def test_lazy_view_agrees_with_a_plain_token_list(text: str) -> None:
    """``lows``, ``capitalised``, ``at`` and ``gap`` answer as a list of every token would, on the ASCII
    fast paths and the general ones."""
    from deid_core.detect.lexical.tokens import _TOKEN

    plain = [Token(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]
    view = TokenView(text)
    assert view.size == len(plain)
    assert view.lows == [t.low for t in plain]
    assert view.capitalised == tuple(
        i for i, t in enumerate(plain) if t.text[0].isupper() and (t.is_title or t.is_caps)
    )
    for i in reversed(range(len(plain))):  # built out of order, as the detectors do
        got, want = view.at[i], plain[i]
        assert (got.start, got.end, got.text, got.low, got.is_title, got.is_caps) == (
            want.start, want.end, want.text, want.low, want.is_title, want.is_caps
        )
        assert view.gap(i) == (text[want.end : plain[i + 1].start] if i + 1 < len(plain) else "")
    assert [t.text for t in view.tokens] == [t.text for t in plain]
    assert view.where({",", "brown", "zzz"}) == [i for i, t in enumerate(plain) if t.low in {",", "brown", "zzz"}]
    with pytest.raises(IndexError):
        view.at[len(plain)]
