"""PROFESSION: an occupation from the lexicon said of someone (``works as a welder``, ``retired teacher``).

An occupation word alone is not enough: notes are full of ``nurse`` and ``therapist`` meaning the care
team. A cue within the few words before it must say it is someone's job (``works as``, ``retired``,
``former``, ``occupation:``, ``is a``), or ``by trade`` must follow. After such a cue a word the list
lacks is an occupation too when it has an agent noun's ending and names no behaviour or thing
(``is a commercial diver``; not ``is a former smoker``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from deid_core.detect.lexical.tokens import Token, TokenView
from deid_core.lexicon import Lexicons
from schemas import EnrichedNote, PhiType, Span

SOURCE = "lexicon"
_SCORE = 0.7
_CUES = frozenset({
    "works", "worked", "working", "employed", "employment", "job", "career", "retired", "former",
    "formerly", "occupation", "profession", "trained", "became", "unemployed",
})
# Weak cues count only right before the occupation (articles aside): "she is a nurse", not
# "was seen by the nurse".
_WEAK_CUES = frozenset({"is", "was", "as", "am"})
_LOOKBACK = 4
_ARTICLES = frozenset({"a", "an"})
_SKIP = frozenset({"a", "an", "the", "part-time", "full-time", "retired", "former", "self-employed", "night", "school"})
# Words right before an occupation's modifiers that say it is someone's job ("retired paper machine tender").
_STRONG_LEADS = frozenset({"retired", "former", "formerly", "self-employed"})
_MAX_MODIFIERS = 3
# Field labels whose value is an occupation ("Occupation: ...", "Job title: ...").
_JOB_LABELS = frozenset({"occupation", "job", "title", "profession", "employment", "work"})
# A person's age as an adjective right before an occupation ("a 54-year-old middle-school band director"),
# tokenised "54", "-", "year-old".
_AGED = frozenset({"year-old", "years-old", "yr-old", "yo"})
# Endings of agent nouns, which name the jobs no list can hold ("shearer", "usher", "corpsman"); read only
# after a job cue (``_compounds``).
_AGENT_ENDINGS = ("er", "or", "ist", "ian", "man", "eer", "smith", "wright")


def _weak_cue(low: str) -> bool:
    """``is``, ``was``, ``as``, ``am``, or a word with ``'s``, ``'m`` or ``'re`` before an article (``he's
    a``, ``dad's a``, ``I'm a``, ``you're a``): a possessive is never followed by "a", so there the ending
    is "is"."""
    return low in _WEAK_CUES or low.endswith(("'s", "\u2019s", "'m", "\u2019m", "'re", "\u2019re"))


def _aged(lows: list[str], j: int) -> bool:
    """Token ``j`` follows an age written as an adjective (``54-year-old``, tokens "54", "-", "year-old")."""
    return j >= 3 and lows[j - 1] in _AGED and lows[j - 2] == "-" and lows[j - 3].isdigit()


def _after_age(lows: list[str], j: int) -> bool:
    """Token ``j`` follows a person's age and a comma (``Hodan (41, respiratory therapist``, ``Daniela,
    23, home health aide``): what a person does, listed after who they are."""
    # The age itself is set off (after a name's comma or in parentheses): "grade 3, teacher" is no age.
    return j >= 3 and lows[j - 1] == "," and lows[j - 2].isdigit() and len(lows[j - 2]) <= 3 and lows[j - 3] in {",", "("}


def _close(view: TokenView, i: int) -> bool:
    """Token ``i + 1`` follows token ``i`` with at most one space: the same phrase."""
    return view.gap(i) in ("", " ")


class ProfessionDetector:
    name = SOURCE

    def __init__(self, lexicons: Lexicons) -> None:
        table: dict[str, list[tuple[str, ...]]] = {}
        for p in lexicons.professions:
            words = tuple(p.split())
            table.setdefault(words[0], []).append(words)
        self._table = {k: sorted(v, key=len, reverse=True) for k, v in table.items()}
        self._lex = lexicons
        self._function = lexicons.cues["function_words"]
        self._ambiguous = frozenset(tuple(p.split()) for p in lexicons.cues["ambiguous_professions"])
        # "Ex-librarian", "ex-Marine": the prefix is part of the token.
        self._prefixed = {f"ex-{k}": k for k in self._table}
        # The words that can open a profession, made once rather than per note.
        self._openers = frozenset(self._table) | frozenset(self._prefixed)
        # Words that end an occupation named with modifiers before them ("ICU nurse", "ranch hand"):
        # one-word occupations and heads that are an occupation only so (profession_heads).
        self._heads = frozenset(p for p in lexicons.professions if " " not in p) | lexicons.cues["profession_heads"]
        self._not_modifiers = lexicons.cues["not_profession_modifiers"]
        self._not_jobs = lexicons.cues["not_agents"] | lexicons.cues["not_occupations"]

    def _modifier(self, toks: Mapping[int, Token], i: int) -> bool:
        if i < 2:
            return False
        word, lead = toks[i - 1], toks[i - 2]
        return (word.is_lower and word.word.isalpha() and word.low not in _SKIP and word.low not in _CUES
                and word.low not in _WEAK_CUES and word.low not in self._function and lead.low in _SKIP)

    def _a_name(self, tok: Token) -> bool:
        return tok.is_title and (self._lex.is_name(tok.low) or not self._lex.is_word(tok.low))

    def _beside_a_name(self, view: TokenView, first: int, end: int) -> bool:
        """A role word right before a name, as a title or in apposition (``Attorney Jonah Ashby``, ``his
        handyman Dario``, ``our paralegal, Mehreen``), or after one (``Rick, the roofer``): the guideline
        reads it as who the person is to the patient, not their occupation."""
        toks = view.at
        count = len(view.lows)  # view.at builds tokens lazily: its length is not the note's
        j = end
        if j < count and toks[j].text == "," and _close(view, j - 1):
            j += 1
        # "Paralegal. Ingrid Solberg is...": a sentence ends between them.
        if j < count and not toks[end - 1].text.endswith(".") and _close(view, j - 1) and self._a_name(toks[j]):
            return True
        return (first >= 3 and toks[first - 1].low == "the" and toks[first - 2].text == ","
                and _close(view, first - 3) and _close(view, first - 2) and self._a_name(toks[first - 3]))

    def detect(self, note: EnrichedNote) -> list[Span]:
        return self.spans(TokenView(note.text)) if note.text else []

    def spans(self, view: TokenView) -> list[Span]:
        found = sorted({*self._find(view), *self._compounds(view)})
        return [Span(s, e, PhiType.PROFESSION, _SCORE, frozenset({SOURCE}), "lexicon=profession") for s, e in found]

    def _compounds(self, view: TokenView) -> Iterator[tuple[int, int]]:
        """An occupation's head word after one to three words that say which (``a paper mill shift
        supervisor``, ``an ICU nurse``, ``former Army medic``), when the phrase is said of someone: an
        article after ``is``/``was``/``as``/``am``/``he's``, a comma, an opening parenthesis or a job cue,
        ``retired``/``former`` or an age (``54-year-old``) right before it, a person's age and a comma
        (``(54, school principal``), or a job field's label (``Job title: warehouse order selector``).
        A head the list lacks (``_agent_nouns``) may stand alone: ``is a caregiver``."""
        toks, lows = view.at, view.lows
        heads = set(view.where(self._heads))
        for i in sorted(heads | set(self._agent_nouns(view))):
            j = i
            while i - j < _MAX_MODIFIERS and j > 0 and self._compound_modifier(view, j - 1):
                j -= 1
            if (j == i and i in heads) or j == 0 or self._noun_goes_on(view, i):
                continue
            lead = lows[j - 1]
            if lead in _ARTICLES and _close(view, j - 1):
                prev = lows[j - 2] if j >= 2 else ""
                cued = _weak_cue(prev) or prev in {",", "("} or any(
                    w in _CUES for w in lows[max(0, j - 1 - _LOOKBACK) : j - 1]
                )
            elif lead == ":" and j >= 2 and lows[j - 2] in _JOB_LABELS:
                cued = True  # "JOB TITLE: warehouse order selector", "Occupation: sheep shearer"
            else:
                cued = ((lead in _STRONG_LEADS or _aged(lows, j)) and _close(view, j - 1)) or _after_age(lows, j)
            if cued:
                yield toks[j].start, toks[i].start + len(toks[i].word)

    def _agent_nouns(self, view: TokenView) -> Iterator[int]:
        """Tokens that may name a job the list lacks (``caregiver``, ``shearer``, ``usher``, ``corpsman``): a
        lower-case word of five letters or more with an agent noun's ending that names no thing, behaviour
        or role in care (``smoker``, ``passenger``, ``historian``: not_agents and not_occupations). Only
        ``_compounds``' cues make one an occupation (``is a``, ``works as a``, ``retired``)."""
        for i, low in enumerate(view.lows):
            if len(low) >= 5 and low.endswith(_AGENT_ENDINGS) and low not in self._not_jobs and low.isalpha():
                if low not in self._heads and low not in self._function and low not in _CUES and view.at[i].is_lower:
                    yield i

    def _noun_goes_on(self, view: TokenView, i: int) -> bool:
        """The head is not the phrase's last noun (``a poor hand washer``): a lower-case word that is no
        function word follows it in the same phrase."""
        if i + 1 >= view.size or not _close(view, i):
            return False
        nxt = view.at[i + 1]
        return nxt.is_lower and nxt.low not in self._function

    def _compound_modifier(self, view: TokenView, k: int) -> bool:
        tok = view.at[k]
        low = tok.low
        return (
            tok.is_word
            and tok.word == tok.text  # no full stop: "an aircraft mechanic. Security officer ..."
            and tok.word.replace("-", "").isalpha()
            and low not in self._not_modifiers
            and low not in _ARTICLES
            and low not in _CUES
            and low not in _WEAK_CUES
            and low not in _STRONG_LEADS
            and low not in _AGED
            and low not in self._function
            and _close(view, k)
        )

    def _find(self, view: TokenView) -> Iterator[tuple[int, int]]:
        toks = view.at
        done = 0
        for i in view.where(self._openers):
            if i < done:
                continue
            first = toks[i].low
            prefixed = first in self._prefixed
            n = 0
            match: tuple[str, ...] = ()
            for words in self._table.get(self._prefixed.get(first, first), ()):
                if (self._prefixed.get(first, first), *view.lows[i + 1 : i + len(words)]) == words:
                    n, match = len(words), words
                    break
            if not n:
                continue
            # "a veterinary technician", "former concert cellist": one lower-case modifier after an
            # article or a _SKIP word belongs to the occupation, and the cues are read before it.
            m = i - 1 if not prefixed and self._modifier(toks, i) else i
            if prefixed or match not in self._ambiguous:
                if self._beside_a_name(view, m, i + n) and not any(w in _CUES for w in view.lows[max(0, m - _LOOKBACK) : m]):
                    done = i + n
                    continue  # "Detective Aurora Lund", "our paralegal, Mehreen", "Rick, the roofer": a role
                last = toks[i + n - 1]
                start = toks[m].start + (3 if prefixed else 0)
                yield start, last.start + len(last.word)
                done = i + n
                continue
            before = view.lows[max(0, m - _LOOKBACK) : m]
            after = view.lows[i + n : i + n + 2]
            k = len(before)
            while k > 0 and before[k - 1] in _SKIP:
                k -= 1
            # "he's a pharmacist"; not "Dr. Ames's nurse" (no article: a possessive).
            article = k < len(before) and before[k] in _ARTICLES
            weak = k > 0 and (before[k - 1] in _WEAK_CUES or (article and _weak_cue(before[k - 1])))
            # "Cleo, a respiratory therapist": an apposition after a name says what the person does.
            weak = weak or (0 < k < len(before) and before[k - 1] in {",", "("} and before[k] in _ARTICLES)
            weak = weak or _after_age(view.lows, m)
            if weak or any(w in _CUES for w in before) or after == ["by", "trade"] or (
                before and before[-1] == ":" and len(before) > 1 and before[-2] in {"occupation", "job", "work", "profession"}
            ) or before[-3:] == ["job", "title", ":"]:
                last = toks[i + n - 1]
                yield toks[m].start, last.start + len(last.word)
            done = i + n
