"""Forms, rosters and threads: column layouts, staff named after their role, e-mail headers.

These families carry shapes the prose families rarely produce: fields laid out in columns with wide
gaps (``Patient: DOE, JANE A      MRN 123``), where a name or place ends at the gap and the next field's
label is not part of it; staff named right after a role word or a field label (``Pharmacist: ...``,
``SW ...``, ``wound care nurse ...``) and typed DOCTOR; e-mail thread headers (``From:``/``To:``) and
first-name sign-offs; police officers and other third parties by title and surname; sign-off initials
after a credential and a gap at the end of a line; weekdays written with their date; and organisations
with heads the prose families do not use (co-ops, mutual insurers, imaging centres, associates).
"""

from __future__ import annotations

from deid_tools.corpus.templates import FamilySpec as F

FAMILIES: tuple[F, ...] = (
    # ---------------------------------------------------------------- registration / face sheets
    F("form_face", "form", "train", """
{hosp}      {ward}
Patient: {pt:lf}      MRN {mrn}      DOB {date:dob:num}
Age {age:num}      Sex {mf}      Acct {acct}
Address: {street}      {city}, {state:1:abbr} {zip}
Phone {phone}      Alt {phonew:kid}
Emergency contact: {fam:kid:full} ({famw:kid})      Cell {phone:kid}
Referring: {dr:ref:drfull}      PCP: {dr:pcp:md}
Insurance: {ins}      Member ID {hp}
Employer: {emp}      Occupation: {job}
#/
Registered by {staff:phleb:full}      {date:visit:num} {time}
"""),
    F("form_roster", "form", "train", """
{dept}      {date:visit:long}
Patient: {pt:lfc}      MRN {mrn}
Attending: {dr:att:md}      Resident: {dr:res:drfull}
Pharmacist: {staff:pharm:full}, PharmD      Tech: {staff:phleb:full}, CPhT
SW {staff:sw:full}; PT {staff:pt:full}; OT {staff:ot:firstonly}; chaplain {staff:chap:full}.
Wound care nurse {staff:vna:full}, CWOCN to co-visit {rwd}. || Dietitian {staff:diet:full} following; {la:scores}
{la:labs} {la:cars}
?0.5 Officer {fam:cop:last} of the {town} Police Department at bedside. || Trooper {fam:cop:last} took the report.
#/
{rn:0:full}, RN      {ini:rn0}
"""),
    F("form_student", "form", "train", pediatric=True, text="""
{sch}      Health Office {phone}      fax {fax}
Student: {pt:lf}      Grade {la:grade}      Age {age:num}      DOB {date:dob:num}
Parent/guardian: {fam:gp:full}      Cell {phonew:gp}
Incident date {wdate:visit:num}      Reported by {fam:teacher:title} ({famw:teacher})
{ptx:firstonly} {la:relative} {la:scores}
Plan: back to class; {famw:gp} {fam:gp:firstonly} notified at {time}.
#/
{staff:vna:full}, BSN, RN, school nurse      {ini:vna}
"""),
    F("form_transport", "form", "train", """
{agency}      PCR # {idnum}      Date {date:visit:num}
Crew: {staff:hha:full}, Paramedic (cert # {lic}); {staff:phleb:full}, EMT
From: {fac}      To: {hosp}, {dept}
Pt: {pt:lf}      {age:compact}      DOB {date:dob:num}
Contact: {famw:kid} {fam:kid:full}, {phonew:kid}; will meet at {fabbr} main lobby.
Property (wallet, phone) handed to {fabbr} security officer {fam:guard:firstonly}.
{la:labs} {la:codes}
"""),
    # ---------------------------------------------------------------- e-mail threads
    F("mail_thread", "form", "train", """
SECURE MESSAGE THREAD - filed to chart
From: {ptx:full}
Sent: {wdate:visit:num} {time}
To: {dr:pcp:drfull} / {dept} nurse pool
Subject: {ptx:possfirst} refill
#/
{dr:pcp:firstonly}, my {famw:kid} {fam:kid:firstonly} will be away {rwd}. {la:relative} You can reach {fam:kid:firstonly} at {emailx:kid}.
- {ptx:nickonly}
#/
From: {rn:0:full}
Date: {date:visit:num} {time}
Thanks {ptx:firstonly}. {instr} {la:scores}
{rn:0:first}
"""),
    F("mail_referral", "form", "train", """
From: {staff:sw:full}
To: {fam:cm:full} <{email}>
Date: {wdate:recent:long}
Re: referral for {pt:full} ({age:yearold})
#/
{fam:cm:firstonly}, I am referring our patient to the {agency} program. {He} was staying at {fac} and works for {emp}; {la:cars}
Best reach is {phonew}; {he} also checks e-mail at the library: {emailx}.
Thanks, {staff:sw:firstonly}
"""),
    # ---------------------------------------------------------------- dialysis / infusion flowsheet
    F("form_chair", "form", "train", """
{fac}      Chair {la:chair}      {wdate:visit:num}
Patient: {pt:lf}      MRN {mrn}
Nephrologist: {dr:att:drfull}      RN: {rn:0:full}
{la:labs} {la:devices}
Transport by {agency}; pick-up {wdate:fut:short} {time}, confirmation {idnum}.
{His} {famw:sib} {fam:sib:full} in {town} calls every {la:weekday}.
#/
{rn:1:full}, RN      {ini:rn1}
"""),
    # ---------------------------------------------------------------- dev / test
    F("form_dev", "form", "dev", """
{hosp}   {ward}   bed {room}
Name: {pt:lf}      MR# {mrn}      {age:compact}
Contact: {fam:kid:full} ({famw:kid}) {phonew:kid}
PCP {dr:pcp:md}      Payer {ins}
SW {staff:sw:full} to call {agency}. {la:labs}
{rn:0:full}, LPN      {ini:rn0}
"""),
    F("form_test", "form", "test", """
Intake sheet - {dept}      {wdate:visit:num}
Client: {pt:lfc}      Chart {mrn}      born {date:dob:num}
Lives: {street}, {city}      Work: {job} at {emp}
Next of kin: {fam:sib:full}      {phonew:sib}
Clinician: {staff:psy:full}, PsyD      Supervisor: {dr:att:drfull}
{la:cars} {la:labs}
"""),
)
