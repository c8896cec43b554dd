"""Permissions of the appeals app (see federation/predicates.py for the mechanism).

Per case: the panel members of that case, its parties, the event's director, the federation's staff and its
Rules and Ethics Committee see the whole file; a committee member not on the panel, other players and the
public see a case only once it is decided (anonymised where the federation says so). `appeals.queries`
builds the same rule as a queryset for the lists.
"""

import rules

from federation.predicates import (
    event_id_of,
    is_authenticated,
    is_club_admin,
    is_disciplinary_member,
    is_ethics_member,
    is_event_director,
    is_federation_staff,
    is_superuser,
)

from .models import Appeal, CommitteeMember, PanelSeat
from .services.panel import chair


def _person(user):
    return getattr(user, "person", None) if user.is_authenticated else None


@rules.predicate
def is_case_panel_member(user, appeal):
    if not isinstance(appeal, Appeal) or not user.is_authenticated:
        return False
    return PanelSeat.objects.filter(appeal=appeal, member__user=user).exists()


@rules.predicate
def is_case_chair(user, appeal):
    """The chair of the case's panel (its first seated regular member, `services.panel.chair`)."""
    if not isinstance(appeal, Appeal) or not user.is_authenticated:
        return False
    return chair(appeal) == user.pk


@rules.predicate
def is_case_party(user, appeal):
    person = _person(user)
    if not isinstance(appeal, Appeal) or person is None:
        return False
    entries = [e for e in (appeal.entry_id, appeal.respondent_entry_id) if e]
    return person.entry_memberships.filter(entry_id__in=entries).exists()


@rules.predicate
def is_appellant(user, appeal):
    person = _person(user)
    if not isinstance(appeal, Appeal) or person is None:
        return False
    return person.entry_memberships.filter(entry_id=appeal.entry_id).exists()


@rules.predicate
def is_published_case(user, appeal):
    return isinstance(appeal, Appeal) and appeal.is_published and appeal.event.is_public


@rules.predicate
def is_committee_member(user, obj):
    """A regular or alternate member of the committee of the object's event."""

    event_id = event_id_of(obj)
    if event_id is None or not user.is_authenticated:
        return False
    return CommitteeMember.objects.filter(
        committee__event_id=event_id, user=user, left_at__isnull=True
    ).exists()


runs_event = is_superuser | is_federation_staff | is_event_director
organises_event = runs_event | is_club_admin
case_insider = runs_event | is_ethics_member | is_case_panel_member | is_case_party

rules.add_perm("appeals.view_appeal", case_insider | is_published_case)
# Names, statements, votes and attachments: never for the public, whatever the federation's setting.
rules.add_perm("appeals.view_case_file", case_insider)
rules.add_perm("appeals.file_appeal", is_authenticated)
rules.add_perm("appeals.respond_to_appeal", is_appellant)
rules.add_perm("appeals.add_attachment", case_insider)
rules.add_perm("appeals.confirm_deposit", runs_event)
rules.add_perm("appeals.form_panel", runs_event)
rules.add_perm("appeals.hear_case", is_case_panel_member)
rules.add_perm("appeals.withdraw_proposal", is_case_chair)
rules.add_perm("appeals.file_second_instance", is_case_party)
rules.add_perm("appeals.confirm_second_deposit", is_superuser | is_federation_staff | is_ethics_member)
rules.add_perm("appeals.decide_second_instance", is_superuser | is_ethics_member)

# Per event
rules.add_perm("appeals.manage_committee", organises_event)
rules.add_perm("appeals.start_event", organises_event)
rules.add_perm("appeals.run_session", runs_event)
rules.add_perm("appeals.view_event_desk", runs_event | is_committee_member)
rules.add_perm("appeals.take_measure", runs_event)
rules.add_perm("appeals.consent_to_measure", is_committee_member)
# VSz 9: a member leaves only with the director's consent (the organisers' removal is for before the start).
rules.add_perm("appeals.leave_committee", is_committee_member)
rules.add_perm("appeals.consent_to_leave", is_superuser | is_event_director)

# Per federation: the Disciplinary Committee decides "saját hatáskörében" (VSz 23), so only its members record
# its decisions; the staff, who forward the director's reports and keep the suspensions, may read them.
rules.add_perm("appeals.view_reports", is_superuser | is_federation_staff | is_disciplinary_member)
rules.add_perm("appeals.decide_discipline", is_superuser | is_disciplinary_member)
