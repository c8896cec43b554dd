"""The event's Appeals Committee and the start of the event (VSz 9).

The director and the organisers form the committee at the start; an event that needs one does not start
without at least three members and two alternates. A member gets the event's APPEALS role with his seat,
so the one permission mechanism (roles + rules) knows him.

Once the event has started a member may leave only with the director's consent (VSz 9: "csak a
tornavezető hozzájárulásával távozhatnak"): he asks (`request_leave`), the event's director consents or
refuses (`decide_leave`); on consent the first alternate steps in, so the committee keeps at least three
members, and both rows stay as the record of who served. The organisers' `remove_member` is for forming the
committee before the start only.
"""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.models import Role
from federation.predicates import forget_roles, is_event_director
from tournaments.models import Event

from ..models import Appeal, Committee, CommitteeMember, EventStart, FederationSettings, TimelineEntry
from ..models.committee import MIN_ALTERNATES, MIN_MEMBERS
from . import timeline

A = TimelineEntry.Action


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


def of_another_federation(event, user) -> bool:
    """True for a user who belongs to another federation only: his person is a member of other federations
    and not of the event's, or he holds roles of other federations and none of the event's."""
    person = getattr(user, "person", None)
    if person is not None:
        memberships = set(person.memberships.values_list("federation_id", flat=True))
        if memberships and event.federation_id not in memberships:
            return True
    federations = set(
        Role.objects.filter(user=user, federation__isnull=False).values_list("federation_id", flat=True)
    )
    return bool(federations) and event.federation_id not in federations


@transaction.atomic
def add_member(event, user, *, is_alternate=False, by=None) -> CommitteeMember:
    if not user.is_active or of_another_federation(event, user):
        raise ValidationError({"user": _("This user cannot sit on this event's committee.")})
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
    """Take a member off the committee while it is being formed; one who has sat on a case stays (his seat is
    part of the record), and after the start a member leaves only with the director's consent."""
    if started(member.committee.event) is not None:
        raise ValidationError(
            _(
                "The event has started: a committee member may leave only with the director's consent "
                "(VSz 9). The member asks to leave on the appeals desk and the director consents."
            )
        )
    if member.seats.exists():
        raise ValidationError(
            _("%(member)s has sat on a case and stays on the committee.") % {"member": member}
        )
    event = member.committee.event
    Role.objects.filter(user=member.user, kind=Role.APPEALS, event=event).delete()
    forget_roles(member.user)
    member.delete()


def _lock_member(member) -> CommitteeMember:
    return (
        CommitteeMember.objects.select_for_update(of=("self",))
        .select_related("committee__event", "user", "person")
        .get(pk=member.pk)
    )


@transaction.atomic
def request_leave(member, user, reason="", now=None) -> CommitteeMember:
    """The member asks the director's consent to leave the committee."""
    member = _lock_member(member)
    if member.user_id != user.pk:
        raise PermissionDenied
    if member.left_at is not None:
        raise ValidationError(_("You have already left this committee."))
    if member.leave_requested_at is not None:
        raise ValidationError(_("You have already asked to leave; the director has not answered yet."))
    member.leave_requested_at = now or timezone.now()
    member.leave_reason = reason.strip()[:300]
    member.save(update_fields=["leave_requested_at", "leave_reason"])
    timeline.record_committee(
        member.committee,
        A.LEAVE_ASKED,
        user,
        " - ".join(p for p in (member.name, member.leave_reason) if p),
        recipients=timeline.director_emails(member.committee.event_id),
    )
    return member


def _open_cases(member):
    return member.seats.filter(appeal__status__in=Appeal.PENDING).select_related("appeal__event")


@transaction.atomic
def decide_leave(member, user, consents: bool, now=None) -> CommitteeMember:
    """The event's director consents to (or refuses) a member's leaving; on consent an alternate steps in.

    Refused (nothing changes) when the member still sits on an undecided case, or when no alternate is left
    to keep the committee at three members.
    """
    member = _lock_member(member)
    committee = Committee.objects.select_for_update().select_related("event").get(pk=member.committee_id)
    event = committee.event
    if not (user.is_superuser or is_event_director(user, event)):
        raise PermissionDenied
    if member.left_at is not None or member.leave_requested_at is None:
        raise ValidationError(_("%(member)s has not asked to leave the committee.") % {"member": member.name})
    recipients = [member.email, *timeline.director_emails(event.pk)]
    if not consents:
        timeline.record_committee(committee, A.LEAVE_REFUSED, user, member.name, recipients=recipients)
        member.leave_requested_at = None
        member.save(update_fields=["leave_requested_at"])
        return member
    open_cases = [seat.appeal.reference for seat in _open_cases(member)]
    if open_cases:
        raise ValidationError(
            _("%(member)s sits on the panel of case %(cases)s: he leaves once it is decided.")
            % {"member": member.name, "cases": ", ".join(open_cases)}
        )
    now = now or timezone.now()
    substitute = None
    if not member.is_alternate:
        serving = CommitteeMember.objects.filter(committee=committee, left_at__isnull=True).exclude(
            pk=member.pk
        )
        regular = serving.filter(is_alternate=False).count()
        if regular < MIN_MEMBERS:
            substitute = (
                serving.filter(is_alternate=True, leave_requested_at__isnull=True)
                .order_by("added_at", "pk")
                .select_related("user", "person")
                .first()
            )
            if substitute is None:
                raise ValidationError(
                    _(
                        "No alternate is left to step in for %(member)s: the committee needs at least "
                        "%(n)s members (VSz 9)."
                    )
                    % {"member": member.name, "n": MIN_MEMBERS}
                )
    member.left_at = now
    member.leave_consented_by = user
    member.save(update_fields=["left_at", "leave_consented_by"])
    Role.objects.filter(user=member.user, kind=Role.APPEALS, event=event).delete()
    forget_roles(member.user)
    timeline.record_committee(committee, A.LEAVE_CONSENTED, user, member.name, recipients=recipients)
    if substitute is not None:
        substitute.is_alternate = False
        substitute.replaces = member
        substitute.stepped_in_at = now
        substitute.save(update_fields=["is_alternate", "replaces", "stepped_in_at"])
        timeline.record_committee(
            committee,
            A.STEPPED_IN,
            user,
            _("%(alternate)s for %(member)s") % {"alternate": substitute.name, "member": member.name},
            recipients=[substitute.email, *recipients],
        )
    return member


def history(committee):
    """The committee's membership changes, oldest first."""
    return TimelineEntry.objects.filter(committee=committee).select_related("actor").order_by("at", "pk")
