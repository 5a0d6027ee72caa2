"""People and places around the patient: case management, family meetings, geriatrics with caregivers,
psychiatric collateral and home health intake.

These families carry what header-driven templates miss: relatives and neighbours by first name,
staff by first name or initials, named wards and facility abbreviations, employers, schools, churches
and agencies, professions in everyday wording, and the look-alikes that must stay unlabelled.
"""

from __future__ import annotations

from deid_tools.corpus.templates import FamilySpec as F

FAMILIES: tuple[F, ...] = (
    # ---------------------------------------------------------------- case management
    F("cm_assess", "case_management", "train", """
CASE MANAGEMENT ASSESSMENT
{pt:lf}  MRN {mrn}  {ward}, rm {room}
Date: {date:visit:num}
# Living situation:
Lives with {his} {famw:kid} {fam:kid:full} in {town}. || Lives alone in a second-floor apartment in {town:real}; {famw:nbr} {fam:nbr:title} checks in daily.
{fam:kid:firstonly} works as {ajob:k} at {emp:k} and can take time off {rwd}.
?0.6 {His} {famw:sib} {fam:sib:fi} lives in {city:2}, {state:2}.
?0.5 {la:inlaws}
# Work / supports:
{He} retired from {emp} as {ajob}. || SH: {job}, {la:languages} || Ex-{job}; attends {church}.
Services: {agency} (worker {fam:cm:full}, {phx}). || Enrolled with {agency}; {famw:cm} {fam:cm:firstonly} can be reached at {ext}.
# Plan:
Anticipate d/c to {fac} ({fabbr}) vs home with services. {la:titles}
?0.5 {la:devices}
?0.5 {misc}
#/
{staff:sw:full}, {staffw:sw} {pgr}
"""),
    F("cm_brief", "case_management", "train", """
CM note {date:visit:short} - {ward}
Pt: {pt:full}, {age:yo}  MRN {mrn}
Spoke w/ {famw:kid} ({fam:kid:possfirst} cell {phone:kid}) re: dispo. {fam:kid:firstonly} prefers {fac}; {he} was at {fabbr} last year.
{famw:nbr} {fam:nbr:full} has a key and feeds the cat. {la:pet}
Insurance {ins}; auth {idnum}. {la:relative}
Transportation via {agency} {rwd}.
?0.5 {la:scores}
{ini:rn0}
"""),
    F("cm_dev", "case_management", "dev", """
care coordination - {pt:lfc} #{mrn} dob {date:dob:num}
discussed with {famw:cm} {fam:cm:fi} from {agency} ({phx:cm}) today
pt lives w/ {famw:friend} {fam:friend:firstonly}; was a {job} at {emp} until {date:past:year}
{famw:kid} {fam:kid:caps} is HCP, lives in {town}
plan: {fac} short-term rehab, bed offered on {ward:2}
{la:any}
{ini:att}
""", noise=1.5),
    F("cm_test", "case_management", "test", """
Transitions of Care Summary, {wdate:visit:long}
Re: {ptx:lf} (MRN {mrn}), {ward}
The patient's {famw:gkid}, {fam:gkid:full}, joined by phone from {town:real}. {He} raised {fam:gkid:firstonly}, who now manages the bills.
Prior to admission {he} attended the adult day program at {agency}; {his} {famw:clergy}, {fam:clergy:title} of {church}, visits weekly.
{fam:gkid:firstonly} can be reached at {phonew}, or by e-mail at {emailx:gkid}.
Former occupation: retired {job}. Referral sent to {fac:2} ({fabbr:2}); fax {fax}.
{la:scores} {la:titles}
--{staff:sw:fi}, {staffw:sw}
"""),
    # ---------------------------------------------------------------- family meeting (discharge)
    F("fm_dc", "family_meeting", "train", """
FAMILY MEETING NOTE
{hosp}, {ward}
Date of meeting: {date:visit:long}
# Present:
{famw:kid} {fam:kid:full}, {famw:kid2} {fam:kid2:full}, {famw:interp} {fam:interp:fi}, {staff:sw:full} ({staffw:sw}), {dr:att:drfull}, {rn:0:rn}
# Discussion:
{ptx:firstonly} was admitted on {date:adm:num} with {cc}. {course}
{fam:kid:firstonly} asked about going home. {fam:kid2:possfirst} concern is that nobody is home during the day since {he} works as {ajob:2}.
?0.5 {ptx:nickpar} (as the family calls {him}) has said {he} wants no more hospital stays.
{la:scores} {la:eponyms}
# Plan:
Discharge to {fac} on {date:fut:short}. || Home with {agency} and hospice evaluation. {la:relative}
?0.4 {misc}
#/
{dr:att:md} {ini:att}
"""),
    F("fm_summary", "family_meeting", "train", """
Discharge Summary - family meeting addendum
{pt:lfc}   MRN {mrn}
Meeting held in the {ward} family room {date:recent:short}.
Family: {famw:sib} {fam:sib:caps}; {famw:kid} {fam:kid:nickq}; {famw:friend} {fam:friend:full}.
Staff: {dr:att:drfull}; {staff:chap:full}, chaplain; case manager {fam:cm:firstonly}.
{fam:kid:firstonly} is the health care proxy. {fam:sib:firstonly} lives in {country} and joined by video.
{He} is a retired {job} from {emp}. {la:languages}
Follow-up at {fabbr} clinic in 2 weeks; call {phx} with questions. {la:titles}
?0.5 {la:inlaws}
"""),
    F("fm_dev", "family_meeting", "dev", """
fam mtg {date:visit:num} - {pt:lf} {mrn}
attendees: pt, {famw:kid} {fam:kid:firstonly}, {famw:gkid} {fam:gkid:fi}, sw {staff:sw:firstonly}, {dr:att:dr}
{fam:kid:firstonly} states {ptx:firstonly} "would never want a feeding tube"
code status changed to DNR/DNI. {la:eponyms}
dispo {fac:2} ({fabbr:2}) vs home w/ {agency}
{la:relative} {la:scores}
{ini:att}
"""),
    F("fm_test", "family_meeting", "test", """
Goals of Care Conference
Held {wdate:visit:long} on {ward} for record {mrn}
Participants included the patient's {famw:sib} ({fam:sib:full}), {his} {famw:friend} {fam:friend:title}, the unit social worker {staff:sw:fi}, and {dr:att:drfull}.
{fam:sib:firstonly} explained that {ptx:firstonly} spent 30 years as {ajob} at {emp} and was proud of it.
Family will look at {fac:2} near {town:real}; {fam:sib:possfirst} number is {phonew}.
{la:devices} {la:codes}
Electronically signed {dr:att:ss}
"""),
    # ---------------------------------------------------------------- geriatrics with caregivers
    F("geri_visit", "geriatrics_note", "train", """
GERIATRICS CLINIC - {fac}
{pt:lf}  DOB {date:dob:num}  Age {age:num}  MRN {mrn}
Accompanied by {famw:kid} {fam:kid:firstonly} and {his} {famw:friend} {fam:friend:title}.
# HPI
{ptx:nickpar} is a {age:yearold} retired {job} seen for memory loss. {fam:kid:firstonly} reports {he} got lost driving to {church} {rwd}.
{la:scores} {la:eponyms}
?0.5 Celebrated {his} {bday} birthday at {fam:kid:possfirst} house in {town}.
# Social
Lives with {famw:sib} {fam:sib:firstonly}. Neighbour {fam:nbr:title} helps with groceries. {la:cars}
Receives meals from {agency}. {la:pet}
# Plan
MoCA next visit. Refer to {ward}. {la:titles}
#/
{dr:att:md}
{ini:att}
"""),
    F("geri_cg", "geriatrics_note", "train", """
Caregiver call - {dept}
{date:visit:num}
{famw:kid} {fam:kid:fi} called re: {pt:title}. {fam:kid:firstonly} is exhausted; {fam:kid2:firstonly} helps on weekends.
{He} was a {job} for {emp}. {la:devices}
Adult day at {agency} (contact {fam:cm:full}, {phone:cm}).
?0.5 {la:inlaws}
Call back {phone:kid}. {ini:rn0}
"""),
    F("geri_dev", "geriatrics_note", "dev", """
geri f/u {pt:lfc} {age:compact} mrn {mrn}
here with {famw:gkid} {fam:gkid:firstonly} & home aide {staff:hha:firstonly}
{ptx:firstonly} fell {rwd} in bathroom, no LOC. {la:scores}
hx: retired {job}, widow(er), lives at {fac}
{la:eponyms}
next visit w/ {dr:att:dr}; cm {fam:cm:fi} {ext}
"""),
    F("geri_test", "geriatrics_note", "test", """
Comprehensive Geriatric Assessment
Patient: {ptx:caps} ({age:yo}), MRN {mrn}, DOB {date:dob:long}
{ptx:firstonly} arrived with {his} {famw:kid}, {fam:kid:full}, who drove up from {town:real}.
Functional status: {la:scores} Uses a walker. {la:devices}
Social: former {job} at {emp}; member of {church}; neighbour {fam:nbr:full} has been visiting daily.
{fam:kid:firstonly} wants info on {fac:2}; contact {emailx:kid}.
{la:languages} {la:relative}
{dr:att:drfull}
"""),
    # ---------------------------------------------------------------- psychiatric collateral
    F("psy_coll", "psych_collateral", "train", """
PSYCHIATRY - COLLATERAL CONTACT
Patient: {pt:lf} ({mrn}) on {ward}
Spoke with {famw:sib} {fam:sib:full} by phone ({phone:sib}).
{fam:sib:firstonly} reports {ptx:firstonly} stopped {his} meds about a month ago and lost {his} job as {ajob} at {emp}.
?0.5 {fam:sib:firstonly} also worried about {his} {famw:friend} {fam:friend:firstonly}, who "feeds {him} ideas."
Posts on social media as {handle}. {la:scores}
{la:languages} {la:titles}
#/
{staff:psy:full}, {staffw:psy}
{ini:psy}
"""),
    F("psy_safety", "psych_collateral", "train", """
Safety Plan
Name: {ptx:caps}  Unit: {ward}
Warning signs: not sleeping, isolating. {la:relative}
People I can call: {famw:kid} {fam:kid:firstonly} {phone:kid}; {famw:friend} {fam:friend:firstonly} {phone:friend}; {fam:clergy:title} at {church}.
Places that help: {sch} track, my {famw:sib}'s house in {town}.
Professionals: {dr:psych:drfull} {phx}; crisis line. {la:scores}
?0.5 {la:pet}
{ini:psych}
"""),
    F("psy_dev", "psych_collateral", "dev", """
{pt:lf} {mrn} - collateral from {famw:kid} {fam:kid:firstonly} ({phone:kid})
per {fam:kid:firstonly}, pt has been talking to "{fam:friend:firstonly}" online, handle {handle}
pt was {ajob} until laid off by {emp}
{la:scores} {la:eponyms}
{ini:psych}
"""),
    F("psy_test", "psych_collateral", "test", """
Inpatient psychiatry, {ward} - {pt:full}, MRN {mrn}
Collateral obtained {wdate:visit:long} from the patient's {famw:gkid}, {fam:gkid:fi}, and {his} teacher at {sch}, {fam:teacher:title}.
{fam:teacher:title} described {ptx:firstonly} as withdrawn since the move from {town:real}.
Reachable through the school office at {phx}. {la:languages}
Patient's online username {portal}. {la:scores} {la:relative}
{staff:sw:fi}, {staffw:sw}
"""),
    # ---------------------------------------------------------------- home health intake
    F("hhi_intake", "home_health_intake", "train", """
{agency} - START OF CARE
Patient: {pt:lf}   SOC {date:visit:num}
Address: {street}, {town}
Referred from {fac} ({fabbr}) after stay on {ward}.
Caregiver: {famw:kid} {fam:kid:full}, cell {phone:kid}; backup {famw:nbr} {fam:nbr:firstonly}.
{la:scores} {la:eponyms}
Home: stairs x 3, {la:devices}
{He} worked as {ajob} at {emp}. {la:pet}
Visit plan: RN 2w4, PT 1w4 ({staff:pt:full}). || Aide {staff:hha:firstonly} Mon/Wed/Fri.
#/
{staff:vna:full}, RN
"""),
    F("hhi_visit", "home_health_intake", "train", """
VNA visit {date:visit:short} - {pt:lf}, MRN {mrn}
{ptx:firstonly} seen at home; {famw:sib} {fam:sib:firstonly} present.
{la:scores} {la:devices}
Pharmacy: {pharm} ({phone:pharm}). Meds reconciled. {la:titles}
Spoke with {fam:cm:full} at {agency} {ext}. {la:relative}
Next visit {rwd}. {ini:vna}
"""),
    F("hhi_dev", "home_health_intake", "dev", """
hh soc - {pt:lfc} - dob {date:dob:num} - ref from {fabbr} (mrn {mrn})
lives w/ {famw:friend} {fam:friend:firstonly} in {town}
pcp {dr:pcp:dr}; agency {agency}
{la:scores} {la:cars}
aide {staff:hha:fi}. {ini:vna}
"""),
    F("hhi_test", "home_health_intake", "test", """
Home visit narrative ({date:visit:long}), agency record {mrn}, DOB {date:dob:num}
Arrived at {ptx:possfirst} home in {town}; {his} {famw:kid}, {fam:kid:full}, let me in.
{fam:kid:firstonly} is a {job} and works nights at {emp}. {la:inlaws}
Recent discharge from {fac} (unit {ward}). {la:eponyms}
Contacts: {phonew}; {emailx:kid}. {la:relative}
{staff:vna:fi}
"""),
)
