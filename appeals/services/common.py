"""Small helpers every step of a case shares: who the user is, who the parties are, locking a case."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from tournaments.models import Entry, EntryMember

from ..models import Appeal

# Entries that hold a place or held one at the table: a withdrawn or declined entry played nothing.
PLAYED = (Entry.Status.ACTIVE,)


def person_of(user):
    return getattr(user, "person", None) if user is not None and user.is_authenticated else None


def require_person(user):
    person = person_of(user)
    if person is None:
        raise ValidationError(_("Link your account to your member record first."))
    return person


def lock_appeal(appeal) -> Appeal:
    """The case row, locked for the rest of the transaction: two steps on one case never interleave."""
    pk = appeal.pk if isinstance(appeal, Appeal) else appeal
    return (
        Appeal.objects.select_for_update(of=("self",))
        .select_related("event__federation", "session", "entry", "respondent_entry")
        .get(pk=pk)
    )


def require_status(appeal, *statuses, message=None):
    if appeal.status not in statuses:
        raise ValidationError(
            message
            or _("This step is not possible now: the case is %(status)s.")
            % {"status": appeal.get_status_display()}
        )


def party_people(appeal):
    """The players of the appellant and of the opponents (the parties of the case)."""
    entries = [e for e in (appeal.entry_id, appeal.respondent_entry_id) if e]
    members = EntryMember.objects.filter(entry_id__in=entries).select_related("person")
    return [m.person for m in members]


def appellant_member(appeal, user) -> EntryMember:
    person = person_of(user)
    member = appeal.entry.members.filter(person=person).first() if person else None
    if member is None:
        raise PermissionDenied
    return member
