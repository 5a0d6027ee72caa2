"""Inpatient note kinds: discharge summary, admission H&P, progress, ED, operative, nursing, psychiatry."""

from __future__ import annotations

from deid_tools.corpus.templates import FamilySpec as F

FAMILIES: tuple[F, ...] = (
    # ---------------------------------------------------------------- discharge summary
    F("ds_classic", "discharge_summary", "train", """
{hosp}
DISCHARGE SUMMARY
NAME: {pt:lf} || PATIENT: {pt:lf} || Patient Name: {pt:lfc}
MRN: {mrn} || Unit No: {mrn}
?0.6 DOB: {date:dob:num} || Date of Birth: {date:dob:num}
ADMISSION DATE: {date:adm:num} || Admit Date: {date:adm:num}
DISCHARGE DATE: {date:dis:num} || Date of Discharge: {date:dis:long}
ATTENDING: {dr:att:lf} || Attending Physician: {dr:att:md}
?0.5 SERVICE: {dept}
# PRINCIPAL DIAGNOSIS: | Discharge Diagnosis:
{cc}, likely secondary to {cc}.
#* HISTORY OF PRESENT ILLNESS: | HPI:
{pt:title} is a {age:any} {sexw} with {pmh:inline} who presented to {hosp:2} on {date:adm:short} with {cc}. || {pt:full} is a {age:yearold} {sexa} who was transferred from {hosp:2} after presenting with {cc}.
{hpi}
?0.6 {He} was seen by {dr:pcp} in clinic on {date:past1} and started on {meds:inline}.
?0.5 {eponym}
#*?0.8 PAST MEDICAL HISTORY: | PMH:
{pmh}
#*?0.7 SOCIAL HISTORY: | Social History:
Lives with {his} {nokw} {nok} in {city}. || Lives alone in {city}, {state}; {nokw} {nok:full} checks in daily.
?0.7 Retired {prof}. || Works as {aprof} at {org}. || Former {prof}, quit in {date:past:year}.
?0.5 Quit smoking in {date:past:year}. || Denies tobacco, EtOH or drugs.
# HOSPITAL COURSE: | Hospital Course:
{He} was admitted to {dept} under {dr:att}. {hpi}
?0.7 {dr:con:dr} from {dept:2} was consulted on {date:op:short} and recommended {plan}
{look}
?0.5 On {wd:op} {he} developed {cc}; {labs}.
?0.4 {misc}
#?0.8 DISCHARGE MEDICATIONS: | Medications on Discharge:
{meds}
# DISPOSITION: | Discharge Disposition:
Discharged home with {nokw} {nok:first}. || Discharged to {hosp:2} for rehab. || Home with VNA services.
# FOLLOW UP: | Follow-up:
{dr:pcp:drfull} in 1-2 weeks, tel {phone:office}. || Follow up with {dr:con:md} on {date:fut:long}.
?0.5 Call {dept} clinic at {phone:clinic} with questions.
#*?0.8 REVIEW OF SYSTEMS: | ROS:
{rosl}
#*?0.6 PAST SURGICAL HISTORY: | PSH:
{psh}
#*?0.6 FAMILY HISTORY:
{fhx}
# HOSPITAL COURSE BY DAY: | Detailed Course:
{course}
{course}
#?0.8 LABS: | Pertinent Results:
{labtable}
#?0.8 DISCHARGE INSTRUCTIONS: | Patient Instructions:
{instr}
#/
{dr:att:ss}
?0.6 Dictated by: {dr:res:md} || D: {date:dis:num} T: {date:dis:num} {sig}
"""),
    F("ds_narrative", "discharge_summary", "train", """
{hosp} - Discharge Summary
Patient: {pt:full}   MRN {mrn}   Age: {age:num}
Admitted {date:adm:long}, discharged {date:dis:long}
?0.6 PCP: {dr:pcp:md}
# Brief Summary | Summary of Admission
Briefly, {pt:full} is a {age:words} {sexw} with a history of {cc} who came to the ED on {date:adm:any} complaining of {cc}. || This {age:yearold} {sexw} presented on {wd:adm} ({date:adm:short}) with {cc}.
{hpi}
?0.5 Of note, {he} was recently admitted to {hosp:2} in {date:past:my} for {cc}.
#* Problem-based Course | Course by Problem
# {cc}: {plan}
# {cc}: {look} {eponym}
?0.6 # {cc}: seen by {dept:2}, {dr:con} following; {plan}
#*?0.7 Social | Social Hx
{pt:first} lives in {city} with {his} {nokw}, {nok:full}. {He} worked as {aprof} for many years. || {He} is a {prof} at {org} and lives at home in {city}.
?0.5 Emergency contact {nok:full} ({nokw}) {phone:nok}.
#?0.8 Labs on Discharge
{labs}
# Discharge Plan | Plan
{plan}
?0.5 Follow up at {hosp} {dept} clinic on {date:fut:num} at {time}.
?0.3 {misc}
#*?0.8 ROS
{rosl}
#* PMH
{pmh}
#* Course
{course}
{course}
#?0.8 Trend
{labtable}
#?0.8 Instructions
{instr}
#/
Electronically signed by {dr:att:md} on {date:dis:num} {time}
?0.5 cc: {dr:pcp:drfull}; {dr:ref:drfull}
"""),
    F("ds_terse_dev", "discharge_summary", "dev", """
DC SUMMARY // {hosp}
{pt:lf}  #{mrn}  {age:compact}
adm {date:adm:num} dc {date:dis:num}  attg {dr:att:lf}
# DX:
{cc}
# COURSE
{age:yo} {sexa} w/ {pmh:inline} p/w {cc}. {hpi} {plan}
?0.6 seen by {dr:con:init} ({dept:2}) who rec'd {meds:inline}.
?0.5 {look}
?0.5 {eponym}
# SOCIAL
?0.6 {relw} {rel:full} visiting from {city:2}.
?0.5 Lives w/ {nokw} {nok:first} in {city}.
?0.5 Ex-{prof}.
?0.4 {misc}
# MEDS ON DC
{meds}
# F/U
{dr:pcp} {date:fut:short}. || PCP {dr:pcp:init} in 2 wks.
# ROS
{rosl}
# HOSP COURSE CONT
{course}
{course}
# LABS
{labtable}
# INSTRUCTIONS
{instr}
#/
{sig}
"""),
    F("ds_letter_test", "discharge_summary", "test", """
{hosp}
{dept} Department
Inpatient Discharge Record for {pt:fml} (record number {mrn})
Born {date:dob:long}. Stay: {date:adm:long} through {date:dis:long}.
# Reason for hospitalization
Our patient, {pt:title}, a {age:words} {sexa} previously employed as {aprof}, was brought in by {his} {nokw} ({nok:full}) because of {cc}. || {pt:full}, aged {age:num}, arrived by ambulance from home at {street} after {his} {relw} {rel:full} found {him} confused.
{hpi}
?0.5 Prior records were obtained from {hosp:2} and reviewed with {dr:con:drfull}.
# What happened during the stay
{eponym} {look}
The team led by {dr:att:drfull} managed the {cc}; {plan}
?0.5 On the evening of {date:op:long} a rapid response was called to room {room}.
?0.6 {misc}
?0.5 {misc}
# Medicines to take at home
{meds}
# Appointments after discharge
Please see {dr:pcp:drfull} within a week, office phone {phone:office}. || A visit with {dr:ref:md} is booked for {wdate:fut:long}.
?0.6 Questions: {email:dr:att} or fax {fax}.
# Other health problems
{pmh}
{psh}
# Detailed account
{course}
{course}
# Results over the stay
{labtable}
# Advice for home
{instr}
#/
Signed: {dr:att:md}
?0.5 Prepared with {rn:0:full}, case manager.
"""),
    # ---------------------------------------------------------------- admission H&P
    F("hp_standard", "admission_hp", "train", """
ADMISSION HISTORY AND PHYSICAL
{hosp} || {hosp}  {dept}
Patient: {pt:lfc} || Name: {pt:lf}
MRN: {mrn}   DOB: {date:dob:num}
Date of Admission: {date:adm:num}
?0.6 Room: {room}
# CHIEF COMPLAINT: | CC:
{cc}
# HISTORY OF PRESENT ILLNESS: | HPI:
{pt:title} is a {age:any} {sexw} with {pmh:inline} who presents with {cc}. {hpi} || {age:yo} {sexa} sent in by {dr:pcp} for {cc}. {hpi}
?0.5 {He} was evaluated at {hosp:2} on {date:recent:short} and discharged.
#*?0.8 PAST MEDICAL HISTORY:
{pmh}
#*?0.7 MEDICATIONS:
{meds}
#* ALLERGIES:
{all}
#*?0.8 SOCIAL HISTORY:
Married, lives with {nokw} {nok} in {city}. || Widowed, lives with {relw} {rel:full}. || Lives in {city}, {state}.
?0.7 Works as {aprof}. || Retired {prof} from {org}.
#*?0.6 FAMILY HISTORY:
Mother with {cc}, died at {rage}. || Father with MI at age {rage}. || Noncontributory.
# PHYSICAL EXAM:
{vitals}
{exam}
# LABS:
{labs}
# ASSESSMENT AND PLAN:
{age:yearold} {sexw} with {cc}. {plan}
?0.4 {misc}
#*?0.8 REVIEW OF SYSTEMS:
{rosl}
#*?0.7 PAST SURGICAL HISTORY:
{psh}
#?0.6 PRIOR LABS:
{labtable}
#/
{dr:res:md}, PGY-2 || {dr:res:drfull} for {dr:att:dr}
?0.5 Pager {pager}
"""),
    F("hp_admit_note", "admission_hp", "train", """
Admit Note - {dept} || Medicine Admission Note
{pt:full} ({mrn}) || Pt: {pt:full}  MRN: {mrn}
?0.5 {date:adm:long} {time}
#* ID/CC | Identification
{age:yearold} {sexw} admitted from {hosp:2} ED for {cc}. || {pt:first} is a {age:num} y.o. {sexa} here for {cc}.
# HPI
{hpi}
?0.6 Per {his} {nokw} {nok}, {he} has been more confused since {hol}. || {His} {nokw} reports symptoms since {wd:recent}.
?0.4 {eponym}
#* PMH/PSH
{pmh}
#*?0.7 Social
{He} is {aprof} at {org}; lives in {city}. || Retired {prof}, lives with {nokw}.
?0.5 Originally from {country}.
#* Exam
{vitals}
{exam}
# Data
{labs}
{look}
# A/P
{plan}
?0.5 Discussed with attending {dr:att}.
?0.3 {misc}
#* ROS
{rosl}
#* FHx
{fhx}
#* SHx
{shx}
#?0.6 Prior data
{labtable}
#/
{dr:res:md} || {sig:res}
"""),
    F("hp_dev", "admission_hp", "dev", """
H&P
pt {pt:lf}  mrn {mrn}  dob {date:dob:num}  adm {date:adm:num}
?0.6 loc: {dept} rm {room}
# S:
{age:compact} w/ {cc} x3d. {hpi}
?0.5 {nokw} {nok:first} at bedside ({phone:cell}).
# PMH:
{pmh}
# MEDS:
{meds:inline}
# SH:
?0.6 {relw} {rel:first} {rel:last} also involved in care.
{prof}, lives in {city}. || works at {org}. lives w/ {nokw}.
# O:
{vitals}
{exam}
{labs}
# A/P:
{plan}
?0.4 {misc}
# ROS:
{rosl}
# FH:
{fhx}
# PSH:
{psh}
# labs trend:
{labtable}
#/
{dr:res:init} / {dr:att:init}
"""),
    F("hp_test", "admission_hp", "test", """
{hosp} :: Inpatient Admission Evaluation
Evaluated on {wdate:adm:long}, in bed {room}
Subject: {pt:full}, {age:yrs}, {sexa}; medical record {mrn}
# Why admitted
{pt:title} arrived with {cc} after {his} {relw}, {rel:full}, called 911. || Sent over by {dr:ref:drfull} of {hosp:2} for {cc}.
{hpi}
?0.5 {He} reports symptoms started over {hol}.
# Background
{pmh}
{He} is {aprof} employed by {org} and lives at {street} in {city}. || A {prof} by training, {he} now lives with {his} {nokw} {nok:full} in {city}, {state:1:full}.
?0.5 {He} emigrated from {country} in {date:past:year}.
# Findings
{vitals}
{exam}
{labs}
{eponym}
# Impression and plan
{plan}
?0.6 Family contact: {nok:full} at {phone:cell}.
?0.6 {misc}
# Systems review
{rosl}
# Family and habits
{fhx} {shx}
# Operations in the past
{psh}
# Recent results
{labtable}
#/
Admitting physician: {dr:att:md} ({user})
"""),
    # ---------------------------------------------------------------- progress note
    F("prog_soap", "progress_note", "train", """
PROGRESS NOTE || Daily Progress Note || Medicine Progress Note
{date:visit:num} {time}
{pt:lf}  MRN {mrn} || {pt:init}  MRN {mrn} || {pt}, {mrn} || {pt:full}
# S: | Subjective:
{pt:title} feels better today. || No acute events overnight. {pt:first} slept well. || Overnight, {he} had {cc}.
?0.5 {nokw} {nok:first} at bedside, updated.
# O: | Objective:
{vitals}
{exam}
{labs}
# A/P: | Assessment/Plan:
{age:yo} {sexa}, hospital day 3. {look}
{plan}
?0.5 {eponym}
?0.3 {misc}
#?0.8 Labs trend: | Lab trend
{labtable}
#?0.8 Hospital course to date:
{course}
#/
{dr:res:md} || {dr:res:ss} || -{dr:res:init}
"""),
    F("prog_problem", "progress_note", "train", """
Hospital Day {date:visit:short} - {dept} {dr:att} team
Patient {pt:full}, room {room}
# Interval Events
{hpi}
?0.5 Case discussed with {dr:con:drfull} ({dept:2}).
# Exam
{vitals}
{exam}
# Problems
{cc}: {plan}
{cc}: {look}
?0.5 Dispo: likely to {hosp:2} rehab on {wd:fut}.
?0.4 {misc}
# Data
{labtable}
# Course to date
{course}
{hpi:long}
#/
{dr:res:md} pager {pager}
"""),
    F("prog_dev", "progress_note", "dev", """
PN {date:visit:num}
{pt:lf}
# overnight:
uneventful. || {cc} resolved. pt ambulating.
# exam:
{vitals}
{exam}
# labs:
{labs}
# a/p:
{plan}
?0.5 spoke w/ {nokw} {nok} by phone {phone:cell}.
?0.4 {misc}
# trend:
{labtable}
# course:
{course}
#/
{sig:res}
"""),
    F("prog_test", "progress_note", "test", """
Interdisciplinary progress update for {pt:fml}
Hospital: {hosp}; unit {dept}, bed {room}; date {date:visit:long}
# How the patient is doing
{pt:title} reports {cc} is improving. || Today {pt:first} says {he} wants to go home to {city}.
{hpi}
?0.5 {His} {relw} {rel:full} visited on {wd:recent} and is worried.
# Measurements
{vitals}
{labs}
{look}
# Reasoning
{eponym}
{plan}
?0.5 Will update {dr:pcp:drfull} at {phone:office}.
?0.6 {misc}
# Results by day
{labtable}
# Summary of stay so far
{course}
#/
{dr:res:drfull}, resident, for attending {dr:att:dr}
?0.5 Patient initials for the board: {pt:ini}
"""),
    # ---------------------------------------------------------------- ED note
    F("ed_physician", "ed_note", "train", """
EMERGENCY DEPARTMENT NOTE || ED Physician Documentation
{hosp} Emergency Department
Patient: {pt:lf}  MRN: {mrn}  DOB: {date:dob:num}
Arrival: {date:visit:num} {time}
# CHIEF COMPLAINT:
{cc}
# HPI:
{pt:full} is a {age:any} {sexw} who presents via EMS with {cc}. {hpi} || {age:yo} {sexa} BIBA from home ({city}) with {cc}. {hpi}
?0.5 {He} was at {loc} when symptoms began.
# PMH:
?0.5 Collateral from {relw} {rel:full}.
{pmh}
# MEDS:
{meds:inline}
# EXAM:
{vitals}
{exam}
# ED COURSE:
{look} {labs}
?0.6 Discussed with {dr:con:dr} of {dept:2} who agrees with admission.
# DISPO:
Admitted to {dept}, {dr:att} accepting. || Discharged home with {nokw}. Return precautions given.
?0.3 {misc}
#*?0.8 ROS:
{rosl}
#*?0.7 SOCIAL HISTORY:
{shx}
#?0.7 ED LABS:
{labtable}
#/
{dr:res:md}
?0.6 Attending attestation: I saw and examined the patient. {dr:att:md}
"""),
    F("ed_triage", "ed_note", "train", """
ED TRIAGE / PROVIDER NOTE
Pt: {pt:full}   Age: {age:num}   Sex: {mf}
?0.6 Acct: {acct}
Time seen: {time} on {date:visit:short}
# Triage
{cc}; {vitals}; pain 7/10. || Pt c/o {cc}. {vitals}
# History
{hpi}
?0.6 Brought in by {nokw} {nok:full}, who can be reached at {phone:cell}.
?0.5 Works as {aprof}.
# Exam
{exam}
# MDM
{look} {eponym}
{plan}
?0.3 {misc}
# ROS
{rosl}
# Results
{labtable}
{course}
#/
{dr:att:mdi} || {sig}
"""),
    F("ed_dev", "ed_note", "dev", """
ED NOTE {hosp}
{pt:lf} {age:compact} mrn {mrn}
?0.5 pcp {dr:pcp:lf}
# hpi
?0.6 hx per {relw} {rel:full} who found pt.
{cc} since {wd:recent}. {hpi}
?0.5 from {city}; {prof}.
# exam
{vitals}
{exam}
# course
{labs}
{plan}
?0.4 {misc}
# ros
{rosl}
# labs
{labtable}
#/
{dr:res:init} / {dr:att:init}
"""),
    F("ed_test", "ed_note", "test", """
Emergency visit record - {hosp}
{wdate:visit:long} at {time}
The patient, {pt:fml} (MRN {mrn}, birthdate {date:dob:long}), came in with {his} {nokw} {nok:full}.
# Story
{pt:title} says the {cc} began on {hol}. || According to {his} {relw} {rel:full}, {he} collapsed at {org} where {he} works as {aprof}.
{hpi}
?0.5 Transported from {loc} by ambulance.
# Examination and results
{vitals}
{exam}
{labs}
{eponym}
# Decision
{plan}
?0.5 Contact for follow-up: {phone:home}; {email}.
?0.6 {misc}
# Systems
{rosl}
# Earlier visits
{labtable}
#/
Seen by {dr:att:drfull}; scribe {rn:1:full}
"""),
    # ---------------------------------------------------------------- operative note
    F("op_standard", "operative_note", "train", """
OPERATIVE REPORT
{hosp}
PATIENT: {pt:lf}  MRN: {mrn}
DATE OF OPERATION: {date:op:num}
SURGEON: {dr:surg:md}
ASSISTANT: {dr:res:md}
ANESTHESIA: General, {dr:anes:dr}
# PREOPERATIVE DIAGNOSIS:
{cc}
# PROCEDURE:
Laparoscopic cholecystectomy. || Right total knee arthroplasty. || L4-L5 laminectomy and discectomy. || Exploratory laparotomy.
# INDICATIONS:
{pt:title} is a {age:any} {sexw} with {cc}. Risks, benefits and alternatives were discussed with the patient and {his} {nokw} {nok:first}.
# DESCRIPTION OF PROCEDURE:
The patient was brought to OR {room} and placed supine. After induction of general anesthesia, a Foley catheter was placed. The abdomen was prepped and draped in the usual sterile fashion. {look} EBL 50 mL. || The patient was identified in the holding area and taken to the operating room. {eponym} {look}
?0.5 Implant: {device}.
# DISPOSITION:
To PACU in stable condition. || Extubated and taken to recovery.
?0.3 {misc}
# FINDINGS:
{radf}
# POSTOPERATIVE PLAN:
{plan}
{instr}
#/
{dr:surg:ss}
?0.5 Dictated {date:op:num} {time} {sig:surg}
"""),
    F("op_brief", "operative_note", "train", """
Brief Op Note
Pt {pt:full}   {date:op:short}   {hosp}
Surgeon: {dr:surg:dr}  Asst: {dr:res:init}
?0.5 Anesthesiologist: {dr:anes:drfull}
# Pre-op Dx | Preop dx
{cc}
# Procedure
Open reduction internal fixation, left distal radius. || Cystoscopy with stent placement. || Appendectomy.
# Findings
{look} {eponym}
?0.5 Hardware lot/serial {device}.
# Specimens
Sent to pathology, accession {acc}. || None.
# Complications
None.
# Plan
{plan}
{instr}
#/
{dr:surg:md}
"""),
    F("op_dev", "operative_note", "dev", """
OP NOTE — {hosp} {dept}
{pt:lf} mrn {mrn} dos {date:op:num}
surgeon {dr:surg:lf}; anesthesia {dr:anes:lf}
# indication
{age:compact} {cc}
# procedure
{look} device {device} placed without difficulty. {eponym}
# plan
{plan}
?0.4 {misc}
# findings
{radf}
# post-op
{instr}
#/
{sig:surg}
"""),
    F("op_test", "operative_note", "test", """
Surgical procedure record, {hosp}
Performed {wdate:op:long} in operating suite {room}
Operating surgeon {dr:surg:drfull}; first assistant {dr:res:drfull}; anesthesia by {dr:anes:md}
For: {pt:fml}, {age:yrs}, record {mrn}
# Why the operation was done
{pt:title} has had {cc} since {date:past:my}. Consent was signed by the patient and witnessed by {his} {nokw} {nok:full}.
# What was done
{eponym} {look}
Implanted generator serial {device}; registration card sent to the manufacturer.
?0.5 Tissue to pathology under case {acc}.
# Afterwards
{plan}
?0.6 {misc}
# Intraoperative observations
{radf}
# Instructions
{instr}
#/
{dr:surg:ss}
"""),
    # ---------------------------------------------------------------- nursing notes (terse, lowercase)
    F("rn_shift", "nursing_note", "train", """
nursing note {date:visit:short} {time}
{pt:full}, rm {room} || pt {pt:last} #{mrn} || {pt:lf}
# neuro:
a&ox3. || alert, oriented x2, pleasant. || sedated, rass -2.
# cv:
{vitals}
# resp:
ls clear, 2l nc. || diminished bases, is encouraged.
# gi/gu:
foley draining clear yellow urine. || voiding qs, +bm.
# social:
{nokw} {nok:first} in to visit, updated on poc. || pt's {relw} {rel:full} called, ok to give info per pt.
?0.5 pt states {he} used to be {aprof}.
# plan:
cont to monitor. fall precautions. call md w/ changes.
?0.4 {look}
# skin:
intact. || stage 2 sacrum, dsg changed.
# pain:
{look}
# meds given:
{meds:inline}
#/
{rn:0:rn} || {sig:rn}
""", case="lower", noise=1.5),
    F("rn_event", "nursing_note", "train", """
rn note {pt:last} rm {room}
{time}: pt found oob, no injury. {vitals}. md {dr:res:dr} notified, no new orders.
?0.6 {nokw} {nok:full} updated by phone at {phone:cell}.
{look}
{eponym}
?0.5 pt asking about going home to {city} on {wd:fut}.
?0.3 {misc}
systems: {rosl}
meds given: {meds:inline}
#/
-- {rn:0:first} || {rn:1:rn}
""", case="lower", noise=1.5),
    F("rn_dev", "nursing_note", "dev", """
rn: pt {pt:first} {pt:last}, {age:compact}, rm {room}
# assessment
{vitals}. {look} {eponym}
# family
{nokw} here ({nok:full}), tel {phone:cell}.
# plan
cont poc. see flowsheet.
?0.4 {misc}
# systems
{rosl}
# meds
{meds:inline}
#/
{sig:rn}
""", case="lower", noise=1.8),
    F("rn_test", "nursing_note", "test", """
shift summary 7a-7p {date:visit:num}
pt {pt:lf} in bed {room}, {dept} || pt {pt:init} in bed {room}, {dept}
{vitals}. {look}
?0.5 {eponym}
{pt:first} tolerating diet, ambulated in hall x2 w/ pt.
visitor: {relw} {rel:full} (not on contact list) - pt agreed to share info.
?0.6 {nokw} {nok:first} wants call back at {phone:home}.
?0.5 pt works at {org}, worried about missing work.
?0.6 {misc}
systems reviewed: {rosl}
meds given this shift: {meds:inline}
#/
rn {rn:2:first} {sig:rn}
""", case="lower", noise=1.8),
    # ---------------------------------------------------------------- psychiatry
    F("psych_eval", "psychiatry_note", "train", """
PSYCHIATRY CONSULT NOTE || Psychiatric Evaluation
{hosp} {dept}
Patient: {pt:full}  MRN {mrn}  Date: {date:visit:num}
Requesting: {dr:att:dr}
# Reason for consult
{cc}
# History
{pt:title} is a {age:any} {sexw} with hx of depression who was brought in by {his} {nokw} {nok:full} after {he} expressed thoughts of self-harm. {hpi}
?0.5 First psychiatric hospitalization at {hosp:2} in {date:past:year}.
# Social history
{He} lives in {city} and worked as {aprof} until {date:past:my}. || Unemployed since being laid off from {org}.
?0.5 Grew up in {country}.
# Mental status exam
Appearance: disheveled. Speech: normal rate. Mood: "down". Affect: constricted. TP: linear. SI: passive, no plan. HI: none. Insight/judgment: fair.
?0.5 PHQ-9 score 19. {look}
# Assessment/Recommendations
{plan}
?0.3 {misc}
#* Past psychiatric history
Prior trials of sertraline and bupropion. No suicide attempts. || {hpi:long}
#* Substance use
{shx}
#* Family history
{fhx}
# MSE detail
{mse}
#/
{dr:psych:md}, Psychiatry || {dr:psych:ss}
"""),
    F("psych_followup", "psychiatry_note", "train", """
Outpatient Psychiatry Follow-up
{pt:lfc} || {pt:full} || {pt:init} ({pt:ini})
{date:visit:long}
# Interval history
{pt:first} reports mood "better" since last visit on {date:past1:short}. || {He} had a difficult {hol} with family.
?0.6 Conflict with {his} {relw} {rel:first} continues.
# MSE
Calm, cooperative. Mood euthymic. No SI/HI.
# Meds
{meds:inline}
?0.4 {look}
# Plan
{plan}
RTC in 4 weeks. || Next appt {date:fut:num}.
?0.3 {misc}
# MSE detail
{mse}
# Labs
{labs}
#/
{dr:psych:md}
"""),
    F("psych_dev", "psychiatry_note", "dev", """
psych f/u {date:visit:num}
{pt:lf} {age:compact}
# s:
mood low, sleep 4h. {nokw} {nok:first} worried. works as {aprof}.
# mse:
?0.6 {relw} {rel:full} called w/ collateral.
flat affect, no si/hi.
# a/p:
{plan}
?0.4 {misc}
# mse
{mse}
# hx
{hpi:long}
#/
{dr:psych:init}
"""),
    F("psych_test", "psychiatry_note", "test", """
Behavioral health intake assessment
Client: {pt:fml}   Record: {mrn}   Seen: {wdate:visit:long}
Referred by {dr:ref:drfull} ({hosp:2})
# Presenting concerns
{pt:title} describes worsening anxiety since losing {his} job at {org} in {date:past:my}. || {His} {nokw}, {nok:full}, says {he} has not left the house since {hol}.
{hpi}
# Background
Born in {country}; moved to {city}, {state:1:full}, at age {rage}. Formerly {aprof}.
?0.5 Sister-in-law {rel:full} is also in treatment, per patient.
# Status exam
Guarded, tearful. No psychosis. Denies SI today. {look}
# Formulation and plan
{plan}
?0.6 {misc}
# Detailed status
{mse}
# Substance history
{shx}
# Relatives' health
{fhx}
#/
{dr:psych:drfull}, attending psychiatrist; {user}
"""),
)
