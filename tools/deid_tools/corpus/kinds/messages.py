"""Messages and short records: telephone triage, patient portal threads, lowercase nursing flowsheets,
pediatric visits with parents and siblings, and lab call-back comments.

Contacts here are often written to dodge patterns (spelled-out digits, ``name at example dot com``,
handles, extensions, pagers); staff sign with first names or initials.
"""

from __future__ import annotations

from deid_tools.corpus.templates import FamilySpec as F

FAMILIES: tuple[F, ...] = (
    # ---------------------------------------------------------------- telephone triage
    F("tri_call", "phone_triage", "train", """
TRIAGE CALL {date:visit:num} {time}
Patient: {pt:lf}  MRN {mrn}  DOB {date:dob:num}
Caller: {famw:kid} {fam:kid:full}
Callback: {phonew} || Callback: {phx}
{fam:kid:firstonly} says {ptx:firstonly} has had {cc}, worse {rwd}. {la:scores}
?0.5 {la:eponyms}
Advised ED at {fabbr} if worse. || Appointment made with {dr:pcp:dr} at {fac}.
?0.4 {misc}
#/
{rn:1:first} RN {ext}
"""),
    F("tri_msg", "phone_triage", "train", """
Message taken by {staff:phleb:firstonly} at front desk
Pt {pt:lfc} called from work ({emp}, {phx}). {He} is {ajob} there and can't call back after 3.
{la:relative} {la:scores}
Also spoke to {his} {famw:friend} {fam:friend:firstonly} who drives {him}.
Routed to {rn:0:full} - {ini:rn0}
"""),
    F("tri_dev", "phone_triage", "dev", """
tc {date:visit:short} re {pt:lf} ({mrn}) - {famw:sib} {fam:sib:fi} calling for pt
cb # {phonew}
{ptx:firstonly} w/ {cc}, {la:scores}
pt is a {job}; lives in {town}
d/w {dr:pcp:dr}, ok to wait for appt {rwd}
{ini:rn1}
"""),
    F("tri_test", "phone_triage", "test", """
After-hours answering service relay
Caller identified herself as {fam:nbr:title}, the patient's {famw:nbr}, phoning about {ptx:full} (MRN {mrn}, born {date:dob:long}).
She reached us at {phx} and left her number as {phonew}.
Reported that {ptx:firstonly} missed {his} shift as {ajob} at {emp} and was found confused. {la:relative}
On-call {dr:cov:drfull} paged ({pgr}); advised EMS to {fac}. {la:eponyms}
"""),
    # ---------------------------------------------------------------- patient portal thread
    F("portal_msg", "portal_thread", "train", """
MyChart message from {ptx:full} ({portal})
Sent {date:visit:num} {time}
#
Hi {dr:pcp:firstonly}, || Dear Dr. {dr:pcp:last},
{ptx:firstonly} here. My {famw:kid} {fam:kid:firstonly} says I should ask about my {cc}. {la:scores} {la:relative}
You can also text {fam:kid:firstonly} at {phonew} or email {emailx:kid}.
Thanks, {ptx:nickonly}
#/
Reply - {rn:0:first}, RN ({ext}):
Thanks {ptx:firstonly}, {dr:pcp:dr} reviewed. {instr}
"""),
    F("portal_fwd", "portal_thread", "train", """
From: {fam:kid:full} <{emailx:kid}>
To: {fac} patient line
Subject: my {famw:gp} {ptx:caps}
#
Hello, I'm writing for my grandparent {ptx:full}. {He} lives with my {famw:sib} {fam:sib:firstonly} in {town}. {la:inlaws}
{He} was a {job} until {date:past:year}. {la:eponyms}
I'm on Instagram as {handle:kid} if easier. Best, {fam:kid:firstonly}
#/
-- routed by {staff:phleb:fi} to {ward}
"""),
    F("portal_dev", "portal_thread", "dev", """
portal msg from pt {ptx:lf} (user {portal}, mrn {mrn})
> hi, this is {ptx:firstonly}. {fam:kid:possfirst} phone died so use {phonew}. my email is {emailx}
> {la:scores}
reply {rn:1:first} {ext}: {dr:pcp:dr} will call {rwd}
"""),
    F("portal_test", "portal_thread", "test", """
Secure message thread - {pt:full}, patient account {portal}
Original message, {wdate:visit:long}:
"Good morning. My {famw:nbr} {fam:nbr:full} brought me home from {fabbr} yesterday. The nurse there, {staff:vna:firstonly}, said to write. I used to be {ajob} so I know my way around forms. Reach me at {emailx} or on {phonew}."
Response from {dr:pcp:drfull}: {instr} {la:relative}
"""),
    # ---------------------------------------------------------------- nursing flowsheet (lowercase)
    F("fs_shift", "nursing_flowsheet", "train", """
{date:visit:num} 0700-1900 {ward} rm {room}
pt: {ptx:lf}  mrn {mrn}
{vitals}
{la:scores}
neuro: a&o x3. {la:eponyms}
safety: {la:eponyms} bed alarm on.
family: {famw:kid} {fam:kid:firstonly} at bedside, {famw:sib} {fam:sib:full} called ({phone:sib}).
?0.5 {fam:kid:firstonly} asking for {staff:sw:firstonly} from sw.
?0.5 {la:devices}
{ini:rn0}
""", case="lower"),
    F("fs_event", "nursing_flowsheet", "train", """
{pt:lf} {mrn}
{time} pt found sitting on floor {ward} rm {room}. {la:scores}
notified {dr:res:fi}, {rn:1:first} charge rn. {la:eponyms}
{famw:kid} {fam:kid:split} notified at {phonew}.
{la:devices} {la:relative}
{ini:rn1}
""", case="lower"),
    F("fs_dev", "nursing_flowsheet", "dev", """
{date:visit:short} nights {ward} - {pt:lf} #{mrn}
{ptx:firstonly} slept well. {la:scores}
{fam:friend:full} ({famw:friend}) visited, left {phone:friend}
{la:eponyms} {la:devices}
{ini:rn2}
""", case="lower"),
    F("fs_test", "nursing_flowsheet", "test", """
flowsheet comment - {ward} - {date:visit:num} - mrn {mrn}
{ptx:full} requesting {famw:sib} {fam:sib:firstonly}; {fam:sib:firstonly} reached at {phx}.
{la:scores} {la:eponyms} {la:codes}
handed off to {rn:2:first} at 1900. {ini:rn0}
""", case="lower"),
    # ---------------------------------------------------------------- pediatrics with parents and siblings
    F("pf_wcc", "peds_family", "train", """
PEDIATRIC VISIT - {ptx:full}, {age}  MRN {mrn}  DOB {date:dob:num}
Accompanied by {nokw} {nokx:full:0} and {famw:sib} {fam:sib:firstonly}.
{ptx:firstonly} attends {sch}; teacher {fam:teacher:title} reports trouble focusing. {la:scores}
{nokx:firstonly:0} works as {ajob} at {emp}; {nok2w} {nokx:firstonly:1} is a {job:2}.
?0.5 {fam:sib2:firstonly} (little sibling) has had the same cough. {la:pet}
{la:languages}
Follow up with {dr:att:dr}. || Referral to {ward} developmental clinic.
{ini:att}
""", pediatric=True),
    F("pf_sick", "peds_family", "train", """
Sick visit {date:visit:short} - {pt:lfc} ({mrn})
{ptx:firstonly} is a {age:yearold} brought by {famw:gp} {fam:gp:firstonly} while {nokx:firstonly:0} is at work.
{fam:sib:possfirst} school, {sch}, had a strep outbreak. {la:scores}
Mom's cell {phone:cell}; dad {nokx:firstonly:1} {phonew}. {la:relative}
Daycare: {agency}. {la:eponyms}
{dr:att:md}
""", pediatric=True),
    F("pf_dev", "peds_family", "dev", """
peds f/u - {ptx:firstonly} {pt:last} mrn {mrn} dob {date:dob:num}
here w/ mom {nokx:firstonly:0}, sibs {fam:sib:firstonly} and {fam:sib2:firstonly}
school: {sch}. {la:scores}
dad is a {job} in {town}
{ini:att}
""", pediatric=True),
    F("pf_test", "peds_family", "test", """
Pediatric Clinic Note ({fac}) - MRN {mrn}
{ptx:nickq} presents with {his} {nokw}, {nokx:full:0}, and older {famw:sib} {fam:sib:firstonly}.
Both parents: {nokx:firstonly:0} is {ajob}; {nokx:firstonly:1} commutes to {town:real}. {la:languages}
{ptx:firstonly} is in 3rd grade at {sch}. {la:scores} {la:relative}
{dr:att:drfull}
""", pediatric=True),
    # ---------------------------------------------------------------- lab call-back comments
    F("lab_cb", "lab_callback", "train", """
{pt:lf} ({mrn}): critical value K 6.8. Called to {rn:0:fi}, RN on {ward} at {time}, read back. {staff:phleb:firstonly} {ext}
"""),
    F("lab_cb2", "lab_callback", "train", """
Specimen for {pt:lfc} hemolyzed; recollect requested. Notified {staff:vna:full} ({agency}) at {phx}. {ini:phleb}
"""),
    F("lab_cb_dev", "lab_callback", "dev", """
{pt:lf} {mrn} crit trop called to {dr:res:fi} {pgr} by {staff:phleb:firstonly}; sent from {fabbr}
"""),
    F("lab_cb_test", "lab_callback", "test", """
Result for {ptx:caps} (MRN {mrn}) phoned to {staff:vna:firstonly} at {fac} ({phx}); verbal read-back obtained by {ini:phleb}. {la:codes}
"""),
)
