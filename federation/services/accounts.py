"""Accounts: registration with a verified e-mail, and linking an account to a member record.

Registration answers the same whatever the address: a new address gets an inactive account and a signed
verification link; an address with an account gets a notice instead ("someone tried to register with your
address"). A member link takes effect only once confirmed, through a signed link mailed to the member
record's e-mail, or, for a record without one, by a club admin of the member's club or the federation's
staff. All mail goes through the outbox (`notifications.notify`).
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from ..models import EmailVerification, LinkRequest, Person, Role
from . import privacy
from .notifications import notify

User = get_user_model()

# The salts keep their old module path: links already mailed must keep working.
VERIFY_SALT = "federation.accounts.verify-email"
LINK_SALT = "federation.accounts.confirm-link"


# --- Registration and e-mail verification -------------------------------------------------------------


def is_unverified(user):
    verification = getattr(user, "email_verification", None)
    return verification is not None and verification.verified_at is None and not user.is_active


def _password_fingerprint(user):
    # A new password (a repeated registration replaces an unverified one) voids the links sent before.
    return salted_hmac(VERIFY_SALT, user.password).hexdigest()[:24]


def verification_token(user):
    return signing.dumps({"u": user.pk, "p": _password_fingerprint(user)}, salt=VERIFY_SALT)


def user_from_verification_token(token):
    """The unverified account the token was made for, or None (forged, expired, used or superseded)."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=settings.EMAIL_VERIFICATION_MAX_AGE)
    except signing.BadSignature:
        return None
    user = User.objects.filter(pk=data.get("u")).select_related("email_verification").first()
    if user is None or not is_unverified(user) or data.get("p") != _password_fingerprint(user):
        return None
    return user


def send_verification(user, request):
    url = request.build_absolute_uri(reverse("verify_email", args=[verification_token(user)]))
    days = settings.EMAIL_VERIFICATION_MAX_AGE // 86400
    body = _(
        "Somebody (hopefully you) registered on Versenyportál with this e-mail address.\n\n"
        "To activate the account, open this link within %(days)d days and enter the password you chose:\n"
        "%(url)s\n\n"
        "If it was not you, ignore this message: the account stays inactive."
    ) % {"url": url, "days": days}
    notify([user.email or user.username], _("Versenyportál: confirm your e-mail address"), body)


def _new_unverified_account(email, data, password):
    try:
        with transaction.atomic():
            user = User.objects.create(
                username=email,
                email=email,
                first_name=data["first_name"],
                last_name=data["last_name"],
                password=password,
                is_active=False,
            )
            EmailVerification.objects.create(user=user)
            privacy.record_consent(user)
    except IntegrityError:
        return None
    return user


def register(data, request):
    """Create (or renew) an unverified account, or tell the owner of a known address; the caller answers
    the same in every case."""
    email = data["email"]
    # Hashed in every branch, so a known address does not answer faster than a new one.
    password = make_password(data["password1"])
    with transaction.atomic():
        existing = (
            User.objects.select_for_update().filter(username__iexact=email).first()
            or User.objects.select_for_update().filter(email__iexact=email).first()
        )
        if existing is None:
            user = _new_unverified_account(email, data, password)
            if user is not None:
                send_verification(user, request)
                return
            existing = User.objects.get(username=email)  # registered at this very moment by another request
        if is_unverified(existing):
            # Not verified yet: the latest registration replaces it; only the mailbox's owner can finish it.
            existing.first_name, existing.last_name = data["first_name"], data["last_name"]
            existing.password = password
            existing.save(update_fields=["first_name", "last_name", "password"])
            EmailVerification.objects.filter(user=existing).update(created_at=timezone.now())
            privacy.record_consent(existing)
            send_verification(existing, request)
        else:
            login_url = request.build_absolute_uri(reverse("login"))
            reset_url = request.build_absolute_uri(reverse("password_reset"))
            body = _(
                "Somebody tried to register on Versenyportál with this e-mail address, but it already has "
                "an account.\n\nIf it was you, log in: %(login)s\nForgotten your password? %(reset)s\n\n"
                "If it was not you, you need not do anything: nothing was changed."
            ) % {"login": login_url, "reset": reset_url}
            notify(
                [existing.email or existing.username],
                _("Versenyportál: registration attempt with your address"),
                body,
            )


def resend_verification(email, request):
    user = User.objects.filter(username__iexact=email).select_related("email_verification").first()
    if user is not None and is_unverified(user):
        with transaction.atomic():
            send_verification(user, request)


@transaction.atomic
def verify(user):
    user = User.objects.select_for_update().get(pk=user.pk)
    user.is_active = True
    user.save(update_fields=["is_active"])
    EmailVerification.objects.filter(user=user).update(verified_at=timezone.now())
    return user


# --- Member links ---------------------------------------------------------------------------------------


def link_token(link):
    return signing.dumps(link.pk, salt=LINK_SALT)


def link_from_token(token):
    try:
        pk = signing.loads(token, salt=LINK_SALT, max_age=settings.LINK_CONFIRMATION_MAX_AGE)
    except signing.BadSignature:
        return None
    return (
        LinkRequest.objects.filter(pk=pk, status=LinkRequest.PENDING, method=LinkRequest.BY_EMAIL)
        .select_related("user", "person", "federation")
        .first()
    )


def reviewers(link):
    """E-mail addresses of who may approve a link without e-mail: the club's admins and the staff."""
    scope = Q(kind=Role.FEDERATION_STAFF, federation_id=link.federation_id)
    if link.club_id:
        scope |= Q(kind=Role.CLUB_ADMIN, club_id=link.club_id)
    return list(
        Role.objects.filter(scope).exclude(user__email="").values_list("user__email", flat=True).distinct()
    )


def request_link(user, membership, request):
    """Record a pending link of `user` to the membership's person and ask for its confirmation."""
    person = membership.person
    with transaction.atomic():
        now = timezone.now()
        LinkRequest.objects.filter(user=user, status=LinkRequest.PENDING).exclude(person=person).update(
            status=LinkRequest.SUPERSEDED, decided_at=now
        )
        link = LinkRequest.objects.filter(user=user, person=person, status=LinkRequest.PENDING).first()
        if link is None:
            link = LinkRequest.objects.create(
                user=user,
                person=person,
                federation=membership.federation,
                club=membership.club,
                method=LinkRequest.BY_EMAIL if person.email else LinkRequest.BY_APPROVAL,
            )
        names = {"account": user.email or user.username, "name": person, "number": membership.member_number}
        if link.method == LinkRequest.BY_EMAIL:
            url = request.build_absolute_uri(reverse("link_confirm", args=[link_token(link)]))
            days = settings.LINK_CONFIRMATION_MAX_AGE // 86400
            body = _(
                "The Versenyportál account %(account)s asks to act as %(name)s (member number %(number)s): "
                "to enter events and file appeals in your name.\n\n"
                "If this is your own account, confirm it within %(days)d days here:\n%(url)s\n\n"
                "If it is not yours, do not open the link (or refuse it there): nothing changes without "
                "your confirmation."
            ) % {**names, "url": url, "days": days}
            notify([person.email], _("Versenyportál: confirm the link to your member record"), body)
        else:
            url = request.build_absolute_uri(reverse("link_requests"))
            body = _(
                "The Versenyportál account %(account)s asks to act as %(name)s (member number %(number)s). "
                "The member record has no e-mail address, so a club administrator or the federation's "
                "staff decides:\n%(url)s"
            ) % {**names, "url": url}
            notify(reviewers(link), _("Versenyportál: a member link awaits approval"), body)
    return link


def confirm_link(link, by=None):
    """Make the link effective; False when it can no longer be (decided already, record or account taken)."""
    with transaction.atomic():
        link = LinkRequest.objects.select_for_update().filter(pk=link.pk, status=LinkRequest.PENDING).first()
        if link is None:
            return False
        person = Person.objects.select_for_update().get(pk=link.person_id)
        now = timezone.now()
        taken = person.user_id not in (None, link.user_id)
        if taken or Person.objects.filter(user_id=link.user_id).exclude(pk=person.pk).exists():
            link.status, link.decided_at, link.decided_by = LinkRequest.REJECTED, now, by
            link.save(update_fields=["status", "decided_at", "decided_by"])
            return False
        person.user = link.user
        if not person.email:
            person.email = link.user.email
        person.save(update_fields=["user", "email"])
        link.status, link.decided_at, link.decided_by = LinkRequest.CONFIRMED, now, by
        link.save(update_fields=["status", "decided_at", "decided_by"])
        LinkRequest.objects.filter(person=person, status=LinkRequest.PENDING).update(
            status=LinkRequest.SUPERSEDED, decided_at=now
        )
        notify(
            [link.user.email],
            _("Versenyportál: your account is linked to your member record"),
            _("Your account now acts as %(name)s.") % {"name": person},
        )
    return True


def reject_link(link, by=None):
    with transaction.atomic():
        updated = LinkRequest.objects.filter(pk=link.pk, status=LinkRequest.PENDING).update(
            status=LinkRequest.REJECTED, decided_at=timezone.now(), decided_by=by
        )
        if updated:
            notify(
                [link.user.email],
                _("Versenyportál: your member link was refused"),
                _("Your request to act as %(name)s was refused.") % {"name": link.person},
            )
    return bool(updated)


def reviewable_links(user):
    """The pending approval requests `user` may decide: of his clubs (club admin) and federations (staff)."""
    pending = LinkRequest.objects.filter(status=LinkRequest.PENDING, method=LinkRequest.BY_APPROVAL)
    if not user.is_superuser:
        roles = Role.objects.filter(user=user)
        pending = pending.filter(
            Q(federation__in=roles.filter(kind=Role.FEDERATION_STAFF).values("federation"))
            | Q(club__in=roles.filter(kind=Role.CLUB_ADMIN).values("club"))
        )
    return pending.exclude(user=user).select_related("user", "person", "federation", "club")
