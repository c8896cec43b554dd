"""Who judges a case. At first instance the panel: at least three committee members not involved in it
(VSz 9; Law 93); at the second, the federation's Rules and Ethics Committee less any member who is a party.

Involved means: played in the section concerned (an active entry of the event, in the appellant's division
when the event has divisions - other divisions may judge each other's cases, VSz 9), partnered or played in a
team with a party within PARTNER_LOOKBACK_DAYS before the event, or is the director who ruled. An involved
member is refused; forming the panel automatically seats an alternate in his place.
"""

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from federation.models import Role
from tournaments.models import Entry

from ..models import Appeal, CommitteeMember, PanelSeat, TimelineEntry
from . import timeline
from .common import PLAYED, lock_appeal, party_people, require_status

PANEL_SIZE = 3
# A regular partnership in the last year counts; an occasional game long ago does not.
PARTNER_LOOKBACK_DAYS = 365
A = TimelineEntry.Action


class Conflict:
    ENTRANT = "entrant"
    PARTNER = "partner"
    DIRECTOR = "director"


def conflicts(appeal, member) -> list[tuple[str, str]]:
    """Why `member` may not sit on the case: [(kind, message)], empty when impartial."""
    found = []
    person = member.person or getattr(member.user, "person", None)
    director_person = getattr(appeal.director, "person", None) if appeal.director_id else None
    if member.user_id == appeal.director_id or (
        person and director_person and person.pk == director_person.pk
    ):
        found.append(
            (Conflict.DIRECTOR, _("%(member)s is the director who ruled.") % {"member": member.name})
        )
    if person is None:
        return found
    played = Entry.objects.filter(event=appeal.event_id, status__in=PLAYED, members__person=person)
    if appeal.entry.division_id:
        played = played.filter(division_id=appeal.entry.division_id)
    if played.exists():
        found.append(
            (Conflict.ENTRANT, _("%(member)s played in the section concerned.") % {"member": member.name})
        )
    party_entries = [e for e in (appeal.entry_id, appeal.respondent_entry_id) if e]
    parties = set(Entry.objects.filter(pk__in=party_entries).values_list("members__person", flat=True)) - {
        person.pk
    }
    since = appeal.event.start_date - datetime.timedelta(days=PARTNER_LOOKBACK_DAYS)
    shared = (
        Entry.objects.filter(members__person=person, event__start_date__gte=since)
        .filter(members__person__in=parties)
        .exclude(status__in=(Entry.Status.WITHDRAWN, Entry.Status.DECLINED))
    )
    if shared.exists():
        found.append(
            (
                Conflict.PARTNER,
                _("%(member)s is a partner or team-mate of a party.") % {"member": member.name},
            )
        )
    return found


def _check_member(appeal, member):
    if member.committee.event_id != appeal.event_id:
        raise ValidationError(_("%(member)s is not on this event's committee.") % {"member": member.name})
    if member.left_at is not None:
        raise ValidationError(
            _("%(member)s left the committee with the director's consent.") % {"member": member.name}
        )
    found = conflicts(appeal, member)
    if found:
        raise ValidationError([message for _kind, message in found])


@transaction.atomic
def seat(appeal, member, by) -> PanelSeat:
    """Seat one member; refused (ValidationError naming the conflict) when he is involved in the case."""
    appeal = lock_appeal(appeal)
    require_status(appeal, Appeal.Status.LODGED, Appeal.Status.HEARING)
    if PanelSeat.objects.filter(appeal=appeal, member=member).exists():
        raise ValidationError(_("%(member)s already sits on this case.") % {"member": member.name})
    _check_member(appeal, member)
    placed = PanelSeat.objects.create(appeal=appeal, member=member, seated_by=by)
    timeline.record(appeal, A.PANEL, by, member.name)
    _open_hearing(appeal, by)
    return placed


@transaction.atomic
def form_panel(appeal, by) -> list[PanelSeat]:
    """Fill the panel to three: members first, an alternate for each involved one; refused if too few remain."""
    appeal = lock_appeal(appeal)
    require_status(appeal, Appeal.Status.LODGED, Appeal.Status.HEARING)
    seated = {s.member_id for s in PanelSeat.objects.filter(appeal=appeal)}
    candidates = CommitteeMember.objects.filter(
        committee__event=appeal.event_id, left_at__isnull=True
    ).select_related("user", "person")
    refused, chosen = [], []
    for member in sorted(candidates, key=lambda m: (m.is_alternate, m.added_at, m.pk)):
        if len(seated) + len(chosen) >= PANEL_SIZE:
            break
        if member.pk in seated:
            continue
        found = conflicts(appeal, member)
        if found:
            refused.append((member, found))
        else:
            chosen.append(member)
    if len(seated) + len(chosen) < PANEL_SIZE:
        reasons = "; ".join(message for _member, found in refused for _kind, message in found)
        raise ValidationError(
            _("Fewer than %(n)s impartial committee members are left for this case. %(reasons)s")
            % {"n": PANEL_SIZE, "reasons": reasons}
        )
    for _member, found in refused:
        timeline.record(appeal, A.PANEL_REFUSED, by, " ".join(m for _kind, m in found), mail=False)
    seats = [PanelSeat.objects.create(appeal=appeal, member=m, seated_by=by) for m in chosen]
    for member in chosen:
        timeline.record(
            appeal, A.PANEL, by, member.name + (f" ({_('alternate')})" if member.is_alternate else "")
        )
    _open_hearing(appeal, by)
    return seats


def _open_hearing(appeal, by):
    if (
        appeal.status == Appeal.Status.LODGED
        and PanelSeat.objects.filter(appeal=appeal).count() >= PANEL_SIZE
    ):
        appeal.status = Appeal.Status.HEARING
        appeal.save(update_fields=["status"])


def seated_users(appeal) -> set[int]:
    return set(PanelSeat.objects.filter(appeal=appeal).values_list("member__user_id", flat=True))


def chair(appeal) -> int | None:
    """The user id of the panel's chair: its first seated regular member (an alternate only when no regular
    member sits); None without a panel."""
    seat = (
        PanelSeat.objects.filter(appeal=appeal)
        .order_by("member__is_alternate", "pk")
        .values_list("member__user_id", flat=True)
        .first()
    )
    return seat


def ethics_voters(appeal) -> set[int]:
    """User ids of the federation's Rules and Ethics Committee who may vote on this case (not a party)."""
    parties = {p.user_id for p in party_people(appeal) if p.user_id}
    members = Role.objects.filter(kind=Role.ETHICS, federation_id=appeal.event.federation_id)
    return set(members.values_list("user_id", flat=True)) - parties
