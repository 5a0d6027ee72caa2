"""Report-like kinds: radiology, pathology, ECG, lab comments, semi-structured header blocks."""

from __future__ import annotations

from deid_tools.corpus.templates import FamilySpec as F

FAMILIES: tuple[F, ...] = (
    # ---------------------------------------------------------------- radiology
    F("rad_standard", "radiology_report", "train", """
{hosp} Department of Radiology
EXAM: CT abdomen/pelvis with contrast || EXAM: CHEST PA AND LATERAL || EXAM: MRI L-spine without contrast
PATIENT: {pt:lf}   MRN: {mrn}   DOB: {date:dob:num}
DATE OF EXAM: {date:visit:num} {time}
ACCESSION: {acc}
REFERRING: {dr:ref:lf}
# CLINICAL HISTORY: | INDICATION:
{age:compact} with {cc}.
# COMPARISON:
{date:past1:num} || None. || CT from {hosp:2} dated {date:past2:long}.
# FINDINGS:
{look} No acute intracranial hemorrhage. Lungs are clear. Heart size normal. || Mild degenerative changes at L4-L5 and L5-S1 without canal stenosis. {look} || Cholelithiasis without pericholecystic fluid; sonographic Murphy's sign negative.
# IMPRESSION:
1. No acute process. || 1. Findings as above, consider follow-up in 6 months.
?0.6 Findings discussed with {dr:ref:dr} by telephone at {time} on {date:visit:short}.
# ADDITIONAL FINDINGS:
{radf}
#/
Dictated by: {dr:rad:md}
?0.5 Resident: {dr:res:md}
?0.5 Signed {date:visit:num} {sig:rad}
"""),
    F("rad_compact", "radiology_report", "train", """
XR CHEST 1V PORTABLE  || US RUQ || CTA CHEST PE PROTOCOL
Pt: {pt:full}  Age: {age:num}  Sex: {mf} || Pt: {pt:init}  Age: {age:num}  Sex: {mf}
Acc#: {acc}   Ordering: {dr:att:init}
?0.5 Location: {dept} rm {room}
# Hx
{cc}
# Findings
{look} {eponym}
# Impression
Stable. || No PE. || Small R effusion.
?0.5 Critical result called to {rn:0:full} at {time}.
?0.3 {misc}
# Details
{radf}
#/
{dr:rad:mdi}
"""),
    F("rad_dev", "radiology_report", "dev", """
RADIOLOGY REPORT - {hosp}
{pt:lf} / {mrn} / {date:dob:num}
study date {date:visit:num}; accession {acc}
ordered by {dr:ref:lf}
# findings:
{look}
# impression:
no acute findings.
?0.6 d/w {dr:ref:dr} {date:visit:short} {time}
?0.4 {misc}
# addl:
{radf}
#/
{dr:rad:md}
"""),
    F("rad_test", "radiology_report", "test", """
Imaging consultation, {hosp} ({dept})
Study: MR brain with and without gadolinium, performed {wdate:visit:long}
For {pt:fml}, born {date:dob:long}, a {age:words} {sexa} ({mrn}); order number {acc}
Requested by {dr:ref:drfull} to evaluate {cc}
# Prior studies
Outside images from {hosp:2} ({date:past:my}) were uploaded and compared.
# Observations
{look} Brain parenchyma normal. No evidence of Parkinson disease-related changes on this sequence.
?0.5 Vagal nerve stimulator ({device}) artifact limits evaluation.
# Conclusion
No acute abnormality. Recommend clinical correlation.
?0.6 Results conveyed to {dr:ref:dr} via {phone:office} on {date:visit:short}.
?0.5 {misc}
# Further detail
{radf}
#/
Reading radiologist {dr:rad:drfull} ({user})
"""),
    # ---------------------------------------------------------------- pathology
    F("path_surgical", "pathology_report", "train", """
SURGICAL PATHOLOGY REPORT
{hosp} Department of Pathology
Accession #: {acc}
Patient: {pt:lf}  MRN: {mrn}  DOB: {date:dob:num}  Sex: {mf}
Collected: {date:op:num}  Received: {date:op:num}
Submitting physician: {dr:surg:lf}
# CLINICAL HISTORY:
{age:yo} {sexa} with {cc}.
# GROSS DESCRIPTION:
Received in formalin labeled with the patient's name ({pt:last}) and MRN is a 3.2 x 2.1 x 1.0 cm fragment of tan tissue. Sectioned and submitted in cassettes A1-A3.
# MICROSCOPIC DESCRIPTION:
Sections show {look} || Sections show chronic cholecystitis. No dysplasia.
# DIAGNOSIS:
A. Gallbladder, cholecystectomy: chronic cholecystitis and cholelithiasis. || A. Prostate, needle biopsy: adenocarcinoma, Gleason 3+4=7. || No evidence of Hodgkin lymphoma.
?0.5 Block A2 sent for molecular testing, case {acc:2}.
# ADDITIONAL GROSS:
{gross}
#/
{dr:path:md}, Pathologist
?0.5 Electronically signed {date:visit:num}
"""),
    F("path_cyto", "pathology_report", "train", """
CYTOLOGY REPORT  {acc}
{pt:full} ({mrn})  {age:num}{mf}
Specimen: FNA thyroid, right lobe || Specimen: pleural fluid
Received {date:op:long}; clinician {dr:ref:drfull}
# Interpretation
Benign follicular nodule (Bethesda II). || Negative for malignant cells.
{eponym}
?0.5 Prior specimen {acc:3} from {hosp:2} reviewed.
# Gross
{gross}
#/
{dr:path:ss}
"""),
    F("path_dev", "pathology_report", "dev", """
PATH REPORT {hosp}
case no {acc}; pt {pt:lf}; mrn {mrn}; dob {date:dob:num}
# specimen
skin, left forearm, shave bx
# dx
basal cell carcinoma, margins involved. {look}
?0.5 comment: discussed w/ {dr:ref:dr} {date:visit:short}.
?0.4 {misc}
# gross:
{gross}
#/
{dr:path:lf}, md
"""),
    F("path_test", "pathology_report", "test", """
Anatomic pathology consultation - {hosp}
Our case {acc}; outside case {acc:2} from {hosp:2}
Patient {pt:fml}, {age:yrs}, record {mrn}; specimen obtained {date:op:long}
Clinician of record: {dr:surg:drfull}
# Material received
Two slides and one paraffin block labeled "{pt:lf}".
# Findings
{eponym} {look}
# Final interpretation
Agree with the outside diagnosis of follicular lymphoma, grade 1-2. No evidence of Hodgkin lymphoma.
?0.5 DNA specimen barcode {bioid} retained for research per consent.
?0.5 {misc}
# Gross examination
{gross}
#/
Signed out by {dr:path:md} on {date:visit:num}
"""),
    # ---------------------------------------------------------------- ECG
    F("ecg_machine", "ecg_report", "train", """
12-LEAD ECG REPORT || ELECTROCARDIOGRAM
{pt:lf}  ID: {mrn}  {date:visit:num} {time}
{age:num} yr  {sexa}  Room: {room}
Vent. rate 72 BPM
PR interval 164 ms
QRS duration 92 ms
QT/QTc 398/436 ms
P-R-T axes 45 12 38
# Interpretation
Normal sinus rhythm. Normal ECG. || Sinus bradycardia. Left axis deviation. || Atrial fibrillation with RVR.
?0.6 When compared with ECG of {date:past1:num}, no significant change.
#/
Confirmed by {dr:cards:lf} on {date:visit:num}
?0.5 Referred by: {dr:att:lf}
"""),
    F("ecg_read", "ecg_report", "train", """
EKG read {date:visit:short}
{pt:full} ({age:compact})
{look}
Sinus rhythm at 88, PR 0.16, QRS 0.10, no ST changes. || AF at 110, LBBB, unchanged from prior.
?0.5 Device check: pacer {device}, V-paced 98%.
#/
{dr:cards:md}
"""),
    F("ecg_dev", "ecg_report", "dev", """
ECG - {hosp}
pt {pt:lf}  mrn {mrn}  acct {acct}
date {date:visit:num}  age {age:num}
rate 64  pr 180  qrs 100  qtc 441
# read
sinus rhythm, 1st degree av block. compared to {date:past:num}: unchanged.
?0.4 {misc}
#/
{dr:cards:init}
"""),
    F("ecg_test", "ecg_report", "test", """
Resting electrocardiogram interpretation
Recorded {date:visit:long} at {time} in {dept}, {hosp}
Subject {pt:fml}; birth date {date:dob:num}; chart {mrn}
Heart rate 58/min, PR 210 ms, QRS 118 ms, QTc 462 ms.
# Reading
Sinus bradycardia with first-degree AV block and incomplete RBBB. Wolff-Parkinson-White pattern not seen.
?0.6 Prior tracing from {hosp:2} dated {date:past:long} available for comparison.
?0.5 Loop recorder {device} in situ.
?0.5 {misc}
#/
Over-read by {dr:cards:drfull}
"""),
    # ---------------------------------------------------------------- lab comments with accession numbers
    F("lab_comment_std", "lab_comment", "train", """
LAB COMMENT
Accession: {acc}  Collected: {date:visit:num} {time}
Patient: {pt:lf}  MRN: {mrn}
{labs}
# Comment:
Specimen hemolyzed; K may be falsely elevated. Recollect requested. || Critical value INR 5.2 called to {rn:0:full} at {time}, read back verified.
?0.5 Previous accession {acc:2} on {date:past:num}.
# Trend:
{labtable}
#/
Tech: {user}
"""),
    F("lab_micro", "lab_comment", "train", """
MICROBIOLOGY  {acc}
{pt:full} ({mrn})  {dept} Rm {room}
Source: blood culture x 2 || Source: urine, clean catch
{date:op:num}: Gram positive cocci in clusters. || {date:op:num}: >100,000 CFU/mL E. coli.
Called to {dr:res:dr} by {user} at {time}. || Notified {rn:1:full} at {time}.
?0.5 Isolate sent to state lab ({state:1:full}), ref {idnum}.
Susceptibilities pending. {look}
"""),
    F("lab_dev", "lab_comment", "dev", """
lab note acc {acc}
{pt:lf} || {pt:init} mrn {mrn} dob {date:dob:num}
{labs}
crit value called to {dr:res:init} {time} by {user}
?0.4 {misc}
trend:
{labtable}
"""),
    F("lab_test", "lab_comment", "test", """
Laboratory communication - {hosp} clinical laboratory
Specimen {acc} (linked requisition {idnum}) drawn {date:visit:long} from {pt:fml}, chart {mrn}
{labs}
Result flagged as critical; telephoned to {dr:att:drfull} at {phone:office} on {wd:visit} at {time} by technologist {user}.
?0.6 Duplicate specimen {acc:2} discarded. || Tube labelled {pt:init} only; relabelled.
?0.5 {misc}
Previous results:
{labtable}
"""),
    # ---------------------------------------------------------------- semi-structured header blocks
    F("hdr_block", "header_block", "train", """
Name: {pt:lfc} || Name: {pt:full}
MRN: {mrn}
DOB: {date:dob:num}
Sex: {mf}
Address: {street}
City/State/Zip: {city}, {state:1:abbr} {zip}
Phone: {phone:home}
?0.7 Cell: {phone:cell}
?0.6 Email: {email}
?0.7 SSN: {ssn}
?0.7 Insurance: {ins}  Policy #: {hp}
?0.6 Account: {acct}
PCP: {dr:pcp:lfc} || PCP: {dr:pcp:md}
Emergency Contact: {nok:fml} ({nokw}) {phone:nok}
?0.5 Employer: {org}
?0.5 Occupation: {prof}
# Visit
Date of Service: {date:visit:num}
{age:yearold} {sexw} seen for {cc}. {plan}
{hpi:long}
{exam}
{meds}
"""),
    F("hdr_registration", "header_block", "train", """
PATIENT REGISTRATION
LAST: {pt:last}   FIRST: {pt:first}
MED REC NO: {mrn}    ACCT NO: {acct}
BIRTHDATE: {date:dob:num}   AGE: {age:num}
ADDR: {addr:, }
HOME PH: {phone:home}   WORK PH: {phone:work}
?0.6 SS#: {ssn}
GUARANTOR: {nok:lf}  REL: {nokw}
?0.6 PLAN: {ins} {hp}
ATTENDING: {dr:att:lf}
ADMIT DT: {date:adm:num}  ROOM: {room}
""", case="upper"),
    F("hdr_dev", "header_block", "dev", """
pt name: {pt:lf}
mrn: {mrn}    dob: {date:dob:num}
addr: {street}, {city} {state:1:abbr} {zip}
tel: {phone:home} / {phone:cell}
?0.6 email: {email}
nok: {nok:full} ({nokw})
?0.6 ins: {ins} #{hp}
pcp: {dr:pcp:lf}
# note
{cc}. {plan}
?0.4 {misc}
{hpi:long}
{meds}
"""),
    F("hdr_test", "header_block", "test", """
Patient Demographics
  Full name ........ {pt:fml}
  Record ........... {mrn}
  Born ............. {date:dob:long} ({age:num})
  Residence ........ {addr:, }
  Country .......... {country}
  Home telephone ... {phone:home}
  Mobile ........... {phone:cell}
  E-mail ........... {email}
  Social security .. {ssn}
  Payer ............ {ins}, subscriber {hp}
  Billing account .. {acct}
  Contact person ... {nok:full}, {nokw}, {phone:nok}
  Primary physician  {dr:pcp:drfull}
  Occupation ....... {prof}
?0.5   Driver's license  {lic}
# Encounter
{date:visit:long}: {cc}. {plan}
?0.5 {misc}
{hpi:long}
{meds}
"""),
)
