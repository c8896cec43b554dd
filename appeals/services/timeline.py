"""Every step of a case is a timeline row, and an e-mail to the parties and the panel (after the commit).

Mails are in the portal's language (Hungarian) whatever language the acting user browses in.
"""

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from federation.models import Role
from federation.services.notifications import absolute_url, address_of, addresses_of, notify

from ..models import PanelSeat, TimelineEntry
from .common import party_people

_url = absolute_url


def case_recipients(appeal, *, extra=()):
    """The parties, the panel and the director who ruled: everybody a step of the case concerns."""
    emails = addresses_of(party_people(appeal))
    emails += [
        s.member.email
        for s in PanelSeat.objects.filter(appeal=appeal).select_related("member__user", "member__person")
    ]
    if appeal.director_id:
        emails.append(address_of(appeal.director))
    return [e for e in [*emails, *extra] if e]


def role_addresses(roles) -> list[str]:
    """The addresses of the users holding `roles` (a Role queryset), each by the user's own choice."""
    return addresses_of(r.user for r in roles.select_related("user"))


def ethics_emails(federation_id):
    return role_addresses(Role.objects.filter(kind=Role.ETHICS, federation_id=federation_id))


def record(appeal, action, actor=None, note="", *, details=None, mail=True, extra_recipients=()):
    """Write the timeline row of one step and queue its e-mail; call inside the step's transaction."""
    entry = TimelineEntry.objects.create(
        appeal=appeal,
        action=action,
        actor=actor if actor is not None and actor.is_authenticated else None,
        note=note,
        details=details or {},
    )
    if mail:
        with translation.override(settings.LANGUAGE_CODE):
            label = str(TimelineEntry.Action(action).label)
            subject = _("Appeal %(ref)s: %(step)s") % {"ref": appeal.reference, "step": label}
            body = "\n\n".join(
                part
                for part in (
                    _("%(event)s, appeal %(ref)s: %(step)s.")
                    % {"event": appeal.event.title, "ref": appeal.reference, "step": label},
                    note,
                    _url("appeal_detail", appeal.pk),
                )
                if part
            )
            notify(
                case_recipients(appeal, extra=extra_recipients),
                subject,
                body,
                federation=appeal.event.federation_id,
            )
    return entry


def record_report(report, action, actor=None, note="", *, recipients=(), mail=True):
    """A step of a disciplinary report, mailed to the player concerned and whoever else is named (unless
    `mail` is False: the caller writes the mail, e.g. one for the cases of both players of a pair)."""
    entry = TimelineEntry.objects.create(
        report=report, action=action, actor=actor if actor and actor.is_authenticated else None, note=note
    )
    if not mail:
        return entry
    with translation.override(settings.LANGUAGE_CODE):
        label = str(TimelineEntry.Action(action).label)
        subject = _("Disciplinary case of %(person)s: %(step)s") % {"person": report.person, "step": label}
        notify(
            [address_of(report.person), *recipients],
            subject,
            "\n\n".join(p for p in (label, note) if p),
            federation=report.federation_id,
        )
    return entry


def record_committee(committee, action, actor=None, note="", *, recipients=()):
    """A change of an event's Appeals Committee (a member leaving, an alternate stepping in), mailed."""
    entry = TimelineEntry.objects.create(
        committee=committee,
        action=action,
        actor=actor if actor is not None and actor.is_authenticated else None,
        note=note,
    )
    with translation.override(settings.LANGUAGE_CODE):
        label = str(TimelineEntry.Action(action).label)
        subject = _("%(event)s, Appeals Committee: %(step)s") % {
            "event": committee.event.title,
            "step": label,
        }
        body = "\n\n".join(p for p in (label, note, _url("appeals_event", committee.event_id)) if p)
        notify([e for e in recipients if e], subject, body, federation=committee.event.federation_id)
    return entry


def record_measure(measure, action, actor=None, note="", *, recipients=()):
    """A step of a director's measure (its points deducted from the results), mailed to the player."""
    entry = TimelineEntry.objects.create(
        measure=measure,
        action=action,
        actor=actor if actor is not None and actor.is_authenticated else None,
        note=note,
    )
    with translation.override(settings.LANGUAGE_CODE):
        label = str(TimelineEntry.Action(action).label)
        subject = _("%(event)s, measure against %(person)s: %(step)s") % {
            "event": measure.event.title,
            "person": measure.person,
            "step": label,
        }
        body = "\n\n".join(p for p in (label, note, _url("appeals_discipline", measure.event_id)) if p)
        notify(
            [e for e in [address_of(measure.person), *recipients] if e],
            subject,
            body,
            federation=measure.event.federation_id,
        )
    return entry


def director_emails(event_id):
    return role_addresses(Role.objects.filter(kind=Role.DIRECTOR, event_id=event_id))
