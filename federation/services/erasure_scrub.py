"""What erasure scrubs beyond the person's record: the texts that still carry his name or address.

* the mail outbox (`Notification`): mails to him keep their date and subject line with his name replaced,
  lose his address (the recipient becomes `erased-<person id>@invalid`) and their body, and those not yet
  sent are never sent (failed, "erased"); mails to others that name him have the name and the address
  replaced;
* the audit log: his names and addresses in every row's description, changes and change text, and the
  personal fields of what his account asked for (member requests) in their logged changes;
* what the apps above federation store (convention card files...): their erasers,
  `federation.personal_data.register_eraser`.
"""

import json

from auditlog.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from ..models import MemberRequest, Notification
from ..personal_data import ERASED_TEXT, Identity
from . import mail_preferences

# The logged fields of a member request that describe the person asking.
MEMBER_REQUEST_PERSONAL = {"first_name", "last_name", "birth_date", "note"}
ERASED_MAIL_ERROR = "erased (GDPR art. 17)"


def identity_of(person, user, anonymous: str) -> Identity:
    """Who `person` (and his account `user`) is, read before the record is anonymised."""
    first_names = {person.first_name}
    last_names = {person.last_name}
    if user is not None:
        first_names.add(user.first_name)
        last_names.add(user.last_name)
    names = {f"{last} {first}" for last in last_names for first in first_names if last and first} | {
        f"{first} {last}" for last in last_names for first in first_names if last and first
    }
    addresses = {a.strip().lower() for a in (person.email,) if a and a.strip()}
    if user is not None:
        addresses |= {a.strip().lower() for a in (user.email, user.username) if a and "@" in a}
    return Identity(
        person_id=person.pk,
        user_id=getattr(user, "pk", None),
        names=frozenset(names),
        addresses=frozenset(addresses),
        # The signed payload only: the timestamp and signature differ with the moment of signing.
        tokens=frozenset(mail_preferences.token_for(a).split(":")[0] for a in addresses),
        anonymous=anonymous,
    )


def _mentioning(queryset, columns, identity: Identity, json_columns=()):
    """Rows whose `columns` contain any of his texts (the database narrows, `Identity.scrub` decides);
    `json_columns` are also searched for the texts as JSON writes them with \\u escapes (SQLite)."""
    condition = Q()
    for text in identity.texts():
        for column in columns:
            condition |= Q(**{f"{column}__icontains": text})
        escaped = json.dumps(text)[1:-1]
        for column in json_columns:
            condition |= Q(**{f"{column}__icontains": text}) | Q(**{f"{column}__icontains": escaped})
    return queryset.filter(condition) if condition else queryset.none()


def scrub_outbox(identity: Identity) -> int:
    """The outbox rows to him or naming him, scrubbed; the number of rows changed."""
    to_him = Q()
    for address in identity.addresses:
        to_him |= Q(recipient__iexact=address)
    changed = 0
    if identity.addresses:
        now = timezone.now()
        Notification.objects.filter(to_him, sent_at__isnull=True, failed_at__isnull=True).update(
            failed_at=now, last_error=ERASED_MAIL_ERROR
        )
        for mail in Notification.objects.filter(to_him):
            mail.recipient = f"erased-{identity.person_id}@invalid"
            mail.subject = identity.scrub(mail.subject)
            mail.body = ""
            mail.save(update_fields=["recipient", "subject", "body"])
            changed += 1
    for mail in _mentioning(Notification.objects.exclude(to_him), ["subject", "body"], identity):
        subject, body = identity.scrub(mail.subject), identity.scrub(mail.body)
        if (subject, body) != (mail.subject, mail.body):
            mail.subject, mail.body = subject[:250], body
            mail.save(update_fields=["subject", "body"])
            changed += 1
    return changed


def _scrub_json(value, identity: Identity):
    if value is None:
        return None
    return json.loads(identity.scrub(json.dumps(value, ensure_ascii=False)))


def scrub_audit_log(identity: Identity) -> int:
    """The audit log keeps what was done, not who the erased person was; the number of rows changed."""
    if identity.user_id is not None:
        LogEntry.objects.filter(actor_id=identity.user_id).update(actor_email="")
    changed = 0
    # The changes are JSON, searched as text (PostgreSQL keeps the accents, SQLite writes \\u escapes).
    rows = LogEntry.objects.annotate(
        changes_as_text=Cast("changes", TextField()), data_as_text=Cast("additional_data", TextField())
    )
    candidates = _mentioning(
        rows, ["object_repr", "changes_text"], identity, json_columns=["changes_as_text", "data_as_text"]
    )
    for entry in candidates:
        changed += _save_scrubbed(entry, identity)
    if identity.user_id is not None:
        # What his account asked for names him field by field (first name, last name, birth date).
        requests = MemberRequest.objects.filter(user_id=identity.user_id).values_list("pk", flat=True)
        own = LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(MemberRequest),
            object_pk__in=[str(pk) for pk in requests],
        )
        for entry in own:
            if entry.changes:
                entry.changes = {
                    field: ([ERASED_TEXT, ERASED_TEXT] if field in MEMBER_REQUEST_PERSONAL else value)
                    for field, value in entry.changes.items()
                }
            changed += _save_scrubbed(entry, identity, force=True)
    return changed


def _save_scrubbed(entry, identity: Identity, force=False) -> int:
    before = (entry.object_repr, entry.changes_text, entry.changes, entry.additional_data)
    entry.object_repr = identity.scrub(entry.object_repr)
    entry.changes_text = identity.scrub(entry.changes_text)
    entry.changes = _scrub_json(entry.changes, identity)
    entry.additional_data = _scrub_json(entry.additional_data, identity)
    if not force and before == (entry.object_repr, entry.changes_text, entry.changes, entry.additional_data):
        return 0
    entry.save(update_fields=["object_repr", "changes_text", "changes", "additional_data"])
    return 1
