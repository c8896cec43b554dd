"""The e-mails of entries and calendar changes, written to the outbox in the caller's transaction.

Texts are in the portal's language (Hungarian) whatever language the acting user browses in.
"""

from django.conf import settings
from django.utils import formats, translation
from django.utils.translation import gettext as _

from federation.models import MailPreference, Role
from federation.services.notifications import absolute_url, address_of, addresses_of, notify

from ..models import Entry, EntryMember
from .payments import confirmation_text

_url = absolute_url


def _date(value):
    return formats.date_format(value, "Y. m. d.")


def _send(members, subject, body, *, event):
    recipients = addresses_of(m.person for m in members)
    if recipients:
        notify(recipients, subject, body, federation=event.federation_id, category=MailPreference.ENTRIES)


def _context(entry):
    event = entry.event
    return {
        "event": event.title,
        "date": _date(event.start_date),
        "entry": entry.display_name,
        "url": _url("event_detail", event.pk),
        "my_entries": _url("my_entries"),
    }


def entry_received(entry, members):
    """To every player of a new entry; a partner who must confirm gets the request instead."""
    with translation.override(settings.LANGUAGE_CODE):
        ctx = _context(entry)
        if entry.status == Entry.Status.WAITING:
            state = _("The event is full: your entry is number %(pos)s on the waiting list.") % {
                "pos": entry.waiting_position()
            }
        else:
            state = _("Your entry holds a place.")
        confirmed = [m for m in members if m.confirmed_at]
        pending = [m for m in members if not m.confirmed_at]
        fee = confirmation_text(entry) if entry.status == Entry.Status.ACTIVE else ""
        _send(
            confirmed,
            _("Entry received: %(event)s") % ctx,
            _("Entry received for %(event)s (%(date)s): %(entry)s.") % ctx
            + "\n"
            + state
            + ("\n" + fee if fee else "")
            + "\n"
            + ctx["url"],
            event=entry.event,
        )
        if pending:
            _send(
                pending,
                _("Please confirm your entry: %(event)s") % ctx,
                _(
                    "%(entry)s were entered for %(event)s (%(date)s). The entry is pending until you confirm "
                    "it on your entries page: %(my_entries)s"
                )
                % ctx
                + "\n"
                + state,
                event=entry.event,
            )


def entry_confirmed(entry):
    with translation.override(settings.LANGUAGE_CODE):
        ctx = _context(entry)
        _send(
            entry.members.all(),
            _("Entry confirmed: %(event)s") % ctx,
            _("Every player confirmed the entry %(entry)s for %(event)s (%(date)s).") % ctx
            + "\n"
            + (confirmation_text(entry) + "\n" if entry.status == Entry.Status.ACTIVE else "")
            + ctx["url"],
            event=entry.event,
        )


def entry_declined(entry, declined_by):
    with translation.override(settings.LANGUAGE_CODE):
        ctx = {**_context(entry), "who": declined_by.full_name}
        _send(
            entry.members.exclude(person=declined_by),
            _("Entry declined: %(event)s") % ctx,
            _("%(who)s declined the entry %(entry)s for %(event)s (%(date)s); the entry is void.") % ctx
            + "\n"
            + ctx["url"],
            event=entry.event,
        )


def entry_withdrawn(entry):
    with translation.override(settings.LANGUAGE_CODE):
        ctx = _context(entry)
        extra = (
            _("No fee is owed: the entry was moved to another division (VSz 5).") if entry.fee_waived else ""
        )
        if entry.withdrawn_during_play:
            extra = _("Recorded as a withdrawal during play (VSz 25).")
        _send(
            entry.members.all(),
            _("Entry withdrawn: %(event)s") % ctx,
            _("The entry %(entry)s for %(event)s (%(date)s) was withdrawn.") % ctx
            + ("\n" + extra if extra else "")
            + "\n"
            + ctx["url"],
            event=entry.event,
        )


def promoted(entry):
    with translation.override(settings.LANGUAGE_CODE):
        ctx = _context(entry)
        _send(
            entry.members.all(),
            _("You got a place: %(event)s") % ctx,
            _(
                "A place opened up in %(event)s (%(date)s): the entry %(entry)s moved from the waiting list into the field."
            )
            % ctx
            + "\n"
            + ctx["url"],
            event=entry.event,
        )


def division_changed(entry, old, new):
    with translation.override(settings.LANGUAGE_CODE):
        ctx = {**_context(entry), "old": str(old or "-"), "new": str(new)}
        _send(
            entry.members.all(),
            _("Division changed: %(event)s") % ctx,
            _(
                "The organiser moved the entry %(entry)s of %(event)s (%(date)s) from the %(old)s division to the "
                "%(new)s division. You may withdraw the entry without owing the fee (VSz 5): %(my_entries)s"
            )
            % ctx,
            event=entry.event,
        )


def _open_members(event):
    return EntryMember.objects.filter(
        entry__event=event, entry__status__in=[Entry.Status.ACTIVE, Entry.Status.WAITING]
    ).select_related("person__user")


def event_moved(event, old_start, reason):
    with translation.override(settings.LANGUAGE_CODE):
        ctx = {
            "event": event.title,
            "old": _date(old_start),
            "new": _date(event.start_date),
            "reason": reason,
            "url": _url("event_detail", event.pk),
        }
        _send(
            _open_members(event),
            _("Date changed: %(event)s") % ctx,
            _("The federation moved %(event)s from %(old)s to %(new)s.\nReason: %(reason)s\n%(url)s") % ctx,
            event=event,
        )


def event_cancelled(event, reason):
    with translation.override(settings.LANGUAGE_CODE):
        ctx = {"event": event.title, "date": _date(event.start_date), "reason": reason}
        _send(
            _open_members(event),
            _("Event cancelled: %(event)s") % ctx,
            _("%(event)s (%(date)s) is cancelled; your entry is void and owes no fee.\nReason: %(reason)s")
            % ctx
            + "\n"
            + _url("event_detail", event.pk),
            event=event,
        )


def director_released(event, director, reason):
    """A qualification ended: the organiser and the federation's staff must name a new director; the
    director hears he no longer directs the event."""
    _director_changed(
        event,
        director,
        reason,
        lambda ctx: (
            _("Director released: %(event)s") % ctx,
            _(
                "%(director)s no longer directs %(event)s (%(date)s).\n%(reason)s\n"
                "Until a new director is named from the register, the event has no director (VSz 9).\n%(url)s"
            )
            % ctx,
            _("You no longer direct %(event)s (%(date)s).\n%(reason)s\n%(url)s") % ctx,
        ),
    )


def director_given_back(event, director, reason):
    """A qualification covers again an event it was released from: the organiser and the federation's staff
    hear the event has its director back, and the director that he directs it again."""
    _director_changed(
        event,
        director,
        reason,
        lambda ctx: (
            _("Director back: %(event)s") % ctx,
            _("%(director)s directs %(event)s (%(date)s) again.\n%(reason)s\n%(url)s") % ctx,
            _("You direct %(event)s (%(date)s) again.\n%(reason)s\n%(url)s") % ctx,
        ),
    )


def _director_changed(event, director, reason, words):
    """The organiser, the club and the federation's staff get one mail, the director his own; `words(ctx)`
    gives (subject, their body, his body), worded in the portal's language."""
    with translation.override(settings.LANGUAGE_CODE):
        ctx = {
            "event": event.title,
            "date": _date(event.start_date),
            "director": director.full_name,
            "reason": reason,
            "url": _url("event_detail", event.pk),
        }
        subject, body, own = words(ctx)
        staff = Role.objects.filter(kind=Role.FEDERATION_STAFF, federation_id=event.federation_id)
        organisers = [address_of(event.created_by)]
        if event.club_id and event.club.email:
            organisers.append(event.club.email)
        notify(
            organisers + addresses_of(r.user for r in staff.select_related("user")),
            subject,
            body,
            federation=event.federation_id,
            category=MailPreference.EVENTS,
        )
        notify(addresses_of([director]), subject, own, federation=event.federation_id)


def replacement_asked(change):
    """To the newcomer: he is asked to take a place in the entry."""
    entry = change.entry
    with translation.override(settings.LANGUAGE_CODE):
        ctx = {**_context(entry), "old": change.old_person.full_name}
        recipients = addresses_of([change.new_person])
        if recipients:
            notify(
                recipients,
                _("You are asked to play: %(event)s") % ctx,
                _(
                    "You are asked to play in %(old)s's place in the entry %(entry)s for %(event)s (%(date)s). "
                    "Accept or decline it on your entries page: %(my_entries)s"
                )
                % ctx,
                federation=entry.event.federation_id,
            )


def replacement_decided(change):
    """To the entry's players (the one replaced included): the newcomer accepted or declined."""
    entry = change.entry
    with translation.override(settings.LANGUAGE_CODE):
        ctx = {**_context(entry), "old": change.old_person.full_name, "new": change.new_person.full_name}
        if change.status == change.Status.ACCEPTED:
            subject = _("Player replaced: %(event)s") % ctx
            body = _("%(new)s took %(old)s's place in the entry %(entry)s for %(event)s (%(date)s).") % ctx
            people = [m.person for m in entry.members.all()] + [change.old_person]
        else:
            subject = _("Replacement declined: %(event)s") % ctx
            body = (
                _("%(new)s declined to take %(old)s's place in the entry %(entry)s for %(event)s (%(date)s).")
                % ctx
            )
            people = [m.person for m in entry.members.all() if m.person_id != change.new_person_id]
        recipients = addresses_of(people)
        if recipients:
            notify(recipients, subject, body + "\n" + ctx["url"], federation=entry.event.federation_id)


def member_declined(entry, member):
    """A team member said no: the captain must name someone else."""
    with translation.override(settings.LANGUAGE_CODE):
        ctx = {**_context(entry), "who": member.person.full_name}
        _send(
            entry.members.filter(position=1),
            _("A team member declined: %(event)s") % ctx,
            _(
                "%(who)s declined to play in %(entry)s for %(event)s (%(date)s). The entry is pending until you "
                "name another player in the place: %(my_entries)s"
            )
            % ctx,
            event=entry.event,
        )
