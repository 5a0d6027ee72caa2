"""Outpatient and communication kinds: phone, referral, refill, anticoagulation, social work, clinic,
home health, e-mail threads and pediatric notes."""

from __future__ import annotations

from deid_tools.corpus.templates import FamilySpec as F

FAMILIES: tuple[F, ...] = (
    # ---------------------------------------------------------------- telephone encounter
    F("tel_std", "telephone_encounter", "train", """
TELEPHONE ENCOUNTER
{date:visit:num} {time}
Patient: {pt:lfc}  MRN: {mrn}
Caller: {pt:first} (self) || Caller: {nok:full} ({nokw}) || Caller: {relw} {rel:full}
Callback #: {phone:cell}
# Reason for call:
{cc} x 2 days. || Question about {meds:inline}.
# Advice:
Advised to go to ED if worsening. || Discussed with {dr:pcp}, ok to increase dose. Pt verbalized understanding.
?0.4 {look}
#?0.7 Active problems:
{pmh}
#?0.7 Current medications:
{meds}
#/
{rn:0:rn} || {sig:rn}
"""),
    F("tel_msg", "telephone_encounter", "train", """
Phone note - {dept}
Spoke with {pt:title} at {phone:home}. || LVM for {pt:first} at {phone:home} to call back.
{He} reports {cc} since {wd:recent}. {hpi}
?0.6 Per {dr:pcp:init}, schedule appt this week.
?0.5 {His} {nokw} {nok:first} may call on {his} behalf; verbal consent on file.
?0.3 {misc}
?0.7 Meds: {meds:inline}
?0.6 PMH: {pmh:inline}
#/
{user} {date:visit:short}
"""),
    F("tel_dev", "telephone_encounter", "dev", """
tc from pt {pt:full} re {cc}
cb {phone:cell}
?0.6 caller was {relw} {rel:full}
{hpi}
per {dr:pcp:dr}: {plan}
?0.5 {nokw} {nok:first} also on line.
?0.4 {misc}
?0.7 meds: {meds:inline}
?0.6 hx: {pmh:inline}
#/
{sig:rn} {date:visit:num}
""", noise=1.5),
    F("tel_test", "telephone_encounter", "test", """
Call documentation - {hosp} {dept}
{wdate:visit:long}, {time}
Incoming call from {relw} of patient, {rel:full}, about {pt:fml} (record {mrn}; born {date:dob:num}).
Caller reports {pt:first} has had {cc} since {hol}. {hpi}
Identity verified with date of birth and address ({street}, {city}).
Message routed to {dr:pcp:drfull}; caller can be reached at {phone:other} or {email:nok}.
?0.5 {misc}
# Medication list on file
{meds}
# Problem list
{pmh}
#/
Taken by {rn:2:full} ({user})
"""),
    # ---------------------------------------------------------------- referral letter
    F("ref_letter", "referral_letter", "train", """
{hosp}
{dept}
?0.6 {street}, {city}, {state:1:abbr} {zip}
{date:visit:long}
{dr:con:drfull}
{hosp:2}
Re: {pt:full}  DOB: {date:dob:num}
Dear Dr. {dr:con:last}, || Dear {dr:con:drfull}:
#
Thank you for seeing {pt:title}, a {age:any} {sexw} with {cc}, whom I am referring for further evaluation. {hpi}
{His} medications include {meds:inline}.
?0.5 {He} works as {aprof} and would prefer morning appointments.
?0.5 {eponym}
Please contact my office at {phone:office} or fax {fax} with your recommendations.
#
{pmh}
{labtable}
#/
Sincerely,
{dr:ref:md}
?0.5 cc: {dr:pcp:drfull}
"""),
    F("ref_form", "referral_letter", "train", """
REFERRAL REQUEST
To: {dept:2}, {hosp:2}
From: {dr:ref:md}, {dept}
Patient: {pt:lf}   DOB {date:dob:num}   MRN {mrn}
Insurance: {ins} ID {hp}
Phone: {phone:home}
Reason: {cc}; please evaluate and treat. || Reason: {look}
Urgency: routine || Urgency: within 2 weeks
?0.6 Auth #: {idnum}
?0.3 {misc}
Clinical summary: {hpi:long}
PMH: {pmh:inline}
Meds: {meds:inline}
"""),
    F("ref_dev", "referral_letter", "dev", """
{date:visit:num}
To {dr:con:drfull}, {dept:2}
re: {pt:full} (dob {date:dob:num})
Dear colleague, I'd appreciate your opinion on this {age:yo} {sexa} with {cc}. {hpi} {pmh:inline}
?0.5 pt can be reached at {phone:cell}; {nokw} {nok:first} helps with transport.
?0.4 {misc}
Thanks,
{dr:ref:md}
fax {fax}
recent labs:
{labtable}
"""),
    F("ref_test", "referral_letter", "test", """
{hosp} | {dept}
Office line {phone:office} | Fax line {fax}
{date:visit:long}
Attention: {dr:con:drfull}, {dept:2}, {hosp:2}, {city:2}, {state:2:full}
Subject: consultation for {pt:fml}, date of birth {date:dob:long}
#
I would be grateful if you could assess {pt:title} regarding {cc}. In brief, this {age:words} {sexa} ({prof}) has had symptoms since {date:past:my}. {hpi}
{eponym}
{He} lives at {street}, {city}, and {his} {nokw} {nok:full} usually accompanies {him}.
?0.6 {misc}
# Relevant results
{labtable}
{pmh}
#/
With thanks and regards,
{dr:ref:drfull}
"""),
    # ---------------------------------------------------------------- refill request (short)
    F("refill_std", "refill_request", "train", """
Refill request: {meds:inline}
Pt: {pt:lfc}  DOB {date:dob:num}
Pharmacy: CVS {city} ({phone:pharmacy})
Last seen {date:past1:num} by {dr:pcp:dr}. Approved x 90 days. {sig}
"""),
    F("refill_msg", "refill_request", "train", """
RX REFILL - {pt:full} ({mrn})
Requested by {nokw} {nok:first} via portal on {date:visit:short}.
{meds:inline}
Sent to pharmacy, fax {fax}. -- {user}
"""),
    F("refill_dev", "refill_request", "dev", """
refill req {date:visit:num} {pt:lf} dob {date:dob:num}
med: {meds:inline}
ok per {dr:pcp:init}. {sig:rn}
"""),
    F("refill_test", "refill_request", "test", """
Medication renewal for {pt:fml} (born {date:dob:long}); pharmacy called from {phone:pharmacy} on {wd:visit}.
Drug: {meds:inline}
Prescriber {dr:pcp:drfull}, DEA {lic}. Renewed by {user}.
"""),
    # ---------------------------------------------------------------- anticoagulation visit
    F("acv_std", "anticoag_visit", "train", """
ANTICOAGULATION CLINIC NOTE
{hosp} Anticoagulation Service
Patient: {pt:lfc}  MRN {mrn}  Date: {date:visit:num}
Indication: atrial fibrillation || Indication: DVT {date:past:my}
Goal INR 2.0-3.0
Today's INR: 2.4 (POC) || INR 3.6 today
Current dose: warfarin 5 mg daily except 2.5 mg on Mon/Fri.
# Assessment
No bleeding, no missed doses. Diet stable. || Recent antibiotic use ({meds:inline}).
# Plan
?0.5 {His} {relw} {rel:first} picks up the prescriptions.
Continue current dose. Recheck {date:fut:short}. || Hold x 1, then resume. Recheck on {wd:fut}.
?0.5 Spoke with {nokw} {nok} who fills the pillbox.
?0.3 {misc}
# INR history:
{inrtable}
#?0.7 Medications:
{meds}
#/
{rn:0:rn}, for {dr:pcp}
"""),
    F("acv_phone", "anticoag_visit", "train", """
Coumadin clinic - phone INR
{pt:full}, {age:compact}
INR {date:visit:short}: 1.8 (goal 2-3)
Dose increased to 7.5 mg Tues/Thurs, 5 mg other days.
Next INR {date:fut:num} at {hosp} lab.
Pt aware, called at {phone:cell}.
?0.4 {look}
Prior INRs:
{inrtable}
#/
{user}
"""),
    F("acv_dev", "anticoag_visit", "dev", """
acc f/u {date:visit:num}
{pt:lf} mrn {mrn}
inr 2.9, goal 2.5-3.5 (mechanical mvr)
no bleeding. {nokw} manages meds.
?0.6 {relw} {rel:first} drives pt.
plan: same dose, recheck {date:fut:num}.
?0.4 {misc}
{sig:rn}
inr log:
{inrtable}
"""),
    F("acv_test", "anticoag_visit", "test", """
Warfarin management encounter, {dept}, {hosp}
{pt:fml} ({mrn}), {age:yrs}; seen {date:visit:long}
Reason for therapy: mechanical aortic valve placed at {hosp:2} in {date:past:year}.
Point-of-care INR 4.1 (target 2.5-3.5). Reports extra dose taken over {hol}.
Instructions given to hold tonight's dose; next check {wdate:fut:short}.
?0.6 {misc}
?0.5 {His} {relw} {rel:full} drives {him} to appointments.
Pharmacist {rn:1:full} for {dr:pcp:drfull}
# Recent INR values
{inrtable}
# Other medicines
{meds}
"""),
    # ---------------------------------------------------------------- social work
    F("sw_assess", "social_work_note", "train", """
SOCIAL WORK ASSESSMENT
{pt:full}  MRN {mrn}  {date:visit:num}
# Reason for referral:
Discharge planning. || Concerns about safety at home.
# Assessment:
SW met with {pt:title} and {his} {nokw} {nok:full} at bedside. {pt:first} lives at {street} in {city} in a 2nd floor apartment. {He} previously worked as {aprof} at {org}. || Pt is {aprof}, currently unemployed. {He} lives with {relw} {rel:full}.
?0.5 Insurance: {ins} ({hp}).
?0.5 Pt originally from {country}, Portuguese speaking, interpreter used.
# Plan:
SW will contact {hosp:2} re: rehab bed. || Provided resources for Meals on Wheels.
?0.3 {misc}
# History:
{hpi:long}
{shx}
#/
{rn:1:full}, LICSW
?0.5 ext {phone:office:local}
"""),
    F("sw_brief", "social_work_note", "train", """
SW Progress Note {date:visit:short}
Spoke with {pt:title}'s {nokw} {nok:first} ({phone:nok}) re: placement.
Family prefers {hosp:2}; referral faxed to {fax}.
?0.5 {pt:first} agreeable.
?0.3 {misc}
Background: {hpi:long} {shx}
#/
{rn:1:first} {rn:1:last}, MSW
"""),
    F("sw_dev", "social_work_note", "dev", """
sw note - {pt:lf}
met w/ pt + {nokw} {nok:full}. pt lives alone in {city}, {state:1:abbr}. former {prof}.
barriers: transportation, finances.
?0.7 {relw} {rel:full} willing to help w/ rides.
plan: referral to {org} for rides. f/u {date:fut:short}.
?0.4 {misc}
{sig:rn}
hx: {pmh:inline}. {shx}
"""),
    F("sw_test", "social_work_note", "test", """
Psychosocial assessment by clinical social work
Client {pt:fml}, chart {mrn}, interviewed {wdate:visit:long} in room {room}
# Living situation
Resides at {street}, {city}, {state:1:full} {zip} with {his} {nokw} {nok:full}. || Rents a room at {street} in {city}; landlord is a {relw}, {rel:full}.
# Work and income
Employed part-time as {aprof} at {org}; receives SSDI. || Former {prof}; on disability since {date:past:year}.
# Supports
{His} {relw} {rel:full} ({phone:other}) is the main support.
?0.5 Came to the US from {country} in {date:past:year}.
?0.6 {misc}
# Health background
{pmh}
{shx}
#/
{rn:1:full}, LCSW
"""),
    # ---------------------------------------------------------------- clinic note with signature block
    F("clinic_std", "clinic_note", "train", """
{hosp} {dept} Clinic
Patient: {pt:full}  DOB: {date:dob:num}  MRN: {mrn}
Visit date: {date:visit:num}
PCP: {dr:pcp:md}
# CC:
{cc}
# HPI:
{pt:title} is a {age:any} {sexw} who returns for follow-up of {cc}. {hpi} || {age:yearold} {sexw} seen for {cc}. {hpi}
?0.4 {eponym}
# Medications:
?0.5 Accompanied today by {his} {relw} {rel:full}.
{meds}
# Exam:
{vitals}
{exam}
# Assessment/Plan:
{plan}
Return in 3 months. || RTC {date:fut:my}.
?0.3 {misc}
#*?0.8 ROS:
{rosl}
#*?0.7 PMH:
{pmh}
#?0.6 Recent labs:
{labtable}
#/
{dr:att:md}
{dept}
{hosp}
?0.7 Phone: {phone:office}  Fax: {fax}
?0.4 {email:dr:att}
"""),
    F("clinic_letter", "clinic_note", "train", """
Clinic Visit - {date:visit:long}
Seen with {his} {nokw}. || Seen alone.
# Subjective
{pt:first} reports {cc}. {hpi}
?0.5 {He} works as {aprof} and is under stress at {org}.
# Objective
{vitals}
{look}
# Plan
{plan}
# History
{hpi:long}
{pmh}
# Exam
{exam}
# Recent labs
{labtable}
#/
____________________
{dr:att:md}
?0.5 NPI {lic}
Attending Physician, {dept}
?0.5 pager {pager}
"""),
    F("clinic_dev", "clinic_note", "dev", """
clinic f/u {date:visit:num} - {pt:lf} ({mrn})
{age:yo} {sexa} here for {cc}. {hpi}
{vitals}
{plan}
?0.5 {eponym}
?0.4 {misc}
-----
{dr:att:md} | {dept} | {hosp}
ph {phone:office} | fx {fax}
ros: {rosl}
pmh: {pmh:inline}
{exam}
{labtable}
"""),
    F("clinic_test", "clinic_note", "test", """
Outpatient consultation summary
{pt:fml} was seen on {date:visit:long} in the {dept} practice at {hosp}.
# Background
{pt:title} ({age:words}, {sexa}) is a retired {prof} referred by {dr:ref:drfull} for {cc}. {hpi}
{eponym}
# Today
{vitals}
{exam}
# Recommendations
{plan}
?0.6 {misc}
?0.5 {misc}
# Systems review
{rosl}
# Earlier results
{labtable}
#/
Kind regards,
{dr:att:drfull}
{dept}, {hosp}
Tel {phone:office} / Fax {fax} / {email:dr:att}
"""),
    # ---------------------------------------------------------------- home health visit
    F("hh_visit", "home_health_visit", "train", """
HOME HEALTH SKILLED NURSING VISIT
Agency: {org}
Patient: {pt:lfc}   DOB {date:dob:num}
Address: {addr:, }
Visit date: {date:visit:num}  Time in {time}
# Assessment:
{vitals}. {look}
?0.5 {eponym}
Pt's {nokw} {nok:first} present during visit.
# Teaching:
?0.5 {relw} {rel:full} also present.
Reviewed {meds:inline}. Pt verbalized understanding.
# Plan:
Next visit {wd:fut}. Notify {dr:pcp} of BP readings.
?0.3 {misc}
# Systems:
{rosl}
# Meds reviewed:
{meds}
#/
{rn:0:rn}
"""),
    F("hh_pt", "home_health_visit", "train", """
Home PT Visit Note
{pt:full} - {street}, {city}
{date:visit:short}
Pt ambulated 150 ft x 2 with rolling walker. Stairs 12 steps with rail.
?0.6 {nokw} {nok:first} assisting.
Goals: safe household ambulation.
?0.3 {misc}
Vitals: {vitals}
Systems: {rosl}
#/
{rn:2:full}, PT, DPT
"""),
    F("hh_dev", "home_health_visit", "dev", """
vna visit {date:visit:num} - {pt:lf}
addr {street}, {city} {state:1:abbr}
{vitals}
?0.6 {relw} {rel:first} visiting.
wound: stage 2 sacrum 2 x 3 cm, dressing changed.
{nokw} {nok:first} at home. call {dr:pcp:dr} re: edema.
?0.4 {misc}
{sig:rn}
ros: {rosl}
meds:
{meds}
""", noise=1.5),
    F("hh_test", "home_health_visit", "test", """
Community nursing record
Visited {pt:fml} at home ({street}, {city}, {state:1:abbr} {zip}) on {wdate:visit:long}
Present: patient and {relw} {rel:full}; {nokw} {nok:full} joined by phone from {city:2}.
{vitals}
{look}
?0.5 {eponym}
Home oxygen concentrator serial {device} checked; functioning.
Car keys removed by family; vehicle (plate {plate}) parked per safety plan.
?0.5 {misc}
Reported to {dr:pcp:drfull} at {phone:office}.
{rn:0:full}, RN, {org}
Systems: {rosl}
Medications reconciled:
{meds}
"""),
    # ---------------------------------------------------------------- pasted e-mail thread
    F("email_fw", "email_thread", "train", """
From: {dr:att:full} <{email:dr:att}>
Sent: {wdate:visit:long} {time}
To: {dr:con:full}
Subject: RE: {pt:last} - {cc} || Subject: RE: {pt:init}
#
Thanks, I'll see {him} on {date:fut:short}. -{dr:att:ini}
#/
-----Original Message-----
From: {dr:con:full}
Sent: {date:recent:num} {time}
Subject: {pt:last} - {cc}
#
Hi, could you see my patient {pt:full} (MRN {mrn}), {age:yearold} with {cc}? {hpi:long} PMH {pmh:inline}. Current meds: {meds:inline}. {His} cell is {phone:cell}.
?0.5 Records from {hosp:2} attached.
?0.3 {misc}
#/
{dr:con:full}
{dept:2}
"""),
    F("email_portal", "email_thread", "train", """
Patient portal message
From: {pt:full} <{email}>
Date: {date:visit:num} {time}
Subject: question about my {cc}
#
Hi Dr. {dr:pcp:last}, I have had {cc} since {wd:recent}. Should I come in? My {nokw} {nok:first} can drive me. Thanks, {pt:first}
#/
Reply from {rn:0:full}:
Please call {phone:office} to schedule. Your recent results: {labs}. {instr}
?0.3 {misc}
"""),
    F("email_dev", "email_thread", "dev", """
> From: {nok:full} [{email:nok}]
> Sent: {date:visit:num}
> To: {dr:pcp:full}
> Re: my {nokw} {pt:first}
>
> {pt:first} has been more confused since {hol}. {hpi:long} can someone call me at {phone:nok}?
> meds: {meds:inline}
reply: called {nokw} back, appt made for {date:fut:short}. {sig:rn}
?0.4 {misc}
"""),
    F("email_test", "email_thread", "test", """
---------- Forwarded message ---------
From: {dr:ref:drfull} <{email:dr:ref}>
Date: {wdate:visit:long} at {time}
To: {dr:att:full}
Subject: Fwd: urgent - {pt:lf} || Subject: Fwd: {pt:init} - {cc}
#
Forwarding the note below regarding {pt:full}, date of birth {date:dob:num}. {He} is a {age:yearold} {prof} who was seen at {hosp:2} for {cc}.
{hpi:long}
Medications: {meds:inline}. Past history: {pmh:inline}.
{labtable}
?0.5 {His} {relw} {rel:full} can be reached at {phone:other}.
Sent from {ip} via the referral portal {url}.
?0.5 {misc}
#/
> On {date:recent:long}, {dr:con:drfull} wrote:
> Happy to see {pt:title} in {dept:2}; please have {him} call {phone:clinic}.
"""),
    # ---------------------------------------------------------------- pediatric notes with parents
    F("peds_wcc", "pediatric_note", "train", """
PEDIATRIC WELL CHILD VISIT
{hosp} Pediatrics
Patient: {pt:full}  DOB: {date:dob:num}  Age: {age}
Accompanied by: mother {nok:full} and father {nok2:full} || Accompanied by mom ({nok:first})
# Interval history:
{pt:first} is doing well. Attends {school}. || No concerns per parents. Sleeping through the night.
?0.5 Birth hx: born at {hosp:2}, Apgar 8/9, birth weight 3.4 kg.
# Development:
Meeting milestones.
# Exam:
{vitals}
Normal exam. Tanner stage 1.
# Plan:
Vaccines given today. Follow up at next well visit. || {plan}
?0.3 {misc}
# ROS:
{rosl}
# Exam detail:
{exam}
#/
{dr:pcp:md}
""", pediatric=True),
    F("peds_sick", "pediatric_note", "train", """
Peds Sick Visit {date:visit:num}
{pt:lf} ({mrn})
{age} {sexw} brought in by {nokw} {nok:first} for {cc} x 2 days. || {pt:first} brought by dad {nok2:full} for fever.
Mother's cell {phone:cell}; father works as {aprof}.
{vitals}
Amoxicillin 45 mg/kg/day divided bid x 10 days. Ibuprofen 10 mg/kg q6h prn.
?0.5 School note for {school} provided.
?0.3 {misc}
ROS: {rosl}
Exam: {exam}
#/
{dr:pcp:mdi}
""", pediatric=True),
    F("peds_dev", "pediatric_note", "dev", """
peds f/u - {pt:full}, {age}, dob {date:dob:num}
w/ mom {nok:full} + dad {nok2:first}
{cc}. {vitals}
?0.6 {relw} {rel:full} babysits.
dad is {aprof} at {org}.
?0.5 daycare: {school}.
{plan}
?0.4 {misc}
{dr:pcp:init}
{rosl}
{exam}
""", pediatric=True),
    F("peds_test", "pediatric_note", "test", """
Child health consultation, {hosp} {dept}
Child: {pt:fml}; born {date:dob:long}; now {age}
Parents: {nok:full} (mother, {prof}) and {nok2:full} (father, {prof:2})
# Concern
Parents report {cc} since {hol}. {relw} {rel:full} cares for {him} after school at {school}.
{vitals}
Down syndrome screening previously negative. Apgar scores 9 and 9 at birth.
# Plan
{plan}
Parents may reach the practice at {phone:office} or {email:dr:pcp}.
?0.6 {misc}
# Systems
{rosl}
# Examination
{exam}
#/
{dr:pcp:drfull}, pediatrician
""", pediatric=True),
)
