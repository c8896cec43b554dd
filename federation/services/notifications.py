"""Queue e-mails in the outbox; a Celery task sends them after the transaction commits.

Two helpers every mail uses: `absolute_url` (links are built from settings.PORTAL_URL: a mail has no request
to take the host from) and `address_of` (the address a person reads the portal's mail at).
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.translation import gettext as _

from config.celery import enqueue_on_commit

from ..models import MailPreference, Notification, Person
from ..tasks import send_notification
from . import mail_preferences


def absolute_url(name, *args, **kwargs) -> str:
    """The full address (PORTAL_URL + path) of the URL named `name`, for links in e-mails."""
    return settings.PORTAL_URL.rstrip("/") + reverse(name, args=args or None, kwargs=kwargs or None)


def address_of(who) -> str:
    """Where mail to a person or an account goes: the account's (login) address, unless the person chose
    the member record's address on the profile page; a person without an account: the member record's."""
    if who is None:
        return ""
    if isinstance(who, Person):
        person, user = who, (who.user if who.user_id else None)
    elif isinstance(who, get_user_model()):
        user = who
        try:
            person = who.person
        except Person.DoesNotExist:
            person = None
    else:
        raise TypeError(f"address_of() takes a Person or a user, not {type(who).__name__}")
    if person is not None and person.mail_to == Person.MAIL_TO_MEMBER and person.email:
        return person.email
    if user is not None and user.email:
        return user.email
    return person.email if person is not None else ""


def addresses_of(people_or_users) -> list[str]:
    return [a for a in (address_of(w) for w in people_or_users) if a]


def unsubscribe_footer(address: str) -> str:
    url = absolute_url("mail_preferences_link", token=mail_preferences.token_for(address))
    return "\n\n-- \n" + _("Which e-mails you get from Versenyportál (unsubscribe): %(url)s") % {"url": url}


def notify(recipients, subject, body, *, federation=None, category=MailPreference.ESSENTIAL):
    """Write one outbox row per recipient address and send them once the caller's transaction commits.

    `recipients` are addresses (see address_of); `federation` (a Federation or its id): whom the mail is
    about, so that federation's staff see it on the outbox page if it cannot be sent. `category`: one of
    MailPreference.CATEGORIES; an address that unsubscribed from it gets no row. Every mail ends with the
    signed link to the address's mail preferences."""
    federation_id = getattr(federation, "pk", federation)
    created = [
        Notification.objects.create(
            recipient=address,
            subject=subject[:250],
            body=body + unsubscribe_footer(address),
            federation_id=federation_id,
        )
        for address in dict.fromkeys(r for r in recipients if r)
        if mail_preferences.wants(address, category)
    ]
    for notification in created:
        enqueue_on_commit(send_notification, notification.pk)
    return created
