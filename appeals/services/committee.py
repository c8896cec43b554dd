"""The event's Appeals Committee and the start of the event (VSz 9).

The director and the organisers form the committee at the start; an event that needs one does not start
without at least three members and two alternates. A member gets the event's APPEALS role with his seat,
so the one permission mechanism (roles + rules) knows him.
"""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.models import Role
from federation.permissions import forget_roles
from tournaments.models import Event

from ..models import Committee, CommitteeMember, EventStart, FederationSettings
from ..models.committee import MIN_ALTERNATES, MIN_MEMBERS


def needs_committee(event) -> bool:
    return FederationSettings.for_federation(event.federation).committee_required


def committee_of(event) -> Committee | None:
    return Committee.objects.filter(event=event).prefetch_related("members__user", "members__person").first()


def check_can_start(event):
    """Raise ValidationError when the event needs a committee and has no complete one."""
    if not needs_committee(event):
        return
    committee = committee_of(event)
    members = len(committee.regular_members()) if committee else 0
    alternates = len(committee.alternates()) if committee else 0
    if members < MIN_MEMBERS or alternates < MIN_ALTERNATES:
        raise ValidationError(
            _(
                "%(event)s cannot start without an Appeals Committee of at least %(min_members)s members and "
                "%(min_alternates)s alternates (VSz 9); it has %(members)s members and %(alternates)s alternates."
            )
            % {
                "event": event.title,
                "min_members": MIN_MEMBERS,
                "min_alternates": MIN_ALTERNATES,
                "members": members,
                "alternates": alternates,
            }
        )


def started(event) -> EventStart | None:
    return EventStart.objects.filter(event=event).first()


@transaction.atomic
def start_event(event, user) -> EventStart:
    """The director starts the event; starting twice returns the first start."""
    event = Event.objects.select_for_update(of=("self",)).select_related("federation").get(pk=event.pk)
    existing = started(event)
    if existing is not None:
        return existing
    if event.status != Event.Status.APPROVED:
        raise ValidationError(_("Only an approved event can start."))
    check_can_start(event)
    return EventStart.objects.create(event=event, started_by=user)


@transaction.atomic
def add_member(event, user, *, is_alternate=False, by=None) -> CommitteeMember:
    committee, _created = Committee.objects.get_or_create(event=event, defaults={"formed_by": by})
    if CommitteeMember.objects.filter(committee=committee, user=user).exists():
        raise ValidationError(_("%(user)s is already on the committee.") % {"user": user.email or user})
    member = CommitteeMember.objects.create(
        committee=committee,
        user=user,
        person=getattr(user, "person", None),
        is_alternate=is_alternate,
        added_by=by,
        added_at=timezone.now(),
    )
    Role.objects.get_or_create(user=user, kind=Role.APPEALS, event=event, defaults={"granted_by": by})
    forget_roles(user)
    return member


@transaction.atomic
def remove_member(member, by=None):
    """Take a member off the committee; one who has sat on a case stays (his seat is part of the record)."""
    if member.seats.exists():
        raise ValidationError(
            _("%(member)s has sat on a case and stays on the committee.") % {"member": member}
        )
    event = member.committee.event
    Role.objects.filter(user=member.user, kind=Role.APPEALS, event=event).delete()
    forget_roles(member.user)
    member.delete()
