"""A registered account without a member record asks for one; the staff's approval creates the member
(the person, the membership, the account linked to it) in one transaction."""

import re

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Federation, MemberRequest, Membership, Person, Role
from .notifications import address_of, notify

_NUMBER = re.compile(r"^([A-Za-z]*)(\d+)$")


def next_member_number(federation) -> str:
    """The federation's next number: its prefix (B for bridge, U for ulti) and one above the highest."""
    prefix = "B" if federation.game == Federation.BRIDGE else "U"
    highest = 0
    for number in Membership.objects.filter(
        federation=federation, member_number__startswith=prefix
    ).values_list("member_number", flat=True):
        match = _NUMBER.match(number)
        if match and match.group(1) == prefix:
            highest = max(highest, int(match.group(2)))
    return f"{prefix}{highest + 1}"


def approve(req, by, member_number=""):
    """Create the member of a pending request; the account acts as him at once (the staff checked it)."""
    with transaction.atomic():
        req = (
            MemberRequest.objects.select_for_update(of=("self",))
            .select_related("user", "federation", "club")
            .get(pk=req.pk)
        )
        if req.status != MemberRequest.PENDING:
            raise ValidationError(_("This request is already decided."))
        if req.club_id and req.club.federation_id != req.federation_id:
            raise ValidationError(_("The club belongs to another federation."))
        number = member_number.strip() or next_member_number(req.federation)
        if Membership.objects.filter(federation=req.federation, member_number__iexact=number).exists():
            raise ValidationError(_("The member number %(number)s is taken.") % {"number": number})
        person = Person.objects.select_for_update().filter(user=req.user).first()
        if person is None:
            person = Person.objects.create(
                first_name=req.first_name,
                last_name=req.last_name,
                birth_date=req.birth_date,
                gender=req.gender,
                email=req.user.email,
                user=req.user,
            )
        elif person.memberships.filter(federation=req.federation).exists():
            raise ValidationError(_("The account is already a member of this federation."))
        Membership.objects.create(
            person=person, federation=req.federation, member_number=number, club=req.club
        )
        req.status, req.decided_by, req.decided_at, req.person = (
            MemberRequest.APPROVED,
            by,
            timezone.now(),
            person,
        )
        req.save(update_fields=["status", "decided_by", "decided_at", "person"])
        notify(
            [address_of(req.user)],
            _("Versenyportál: your membership request was approved"),
            _("You are a member of %(federation)s with the member number %(number)s.")
            % {"federation": req.federation, "number": number},
            federation=req.federation_id,
        )
    return req


def reject(req, by):
    with transaction.atomic():
        updated = MemberRequest.objects.filter(pk=req.pk, status=MemberRequest.PENDING).update(
            status=MemberRequest.REJECTED, decided_by=by, decided_at=timezone.now()
        )
        if updated:
            notify(
                [address_of(req.user)],
                _("Versenyportál: your membership request was refused"),
                _("Your request to become a member of %(federation)s was refused.")
                % {"federation": req.federation},
                federation=req.federation_id,
            )
    return bool(updated)


def pending_for(user):
    pending = MemberRequest.objects.filter(status=MemberRequest.PENDING).select_related(
        "user", "federation", "club"
    )
    if user.is_superuser:
        return pending
    staff = Role.objects.filter(user=user, kind=Role.FEDERATION_STAFF).values("federation")
    return pending.filter(Q(federation__in=staff))
