"""Names of people the header does not know: relatives, staff, neighbours, first names alone.

Evidence, strongest first:

* **a cue** right before: a title (``Mr. Ostrowski``), a relation (``her daughter Ximena``), a staff role
  (``case manager Lorraine``), a naming word (``goes by Bill``). After a title any capitalised word is a
  name (``Dr. Brown``); after a relation or role, a capitalised word that is a known name or not an
  ordinary English word (``Grace`` yes, ``Spanish`` no), or a lower-case known first name that is not
  a word (nursing flowsheets: ``dtr ximena at bedside``). Weak cues that are also plain verbs or
  prepositions (``per``, ``called``) need a name from the lexicon. A role outside care (``driver``,
  ``volunteer``, ``agent``: ``extra_roles``) needs a capitalised listed first name, ordinary word or not
  (``driver Al``, ``volunteer Al staffing``; not ``Volunteer Fire Co``), and makes a PATIENT.
* **the lexicon alone**: a title-cased first name that is not an ordinary word (``Marguerite``), or any
  first name followed by a capitalised surname-like word (``Will Okonkwo``), or ``LAST, FIRST``.

A name extends over following initials (``Petra K.``) and capitalised name-like words on the same line
or across one line break, never across a column gap (``Kettleby      Age``: the next field's label), over
a form's label in capitals (``ADAEZE  MRN``) or onto a line that opens a title (``Case Manager``). Possessive ``'s`` stays outside the span. Eponyms (``Braden scale``,
``Addison's disease``) and month/weekday abbreviations are not names. Spans are typed DOCTOR after a
staff cue or ``Dr.``, PATIENT otherwise; the merger lets the tagger's type win where both found it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from deid_core.detect.lexical.tokens import Token, TokenView, column_gap
from deid_core.detect.rules.context import preceded_by
from deid_core.lexicon import MEDICAL_SUFFIXES, Lexicons
from deid_core.textfold import fold_accents
from schemas import EnrichedNote, PhiType, Span

SOURCE = "lexicon"
_CUE_SCORE = 0.8
_LEXICON_SCORE = 0.6
_SKIPPABLE = frozenset({",", ":", "(", "-", "–", "—", "named", "is", "was", "'", '"', "“"})
_DOCTOR_TITLES = frozenset({"dr", "prof", "doctor"})
# Titles a chart in small letters writes before a name in small letters ("mrs. delacroix").
_LOWER_TITLES = _DOCTOR_TITLES | {"mr", "mrs", "ms", "mx"}
_MAX_EXTRA = 3
_PLACE_PREPOSITIONS = frozenset({"in", "from", "to", "at", "near", "outside", "around", "of", "via"})


@dataclass(frozen=True, slots=True)
class _Cue:
    words: tuple[str, ...]
    kind: str  # "title" | "relation" | "staff" | "weak" | "role" | "naming"


def _phrases(words: frozenset[str], kind: str) -> list[_Cue]:
    return [_Cue(tuple(w.split()), kind) for w in words]


# Words that follow a person's name and never an article or a weekday ("sister Thu had", "friend An from").
_AFTER_A_NAME = frozenset({"had", "has", "was", "is", "will", "would", "can", "could", "said", "from", "who", "came", "went"})
# Words after "Baby" that stand for a newborn not yet named ("Baby Boy", "Baby Girl B").
_PLACEHOLDERS = frozenset({"boy", "girl"})


class PeopleDetector:
    """Finds person names from cue words and the name lexicons (see the module docstring)."""

    name = SOURCE

    def __init__(self, lexicons: Lexicons) -> None:
        self._lex = lexicons
        cues = lexicons.cues
        weak = cues["weak_staff"]
        self._titles = cues["titles"] | cues["officer_titles"]
        table = [
            *_phrases(self._titles, "title"),
            *_phrases(cues["relations"], "relation"),
            *_phrases(cues["staff"] - weak - cues["titles"], "staff"),
            *_phrases(weak, "weak"),
            *_phrases(cues["extra_roles"] - cues["staff"] - self._titles - cues["relations"], "role"),
            *_phrases(cues["naming"], "naming"),
        ]
        by_first: dict[str, list[_Cue]] = {}
        for cue in table:
            by_first.setdefault(cue.words[0], []).append(cue)
        self._cues = {k: sorted(v, key=lambda c: -len(c.words)) for k, v in by_first.items()}
        # Token forms that can open a cue, possessives included ("daughter's").
        self._cue_words = frozenset(self._cues) | {f"{k}'s" for k in self._cues} | {f"{k}’s" for k in self._cues}
        self._function = cues["function_words"]
        self._not_names = cues["not_names"]
        self._languages = cues["languages"]
        self._abbreviations = cues["clinical_abbreviations"] | cues["not_initials"]  # "ICU", "Dx", "Hx"
        self._eponym_heads = cues["eponym_heads"]
        self._eponyms = cues["eponyms"]

    def detect(self, note: EnrichedNote) -> list[Span]:
        return self.spans(TokenView(note.text)) if note.text else []

    def spans(self, view: TokenView) -> list[Span]:
        found: dict[tuple[int, int], Span] = {}
        for start, end, type_, score, why in (*self._cued(view), *self._lexical(view)):
            key = (start, end)
            if key not in found or found[key].score < score:
                found[key] = Span(start, end, type_, score, frozenset({SOURCE}), why)
        return sorted(found.values(), key=lambda s: (s.start, s.end))

    # -- evidence -------------------------------------------------------------------------------------

    def _cued(self, view: TokenView) -> Iterator[tuple[int, int, PhiType, float, str]]:
        for i in view.where(self._cue_words):
            for cue in self._cues_at(view, i):
                hit = self._after_cue(view, i, cue)
                if hit is not None:
                    yield hit
                    break

    def _after_cue(self, view: TokenView, i: int, cue: _Cue) -> tuple[int, int, PhiType, float, str] | None:
        toks = view.at
        k = i + len(cue.words)
        if cue.kind == "title":
            return self._after_title(view, i, k)
        colon = False
        for _ in range(2):
            if k < view.size and toks[k].low in _SKIPPABLE and toks[k].low not in self._cues:
                colon = colon or toks[k].low == ":"
                k += 1
        if k >= view.size or not (
            self._cued_first(toks[k], cue.kind) or (cue.kind == "relation" and self._short_relative(view, k))
        ):
            return None
        if any(column_gap(view.gap(j)) for j in range(i + len(cue.words) - 1, k)):
            return None  # "Relationship: wife   Age: 86": a column gap ends the cue's field
        if (colon or view.sentence_start(k)) and self._sentence_opener(toks[k]):
            # "per mom. Younger brother", "..., MD\nGlad to hear": the cue ends its sentence or line and
            # the next one opens with a capitalised ordinary word
            return None
        if cue.kind == "title" and toks[i].low not in _DOCTOR_TITLES and toks[k].low in self._cues:
            return None
        end = self._extend(view, k)
        doctor = cue.kind in {"staff", "weak"} or (cue.kind == "title" and toks[i].low in _DOCTOR_TITLES)
        return toks[k].start, end, PhiType.DOCTOR if doctor else PhiType.PATIENT, _CUE_SCORE, f"cue={cue.kind}"

    def _after_title(self, view: TokenView, i: int, k: int) -> tuple[int, int, PhiType, float, str] | None:
        """``Mr. Ostrowski``, ``Dr Brown``: the title directly before the name, on the same line. An
        all-caps title without its dot (``MS``, ``DR``) is more often shorthand (mental status)."""
        toks = view.at
        title = toks[i]
        if k >= view.size or not view.same_line(i) or (title.is_caps and not title.text.endswith(".")):
            return None
        name = toks[k]
        low = _bare_low(name)
        if low in self._function or low in self._cues or (low in self._not_names and low not in self._eponyms) or len(low) < 2:
            return None
        # "MR. SMITH" in an all-caps note; "moderate MR. Started on heparin" is mitral regurgitation.
        if not (name.is_caps if title.is_caps else (name.is_title or name.is_caps)) and not self._lower_doctor(title, name):
            return None
        if title.is_lower and not name.is_lower and title.low not in _DOCTOR_TITLES:
            return None  # "QRS 158 ms. Repeat echo": a unit before a sentence, not Ms. Repeat
        doctor = title.low in _DOCTOR_TITLES
        return name.start, self._extend(view, k), PhiType.DOCTOR if doctor else PhiType.PATIENT, _CUE_SCORE, "cue=title"

    def _lower_doctor(self, title: Token, name: Token) -> bool:
        """``dr abernathy rounded``, ``neighbor mrs. delacroix``: a lower-case chart writes a doctor's or
        anyone's name in lower case too; a known name that is no ordinary word counts, or a word of four
        letters or more that no list knows (not ``dr appt``, ``dr visit``, ``mr severe``)."""
        low = _bare_low(name)
        lex = self._lex
        return (
            title.is_lower and name.is_lower and title.low in _LOWER_TITLES and not lex.is_word(low)
            and (lex.is_name(low) or (len(low) >= 4 and not lex.in_use(low)))
        )

    def _lexical(self, view: TokenView) -> Iterator[tuple[int, int, PhiType, float, str]]:
        toks = view.at
        lex = self._lex
        lows = view.lows
        for i in view.capitalised:
            if lows[i] not in lex.first_names and not lows[i].endswith(("'s", "’s")):
                if "-" in lows[i] and self._compound_first(toks[i]):
                    # Scored as a cue: two given names joined are a person whatever the tagger calls them.
                    yield toks[i].start, self._extend(view, i), PhiType.PATIENT, _CUE_SCORE, "lexicon=compound_first"
                continue  # not a first name, possessive or not: skipped below too, here before the token is built
            tok = toks[i]
            if not tok.is_title:  # before _bare: most capitalised tokens are all caps or not names
                continue
            low = _bare_low(tok)
            if low in self._function or low in self._not_names or low not in lex.first_names:
                continue
            if low in self._eponyms:
                continue
            if i > 0 and toks[i - 1].low in _PLACE_PREPOSITIONS and (low in lex.cities or low in lex.countries):
                continue  # "from Denver": the places detector types it
            if self._eponym(view, i) or preceded_by(view.text, tok.start, lex.cues["pet_words"], hops=1):
                continue  # "Braden scale"; "their dog, Rufus" (a pet)
            if i + 1 < view.size and toks[i + 1].low in lex.cues["denominations"]:
                continue  # "Roman Catholic"
            nxt = toks[i + 1] if i + 1 < view.size and view.same_field(i) else None
            if not lex.is_word(low):
                yield tok.start, self._extend(view, i), PhiType.PATIENT, _LEXICON_SCORE, "lexicon=first_name"
            elif nxt is not None and nxt.is_title and self._surname_like(nxt) and not lex.is_word(_bare(nxt)):
                yield tok.start, self._extend(view, i), PhiType.PATIENT, _LEXICON_SCORE, "lexicon=first_last"
        yield from self._last_first(view)

    def _compound_first(self, tok: Token) -> bool:
        """A hyphenated given name (``Betty-Jo``, ``Min-ji``, ``Jean-Rony``): title case, every part a first
        name, one at least no ordinary word, and the whole no place (``Winston-Salem``)."""
        if not tok.is_title:
            return False
        low = _bare_low(tok)
        parts = low.split("-")
        lex = self._lex
        return (
            len(parts) == 2
            and all(p in lex.first_names and p not in self._function for p in parts)
            and not all(lex.is_word(p) for p in parts)
            and low not in lex.cities
        )

    def _last_first(self, view: TokenView) -> Iterator[tuple[int, int, PhiType, float, str]]:
        """``LINDQVIST, HAROLD E`` and ``Lindqvist, Harold``: a surname, a comma, a known first name."""
        toks = view.at
        lex = self._lex
        for i in view.where({","}):
            i -= 1
            if i < 0 or i + 2 >= view.size or view.lows[i + 2] not in lex.first_names:
                continue  # a first name after the comma, checked before any token is built
            last, comma, first = toks[i], toks[i + 1], toks[i + 2]
            if comma.text != "," or not (
                (last.is_caps and first.is_caps) or (last.is_title and first.is_title)
            ):
                continue
            if first.low not in lex.first_names or first.low in self._function or last.low in self._function:
                continue
            if (last.low not in lex.surnames and lex.is_word(last.low)) or last.low.endswith(MEDICAL_SUFFIXES):
                continue  # an ordinary word, or a specialty before a clinic's name ("Urology, Crawford")
            if lex.is_word(last.low) and lex.is_word(first.low):
                continue
            if lex.is_word(first.low) and i + 3 < view.size and view.at[i + 3].text.isdigit():
                continue  # "Kerr, Aspen 5 rm 521": a word and a number after the comma are a ward
            if last.is_caps and len(last.word) <= 4 and last.low not in lex.surnames:
                continue  # "panels, VUS, GINA": an initialism in a list, not a surname in capitals
            yield last.start, self._extend(view, i + 2), PhiType.PATIENT, _LEXICON_SCORE, "lexicon=last_first"

    # -- token tests ----------------------------------------------------------------------------------

    def _cues_at(self, view: TokenView, i: int) -> Iterator[_Cue]:
        """The cues that start at token ``i``, longest first ("sister" is a relation and a title)."""
        lows = view.lows
        first = lows[i].removesuffix("'s").removesuffix("’s")
        for cue in self._cues.get(first, ()):
            n = len(cue.words)
            if i + n <= len(lows) and (first, *lows[i + 1 : i + n]) == cue.words:
                yield cue

    def _sentence_opener(self, tok: Token) -> bool:
        """After a colon the cue introduces what someone said ("from his daughter: Weight gain ..."):
        a capitalised ordinary word that is only a surname opens that sentence; a first name
        ("daughter: Grace") is still the person. Ordinary words include the wider vocabulary's
        (``Enclosed``), which lists no name."""
        low = _bare_low(tok)
        lex = self._lex
        return tok.is_title and lex.in_use(low) and low not in lex.first_names

    def _cued_first(self, tok: Token, kind: str) -> bool:
        lex = self._lex
        low = _bare_low(tok)
        if self._never_a_name(low) or len(low) < 2:
            return False  # "prefers Spanish": a naming cue before a language
        if len(low) <= 3 and low not in lex.first_names:  # "Psh", "Dc": shorthand, not a name
            return False
        if kind == "weak":
            return tok.is_title and lex.is_name(low)
        if kind == "role":  # "driver Al": a listed first name, even one that is a word
            return tok.is_title and low in lex.first_names
        if tok.is_title:
            return lex.is_name(low) or not lex.is_word(low)
        if tok.is_lower or tok.is_caps:
            # A lower-case chart names staff by surname too ("dr abernathy rounded", "pa kwon").
            surname = kind == "staff" and tok.is_lower and low in lex.surnames
            return (low in lex.first_names or surname) and not lex.is_word(low)
        return False

    def _never_a_name(self, low: str) -> bool:
        """A function word, a listed non-name or a language (``prefers Spanish``)."""
        return low in self._function or low in self._not_names or low in self._languages

    def _short_relative(self, view: TokenView, k: int) -> bool:
        """A capitalised word of two or three letters right after a relation is the relative's name
        (``wife Ama (74)``, ``brother Tor died``, ``wife Mere on Totara Lane``) though it is no listed first
        name, or a function word that is a first name capitalised mid-sentence (``Grandson An (12)``),
        unless it is a clinical abbreviation (``mother Ca``... is read on: ``Ca breast``) or a lower-case
        word goes on the phrase that is no function word and no verb in -ed or -s."""
        tok = view.at[k]
        low = _bare_low(tok)
        if not tok.is_title or not 2 <= len(low) <= 3 or low in self._abbreviations:
            return False
        if low in self._titles:
            return False
        function = self._never_a_name(low)
        if function and not (low in self._lex.first_names and not view.sentence_start(k)):
            return False  # "Grandson An (12)", "daughter May": a function word capitalised mid-sentence is a name
        if tok.text.endswith(".") or low in _PLACEHOLDERS:
            return False  # "pastor Rev. Odom", "Baby Boy": a title, the guideline's placeholder
        if k + 1 >= view.size:
            return True
        nxt = view.at[k + 1]
        if function:  # "sister An MRI": an article before its noun; a name is followed by punctuation or a verb
            return not nxt.is_word or (nxt.is_lower and (nxt.low.endswith(("ed", "s", "ing")) or nxt.low in _AFTER_A_NAME))
        return not nxt.is_lower or nxt.low in self._function or nxt.low.endswith(("ed", "s"))

    def _heading_after(self, view: TokenView, k: int) -> bool:
        """Token ``k`` opens a line's title phrase: a capitalised ordinary word follows it on its line
        (``Case Manager``, ``Clinical Director``)."""
        if k + 1 >= view.size or "\n" in view.gap(k):
            return False
        nxt = view.at[k + 1]
        return nxt.is_title and self._lex.is_word(_bare_low(nxt)) and _bare_low(nxt) not in self._lex.surnames

    def _surname_like(self, tok: Token) -> bool:
        low = _bare_low(tok)
        if low in self._function or low in self._not_names:
            return False
        if tok.is_caps and low in self._abbreviations:
            return False  # "NWACHUKWU, ADAEZE  MRN": a field's label, not a second surname
        return low in self._lex.surnames or not self._lex.is_word(low)

    def _eponym(self, view: TokenView, i: int) -> bool:
        """``Braden scale``, ``Addison's disease``: the next lower-case word makes it a thing, not a person."""
        toks = view.at
        j = i + 1
        if j < view.size and toks[j].is_title:  # "Morse Fall Scale": look one word further
            j += 1
        return j < view.size and toks[j].low in self._eponym_heads

    def _extend(self, view: TokenView, k: int) -> int:
        """End offset of the name starting at token ``k``: over initials and name-like words, on the same
        line or across one line break, never over a possessive ``'s``."""
        toks = view.at
        first = toks[k]
        end = _bare_end(first)
        if end < first.end:  # "Dana's": the possessive ends the name
            return end
        j = k
        for _ in range(_MAX_EXTRA):
            gap = view.gap(j)
            if j + 1 >= view.size or gap.count("\n") > 1 or gap.strip(" \t\n") != "" or column_gap(gap):
                break
            nxt = toks[j + 1]
            if "\n" in gap and not (nxt.is_title and self._surname_like(nxt) and self._lex.is_name(_bare(nxt))):
                break
            if "\n" in gap and self._heading_after(view, j + 1):
                break  # "Yonas Gebremedhin\nCase Manager": the next line is his title, not his surname
            if nxt.is_initial and nxt.text.endswith("."):
                pass
            elif nxt.is_initial and len(nxt.text) == 1 and nxt.text not in {"A", "I"}:
                pass
            elif first.is_caps and nxt.is_caps and self._surname_like(nxt):
                pass
            elif (first.is_title or first.is_lower) and nxt.is_title and self._surname_like(nxt):
                pass
            else:
                break
            j += 1
            end = _bare_end(nxt)
            if end < nxt.end:
                break
        return end


def _bare(tok: Token) -> str:
    """The word without a possessive ``'s``."""
    w = tok.word
    for suffix in ("'s", "’s"):
        if w.endswith(suffix) and len(w) > len(suffix):
            return w[: -len(suffix)]
    return w


def _bare_low(tok: Token) -> str:
    """The bare word as the word lists spell it: lower case, accents folded (``Teófilo`` -> ``teofilo``)."""
    return fold_accents(_bare(tok).lower())


def _bare_end(tok: Token) -> int:
    return tok.start + len(_bare(tok))
