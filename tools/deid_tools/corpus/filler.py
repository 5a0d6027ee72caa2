"""Clinical filler text that is never PHI but looks like it to a careless detector.

Doses, vitals, lab values, vertebral levels, scores, times, durations and eponyms (``Parkinson disease``,
``Murphy's sign``) are emitted as unlabelled glue; a detector that tags them is producing false positives.
"""

from __future__ import annotations

import random

EPONYM_SENTENCES: tuple[str, ...] = (
    "History of Parkinson disease on carbidopa-levodopa.", "Murphy's sign negative.", "Murphy sign equivocal.",
    "Known Down syndrome, lives with family.", "Remote Hodgkin lymphoma s/p ABVD, in remission.",
    "Foley catheter in place, draining clear yellow urine.", "Foley removed, voiding without difficulty.",
    "Babinski downgoing bilaterally.", "Babinski sign present on the left.", "Romberg negative.",
    "Crohn disease, last flare years ago.", "Graves disease s/p RAI, now on levothyroxine.",
    "Bell's palsy on the right, improving.", "Alzheimer dementia, oriented to self only.",
    "Hashimoto thyroiditis.", "Cushing syndrome ruled out with normal dexamethasone suppression test.",
    "Tinel and Phalen signs positive at the right wrist.", "McMurray test negative.", "Homans sign negative.",
    "Kernig and Brudzinski signs negative.", "Swan-Ganz catheter removed.", "Jackson-Pratt drain with 30 cc serosanguinous output.",
    "Holter monitor showed PACs only.", "s/p Whipple procedure.", "s/p Nissen fundoplication.",
    "s/p Roux-en-Y gastric bypass.", "Child-Pugh class B cirrhosis.", "Gleason 3+4=7 adenocarcinoma.",
    "NYHA class II symptoms.", "Mallampati II airway.", "Wells score 1.5, low probability.",
    "Epley maneuver performed with relief.", "Guillain-Barre syndrome ruled out.", "Wolff-Parkinson-White pattern not seen.",
    "Barrett esophagus on last EGD.", "Raynaud phenomenon of the fingers.", "Sjogren syndrome, dry eyes.",
    "Meniere disease with vertigo.", "Addison disease on hydrocortisone.", "Kaposi sarcoma excluded.",
    "Cheyne-Stokes respirations noted overnight.", "Lhermitte sign absent.", "Trendelenburg gait.",
    "Hartmann pouch intact.", "Tanner stage 3.", "Bishop score 6.", "Apgar 8/9.", "Apgars 7 and 9.",
)
MEDS: tuple[str, ...] = (
    "metoprolol tartrate 25 mg PO bid", "lisinopril 10 mg daily", "atorvastatin 40 mg qhs", "aspirin 81 mg daily",
    "warfarin 5 mg daily except 2.5 mg on Mon/Fri", "apixaban 5 mg bid", "furosemide 40 mg PO daily",
    "metformin 1000 mg bid", "insulin glargine 22 units qhs", "heparin 5000 units SC q8h",
    "enoxaparin 1 mg/kg SC q12h", "acetaminophen 650 mg PO q6h prn pain", "oxycodone 5 mg q4h prn",
    "pantoprazole 40 mg daily", "levothyroxine 75 mcg daily", "amlodipine 5 mg daily", "sertraline 50 mg daily",
    "gabapentin 300 mg tid", "tamsulosin 0.4 mg qhs", "albuterol 2 puffs q4h prn", "prednisone 40 mg x 5 days",
    "vancomycin 1 g IV q12h", "ceftriaxone 1 g IV q24h", "ondansetron 4 mg IV q6h prn nausea",
    "senna 2 tabs qhs", "docusate 100 mg bid", "amoxicillin 45 mg/kg/day divided bid", "ibuprofen 10 mg/kg q6h prn",
    "lorazepam 0.5 mg q8h prn anxiety", "quetiapine 25 mg qhs", "lithium 300 mg bid", "digoxin 0.125 mg daily",
)
LAB_NAMES = ("Na", "K", "Cl", "HCO3", "BUN", "Cr", "Glu", "Ca", "Mg", "Phos", "WBC", "Hgb", "Hct", "Plt", "INR",
             "PTT", "ALT", "AST", "Alk phos", "T bili", "Alb", "Lactate", "Trop", "BNP", "TSH", "A1c", "LDL")


def _lab(rng: random.Random, name: str) -> str:
    ranges = {"Na": (128, 146, 0), "K": (3.1, 5.6, 1), "Cl": (95, 110, 0), "HCO3": (18, 31, 0), "BUN": (6, 60, 0),
              "Cr": (0.5, 3.5, 1), "Glu": (70, 320, 0), "Ca": (7.8, 10.6, 1), "Mg": (1.5, 2.6, 1), "Phos": (2.1, 5.0, 1),
              "WBC": (3.0, 18.0, 1), "Hgb": (7.0, 16.0, 1), "Hct": (22, 48, 1), "Plt": (60, 450, 0), "INR": (0.9, 4.2, 1),
              "PTT": (24, 90, 1), "ALT": (8, 180, 0), "AST": (10, 160, 0), "Alk phos": (40, 300, 0), "T bili": (0.2, 4.5, 1),
              "Alb": (2.1, 4.8, 1), "Lactate": (0.6, 5.1, 1), "Trop": (0.01, 2.5, 2), "BNP": (20, 3200, 0),
              "TSH": (0.2, 8.0, 2), "A1c": (5.0, 11.5, 1), "LDL": (40, 190, 0)}
    lo, hi, dp = ranges[name]
    v = rng.uniform(lo, hi)
    return f"{name} {v:.{dp}f}" + ("%" if name == "A1c" else "")


def labs(rng: random.Random) -> str:
    names = rng.sample(LAB_NAMES, rng.randint(4, 10))
    sep = rng.choice((", ", " ", "; ", "  "))
    return sep.join(_lab(rng, n) for n in names)


def vitals(rng: random.Random) -> str:
    parts = [f"BP {rng.randint(88, 190)}/{rng.randint(48, 105)}", f"HR {rng.randint(48, 128)}",
             f"RR {rng.randint(12, 28)}", f"T {rng.uniform(96.5, 102.8):.1f}", f"SpO2 {rng.randint(86, 100)}%",
             f"Wt {rng.uniform(40, 130):.1f} kg"]
    if rng.random() < 0.5:
        parts[4] += rng.choice((" on RA", " on 2L NC", " RA", " on 4L"))
    if rng.random() < 0.3:
        parts = [p.replace("BP ", "BP: ").replace("HR ", "P ") for p in parts]
    rng.shuffle(parts) if rng.random() < 0.3 else None
    return rng.choice((", ", " ", "  ", "; ")).join(parts[: rng.randint(4, 6)])


def meds(rng: random.Random, sep: str = "\n") -> str:
    chosen = rng.sample(MEDS, rng.randint(3, 8))
    if sep == "\n":
        bullet = rng.choice(("", "- ", "* ", "{i}. "))
        return "\n".join(bullet.replace("{i}", str(i + 1)) + m for i, m in enumerate(chosen))
    return sep.join(chosen)


def eponym(rng: random.Random) -> str:
    return rng.choice(EPONYM_SENTENCES)


LOOKALIKES: tuple[str, ...] = (
    "MRI L-spine with disc bulge at L4-L5 and L5-S1.", "GCS 14 on arrival, 15 by time of transfer.",
    "Pain 7/10, improved to 3/10 after analgesia.", "Given 2 L NS bolus x 2.", "Symptoms for 3 days.",
    "Ambulated 150 ft x 2 with walker.", "EF 35-40% on echo.", "Received 4 mg morphine at 14:30.",
    "Left 2 units PRBC.", "Fall risk score 45.", "Braden 16.", "Lines: 18g L AC, 20g R hand.",
    "CHA2DS2-VASc 4, HAS-BLED 2.", "PHQ-9 score 14.", "MMSE 24/30.", "Stage 2 pressure injury sacrum 2 x 3 cm.",
    "Repeat K 4.1 at 0600.", "UOP 1.2 L over 24h.", "C5-C6 fusion in the remote past.", "Tmax 101.2 overnight.",
    "NPO after midnight.", "O2 weaned from 4 L to 2 L.", "Troponin x 3 negative.", "QTc 452 ms.",
    "TIMI score 2.", "BMI 31.4.", "Glucose checks ac/hs.", "Seizure lasting 2 min at 03:15.",
)


def lookalike(rng: random.Random) -> str:
    return rng.choice(LOOKALIKES)


def exam(rng: random.Random) -> str:
    gen = rng.choice(("NAD, alert and oriented x 3.", "Uncomfortable appearing, diaphoretic.", "Well appearing.",
                      "Elderly, frail, in no distress."))
    heent = rng.choice(("PERRL, EOMI, MMM.", "Anicteric sclerae, OP clear.", "JVP 8 cm."))
    cv = rng.choice(("RRR, no m/r/g.", "Irregularly irregular, II/VI SEM at LUSB.", "S1 S2 normal, no murmurs."))
    lungs = rng.choice(("CTAB.", "Crackles at bases bilaterally.", "Decreased BS at R base, no wheezes."))
    abd = rng.choice(("Soft, NT/ND, +BS.", "Mild RUQ tenderness, " + eponym(rng).lower(), "Obese, nontender."))
    ext = rng.choice(("No edema.", "1+ pitting edema to the knees bilaterally.", "Warm, 2+ DP pulses."))
    neuro = rng.choice(("CN II-XII intact, strength 5/5 throughout.", "Nonfocal. " + eponym(rng),
                        "A&O x 2, moves all extremities."))
    return "\n".join(f"{k}: {v}" for k, v in (("Gen", gen), ("HEENT", heent), ("CV", cv), ("Lungs", lungs),
                                              ("Abd", abd), ("Ext", ext), ("Neuro", neuro)))


PMH: tuple[str, ...] = (
    "CAD s/p PCI", "HTN", "HLD", "DM2", "CKD stage 3", "COPD", "atrial fibrillation", "CHF with EF 30%", "GERD",
    "hypothyroidism", "OSA on CPAP", "depression", "anxiety", "BPH", "osteoarthritis", "gout", "obesity",
    "prior DVT", "breast cancer s/p lumpectomy", "prostate cancer", "Parkinson disease", "Crohn disease",
    "remote Hodgkin lymphoma", "asthma", "migraine", "seizure disorder", "cirrhosis", "stroke with residual L weakness",
)


def pmh(rng: random.Random, inline: bool = False) -> str:
    items = rng.sample(PMH, rng.randint(2, 4) if inline else rng.randint(3, 8))
    if inline:
        return ", ".join(items)
    if rng.random() < 0.5:
        return "\n".join(f"{i + 1}. {x}" for i, x in enumerate(items))
    return ", ".join(items) + "."


COMPLAINTS: tuple[str, ...] = (
    "chest pain", "shortness of breath", "abdominal pain", "fever and cough", "syncope", "fall at home",
    "confusion", "lower extremity swelling", "nausea and vomiting", "headache", "back pain", "palpitations",
    "hematuria", "melena", "weakness", "dizziness", "rash", "dysuria", "hypoglycemia", "suicidal ideation",
)


def complaint(rng: random.Random) -> str:
    return rng.choice(COMPLAINTS)


HPI_SENTENCES: tuple[str, ...] = (
    "Symptoms began 3 days prior and have been gradually worsening.", "Denies fevers, chills or night sweats.",
    "Reports poor PO intake x 2 days.", "No recent travel or sick contacts.", "Took ibuprofen 400 mg without relief.",
    "Pain is substernal, pressure-like, 6/10, radiating to the left arm.", "Has had 2 similar episodes in the past.",
    "Reports orthopnea requiring 3 pillows.", "EMS found BG 48 and gave D50.", "No bowel movement for 4 days.",
    "Productive cough with green sputum.", "Weight gain of 4 kg over 1 week.", "Denies CP/SOB/N/V/D.",
    "Was in USOH until this morning.", "Reports medication nonadherence for several weeks.",
)


def hpi(rng: random.Random) -> str:
    return " ".join(rng.sample(HPI_SENTENCES, rng.randint(2, 5)))


PLAN_ITEMS: tuple[str, ...] = (
    "Continue current regimen.", "Check BMP in AM.", "Diurese with furosemide 40 mg IV bid, goal net -1 L.",
    "Start ceftriaxone 1 g IV q24h and azithromycin.", "PT/OT consult.", "Cardiology to see.",
    "Hold metformin while inpatient.", "SSI with meals.", "DVT ppx with heparin SC.", "Advance diet as tolerated.",
    "Trend troponins q6h.", "Titrate O2 to SpO2 > 92%.", "Pain control with acetaminophen 1 g q8h.",
    "Follow up pending cultures.", "Repeat CXR in 6 weeks.", "Counseled on smoking cessation.",
    "Full code.", "DNR/DNI confirmed with patient.", "Return precautions reviewed.", "Increase lisinopril to 20 mg.",
)


def plan(rng: random.Random) -> str:
    items = rng.sample(PLAN_ITEMS, rng.randint(3, 8))
    style = rng.random()
    if style < 0.4:
        return "\n".join(f"{i + 1}. {x}" for i, x in enumerate(items))
    if style < 0.7:
        return "\n".join(f"- {x}" for x in items)
    return " ".join(items)


def ros(rng: random.Random) -> str:
    return rng.choice(("10-point ROS negative except as in HPI.", "ROS: as per HPI, otherwise negative.",
                       "Positive for fatigue and DOE. Negative for CP, fevers, weight loss.",
                       "Constitutional: no fever. Resp: + cough. GI: no N/V/D. GU: no dysuria."))


def allergies(rng: random.Random) -> str:
    return rng.choice(("NKDA", "PCN (rash)", "sulfa - hives", "codeine (nausea), latex", "No known allergies",
                       "iodinated contrast - anaphylaxis"))


HPI_MORE: tuple[str, ...] = (
    "Reports associated diaphoresis and nausea without emesis.", "Symptoms worse with exertion and relieved by rest.",
    "Has been sleeping in a recliner for the past week.", "Denies melena, hematochezia or hematemesis.",
    "Notes decreased urine output over 48 hours.", "Tried OTC antacids with partial relief.",
    "Chronic low back pain unchanged from baseline.", "No focal weakness, numbness or speech change.",
    "Intermittent palpitations lasting minutes at a time.", "Was recently started on a new BP medication.",
    "Family notes increased somnolence and poor appetite.", "Two falls at home over the past month, no head strike.",
    "Reports 5 kg unintentional weight loss over 3 months.", "Last colonoscopy 5 years ago was normal.",
    "Associated pleuritic component, worse with deep inspiration.", "Denies recent immobilization or surgery.",
)


def hpi_long(rng: random.Random) -> str:
    pool = HPI_SENTENCES + HPI_MORE
    return " ".join(rng.sample(pool, rng.randint(3, 7)))


COURSE_SENTENCES: tuple[str, ...] = (
    "Diuresed with IV furosemide with net negative 4 L over the admission.",
    "Blood cultures from admission remained no growth at 5 days.",
    "Troponins peaked at 0.45 and trended down; cardiology felt this was demand ischemia.",
    "Creatinine rose to 2.1 with diuresis and improved to 1.4 with holding diuretics.",
    "Started on heparin drip, transitioned to apixaban 5 mg bid prior to discharge.",
    "Hemoglobin remained stable at 9-10 and no transfusion was required.",
    "Potassium repleted for K 3.2 on HD 2.", "Foley catheter removed on HD 3 and voided without difficulty.",
    "PT evaluated and recommended home with services.", "Blood sugars ranged 140-220 on basal-bolus insulin.",
    "Echo showed EF 35-40% with moderate MR.", "CT abdomen showed no abscess.",
    "Antibiotics narrowed to cefazolin 2 g IV q8h based on sensitivities.", "Delirium improved with reorientation and sleep hygiene.",
    "Tolerated regular diet by HD 4.", "Pain controlled with oral regimen by discharge.",
    "Home metoprolol resumed at half dose given soft BPs (SBP 90s).", "No further episodes of hypoglycemia after dose reduction.",
    "TTE with bubble study negative for shunt.", "Required 4 L NC at peak, weaned to room air by discharge.",
    "EGD showed a clean-based ulcer; started pantoprazole 40 mg bid x 8 weeks.", "INR was supratherapeutic at 4.2; warfarin held x 2 doses.",
    "Seizure precautions maintained; no events on telemetry.", "MRI brain negative for acute infarct.",
    "Thoracentesis removed 1.2 L of straw-colored fluid, transudative by Light criteria.",
    "Wound care consulted for stage 2 sacral pressure injury.", "Lactate cleared after 3 L IVF.",
    "Goals of care discussed; patient wishes to remain full code.", "Stool C. diff negative.",
    "Swallow evaluation recommended soft solids and thin liquids.",
)


def course(rng: random.Random) -> str:
    return " ".join(rng.sample(COURSE_SENTENCES, rng.randint(4, 9)))


PSH: tuple[str, ...] = (
    "appendectomy", "cholecystectomy", "CABG x 3", "R TKA", "L THA", "C-section x 2", "TURP", "hernia repair",
    "lumbar laminectomy L4-L5", "hysterectomy", "tonsillectomy", "cataract extraction OU", "carpal tunnel release",
)


def psh(rng: random.Random) -> str:
    return ", ".join(rng.sample(PSH, rng.randint(1, 4))) + "."


def ros_long(rng: random.Random) -> str:
    systems = (("Constitutional", ("no fevers or chills", "+ fatigue", "weight stable")),
               ("Eyes", ("no vision change",)), ("ENT", ("no sore throat", "+ rhinorrhea")),
               ("CV", ("+ DOE", "no chest pain", "no orthopnea or PND")),
               ("Resp", ("+ cough", "no hemoptysis", "no wheeze")), ("GI", ("no N/V/D", "+ constipation")),
               ("GU", ("no dysuria", "+ nocturia x 2")), ("MSK", ("+ knee pain", "no joint swelling")),
               ("Neuro", ("no headache", "no focal weakness")), ("Psych", ("+ low mood", "no SI")),
               ("Heme", ("no easy bruising",)), ("Skin", ("no rash",)))
    chosen = rng.sample(systems, rng.randint(5, len(systems)))
    sep = rng.choice(("\n", "; ", ". "))
    return sep.join(f"{n}: {rng.choice(v)}" for n, v in chosen)


SOCIAL_GENERIC: tuple[str, ...] = (
    "Smokes 1 ppd x 30 years (30 pack-years).", "Former smoker, quit 10 years ago.", "Drinks 2-3 beers on weekends.",
    "Denies IVDU.", "Independent in ADLs and IADLs.", "Uses a cane outdoors.", "Sexually active with one partner.",
    "Drinks 4 cups of coffee daily.", "No firearms in the home.",
)


def social_generic(rng: random.Random) -> str:
    return " ".join(rng.sample(SOCIAL_GENERIC, rng.randint(2, 4)))


FHX: tuple[str, ...] = (
    "Mother with breast cancer.", "Father with CAD, MI in his 50s.", "Sister with type 1 diabetes.",
    "Brother with Crohn disease.", "No family history of sudden cardiac death.", "Maternal grandmother with Alzheimer dementia.",
    "Father with Parkinson disease.", "Family history of colon cancer in a paternal uncle.",
)


def fhx(rng: random.Random) -> str:
    return " ".join(rng.sample(FHX, rng.randint(1, 3)))


INSTRUCTIONS: tuple[str, ...] = (
    "Weigh yourself every morning and call if weight increases by more than 3 lbs in a day or 5 lbs in a week.",
    "Limit salt to 2 g daily and fluids to 2 L daily.", "Do not drive while taking oxycodone.",
    "Keep the incision clean and dry; you may shower after 48 hours.", "No heavy lifting > 10 lbs for 6 weeks.",
    "Return to the ED for chest pain, shortness of breath, fever > 101.5, or bleeding.",
    "Take all medications as prescribed; a new medication list is attached.", "Check blood sugar before meals and at bedtime.",
    "Use the incentive spirometer 10 times per hour while awake.", "Resume a regular diet as tolerated.",
)


def instructions(rng: random.Random) -> str:
    return " ".join(rng.sample(INSTRUCTIONS, rng.randint(2, 5)))


RAD_FINDINGS: tuple[str, ...] = (
    "The lungs are clear without focal consolidation, effusion or pneumothorax.", "Cardiomediastinal silhouette is within normal limits.",
    "Mild degenerative changes of the thoracic spine.", "Small hiatal hernia.", "No free intraperitoneal air.",
    "Liver is normal in size with no focal lesion.", "Gallbladder contains multiple stones without wall thickening.",
    "Kidneys enhance symmetrically without hydronephrosis.", "Scattered colonic diverticula without diverticulitis.",
    "Atherosclerotic calcification of the abdominal aorta, no aneurysm.", "Disc desiccation and broad-based bulge at L4-L5 with mild foraminal narrowing.",
    "No acute fracture or malalignment.", "Ventricles and sulci are prominent, consistent with age-related volume loss.",
    "Periventricular white matter hypodensities, likely chronic small vessel ischemic change.", "No midline shift or mass effect.",
    "Subcentimeter pulmonary nodule in the right upper lobe, 4 mm.", "Bilateral small pleural effusions with adjacent atelectasis.",
    "Endotracheal tube tip 4 cm above the carina.", "Right IJ central line tip at the cavoatrial junction.",
)


def rad_findings(rng: random.Random) -> str:
    return " ".join(rng.sample(RAD_FINDINGS, rng.randint(3, 7)))


def mse(rng: random.Random) -> str:
    return "\n".join((
        f"Appearance: {rng.choice(('well groomed', 'disheveled', 'casually dressed, fair hygiene'))}",
        f"Behavior: {rng.choice(('calm, cooperative', 'guarded', 'restless, poor eye contact'))}",
        f"Speech: {rng.choice(('normal rate and volume', 'pressured', 'soft, slowed'))}",
        f"Mood: \"{rng.choice(('depressed', 'okay', 'anxious', 'not great'))}\"",
        f"Affect: {rng.choice(('constricted', 'labile', 'congruent, full range', 'flat'))}",
        f"Thought process: {rng.choice(('linear, goal directed', 'tangential', 'circumstantial'))}",
        f"Thought content: {rng.choice(('no SI/HI', 'passive SI without plan', 'no delusions'))}",
        "Cognition: alert, oriented x 3, MoCA 26/30",
        f"Insight/Judgment: {rng.choice(('fair/fair', 'poor/poor', 'good/good'))}",
    ))


GROSS: tuple[str, ...] = (
    "The specimen is received in formalin and consists of a 4.5 x 2.0 x 1.2 cm portion of tan-pink soft tissue.",
    "The specimen is inked and serially sectioned to reveal a 1.1 cm firm white nodule 0.3 cm from the inked margin.",
    "Representative sections are submitted in cassettes A1-A4.", "Entirely submitted in one cassette.",
    "The gallbladder measures 7.5 x 3.0 cm; the mucosa is green and velvety with multiple yellow stones.",
    "Three cores measuring 1.2 to 1.8 cm in length are received and entirely submitted.",
)


def gross(rng: random.Random) -> str:
    return " ".join(rng.sample(GROSS, rng.randint(2, 4)))
