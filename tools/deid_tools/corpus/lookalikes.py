"""Non-PHI text that a shape-guessing tagger mistakes for PHI; emitted as unlabelled glue.

Each category is a pool of short sentences. Notes draw from them so that training shows these words
and numbers as ``O``: scores written as fractions are not dates, ``mother-in-law`` is not a name,
device words and eponyms are not people, title-case section words are not names, bare weekdays and
relative dates are not dates, languages and nationalities are not places, car makes are not
organisations and a pet's name is not a person.
"""

from __future__ import annotations

import random

PETS: tuple[str, ...] = ("Biscuit", "Pepper", "Shadow", "Rocky", "Luna", "Max", "Daisy", "Mochi", "Bandit",
                         "Ginger", "Duke", "Peanut", "Oreo", "Sadie", "Tucker", "Willow")
WEEKDAYS: tuple[str, ...] = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

LOOKALIKES: dict[str, tuple[str, ...]] = {
    "scores": (
        "Pain 6/10 at rest, 8/10 with ambulation.", "Berg 44/56.", "Mini-Cog 1/5.", "MoCA 22/30.", "Tinetti 19/28.",
        "PHQ-2 3/6, PHQ-9 11/27.", "GAD-7 12/21.", "Rates mood 3/10.", "AUDIT-C 5/12.", "SLUMS 18/30.",
        "Pain 4/10 this am, 2/10 after Tylenol.", "MMSE 21/30, down from 24/30.", "Barthel 55/100.",
        "C-SSRS screen 2/6.", "Strength 4/5 in the left hip flexors.", "Katz ADL 4/6.", "Edinburgh 14/30.",
    ),
    "devices": (
        "Spinal cord stimulator in place; turned off for MRI.", "s/p Watchman device, off warfarin.",
        "CPM machine 0-90 degrees twice daily.", "Uses a rollator and shower chair.", "Hoyer lift for transfers.",
        "Wound VAC changed, good seal.", "LifeVest worn at all times.", "TENS unit at home for back pain.",
        "Bair Hugger applied.", "Uses CPAP nightly.", "Pleurx catheter drained 500 mL.", "Insulin pump site changed.",
    ),
    "eponyms": (
        "History of Parkinson's.", "Foley removed at midnight.", "Braden scale 14.", "Morse Fall Scale 55, high risk.",
        "Gleason 3+4 on biopsy.", "s/p Hartmann procedure.", "Raynaud's, worse in the cold.",
        "Alzheimer's type dementia.", "Dupuytren contracture both hands.", "Charcot foot on the right.",
        "Baker's cyst on ultrasound.", "Heberden nodes noted.", "Glasgow 15.", "Bristol stool type 6.",
        "Hashimoto's on levothyroxine.", "Trendelenburg positive.",
    ),
    "titles": (
        "Case Management consulted.", "Per Guidelines, repeat in 3 months.", "Assessment and Plan reviewed.",
        "Pain Management following.", "Nutrition Services to see.", "Advance Directive on file.",
        "Health Care Proxy form signed.", "Discharge Planning in progress.", "Medication Reconciliation complete.",
        "Social Services aware.", "Patient Education provided.", "Infection Control notified.",
    ),
    "relative": (
        "Seen last Tuesday.", "Will call back on Friday.", "Labs drawn yesterday.", "Fell over the weekend.",
        "Family visits on Sundays.", "Dialysis Mon/Wed/Fri.", "Worse since last Thursday.",
        "Home care starts next Monday.", "Appointment moved to Wednesday afternoon.", "Slept poorly the night before last.",
        "Daughter visits every Saturday.", "PT Tues and Thurs.",
    ),
    "languages": (
        "Spanish-speaking; interpreter used.", "Jordanian, speaks Arabic at home.", "Portuguese interpreter present.",
        "Prefers Haitian Creole.", "Vietnamese-speaking, son interprets.", "First language is Russian.",
        "Somali and English.", "Cantonese speaker.", "Polish-born, fluent in English.", "Brazilian, speaks Portuguese.",
    ),
    "cars": (
        "Rear-ended while driving a Honda Civic.", "Drives a Subaru.", "Lives out of his Ford pickup at times.",
        "Rides in a Toyota minivan to appointments.", "Hit by a Chevy at low speed.", "Owns a Jeep.",
    ),
    "inlaws": (
        "Lives with mother-in-law.", "Sister-in-law helps with meals.", "Son-in-law drives to visits.",
        "Father-in-law has dementia.", "Daughter-in-law is involved.", "Brother-in-law on speakerphone.",
    ),
    "codes": (
        "Stage 3B CKD.", "T2N1 disease.", "Type 2B fracture.", "Level 4 lymph node.", "Zone 2 injury.",
        "CN 7 intact.", "Grade 2A sprain.", "Mallampati 3.",
    ),
}


def lookalike(rng: random.Random, category: str = "any") -> str:
    if category == "pet":
        return rng.choice(("Has a cat named {p}.", "Walks the dog, {p}, twice a day.", "Worried about the dog ({p}).",
                           "{p} (the cat) sleeps on the bed.")).format(p=rng.choice(PETS))
    if category == "any":
        category = rng.choice(tuple(LOOKALIKES) + ("pet",))
        return lookalike(rng, category)
    return rng.choice(LOOKALIKES[category])


def relative_weekday(rng: random.Random) -> str:
    """A bare weekday in a relative expression; not a date."""
    return f"{rng.choice(('last', 'on', 'this', 'next', 'since', 'by'))} {rng.choice(WEEKDAYS)}"
