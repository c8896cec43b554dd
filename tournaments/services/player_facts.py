"""Load what the eligibility rules need to know about an event and its players."""

import re

from django.db.models import Q
from django.utils.translation import gettext as _

from federation.engine.text import search_key
from federation.models import Membership, Person

from ..engine.eligibility import EventTerms, PlayerFacts
from ..models import Entry, EntryMember, Event, RegionNotice
from ..refusals import EntryRefused

OPEN_STATUSES = (Entry.Status.ACTIVE, Entry.Status.WAITING)


def event_terms(event: Event) -> EventTerms:
    return EventTerms(
        federation=event.federation.short_name,
        start_date=event.start_date,
        season=event.season_year,
        event_format=event.format,
        members_only=event.members_only,
        citizens_only=event.citizens_only,
        residency_required=event.residency_required,
        gender=event.gender_restriction,
        age=event.age_restriction,
        licence_required=event.needs_licence,
        region_id=event.region_id,
        region_name=event.region.name if event.region_id else "",
    )


def player_facts(event: Event, person: Person, *, ignore_entry=None) -> PlayerFacts:
    membership = person.membership(event.federation)
    region = membership.playing_region if membership else None
    suspension = person.active_suspension(event.federation, event.start_date)
    entered = EntryMember.objects.filter(person=person, entry__event=event, entry__status__in=OPEN_STATUSES)
    if ignore_entry is not None:
        entered = entered.exclude(entry=ignore_entry)
    notice = (
        RegionNotice.objects.filter(
            person=person, federation=event.federation, season=event.season_year, region=event.region
        ).first()
        if event.region_id is not None
        else None
    )
    return PlayerFacts(
        person_id=person.pk,
        name=person.full_name,
        birth_date=person.birth_date,
        gender=person.gender,
        citizenship=person.citizenship,
        resident_in_hungary=person.resident_in_hungary,
        is_member=membership is not None,
        suspended=suspension is not None,
        suspended_until=suspension.ends_on if suspension else None,
        has_licence=person.has_licence(event.season_year, event.federation),
        playing_region_id=region.pk if region else None,
        playing_region_name=region.name if region else "",
        region_notice=notice is not None,
        region_switch_unconsented=(
            notice is not None
            and not notice.board_consent
            and played_in_other_region(event, person, notice.region_id)
        ),
        already_entered=entered.exists(),
    )


def played_in_other_region(event: Event, person: Person, region_id: int) -> bool:
    """Whether the person played, this season before `event`, an event of another region than `region_id`."""
    return (
        EntryMember.objects.filter(
            person=person,
            entry__status=Entry.Status.ACTIVE,
            entry__event__federation_id=event.federation_id,
            entry__event__start_date__lt=event.start_date,
            entry__event__region__isnull=False,
        )
        .exclude(entry__event__region_id=region_id)
        .exclude(entry__event__status=Event.Status.CANCELLED)
        .filter(
            Q(entry__event__season=event.season_year)
            | Q(entry__event__season__isnull=True, entry__event__start_date__year=event.season_year)
        )
        .exists()
    )


PICKED = re.compile(r"#(\d+)\s*$")


def find_player(event: Event, given: str) -> Person:
    """The player a person picker names: a pick from the name search ("Name (club) #id"), a member number
    (the event's federation first, then the other one) or a name that exactly one member has."""
    text = (given or "").strip()
    if not text:
        raise EntryRefused([_("Give the member number or the name of every player.")])
    members = Person.objects.filter(memberships__is_active=True).distinct()
    picked = PICKED.search(text)
    if picked:
        # An id from the client: only a person the picker could have offered (an active member).
        person = members.filter(pk=int(picked.group(1))).first()
        if person is None:
            raise EntryRefused([_("There is no member %(name)s.") % {"name": text}])
        return person
    memberships = Membership.objects.filter(member_number__iexact=text, is_active=True).select_related(
        "person"
    )
    membership = memberships.filter(federation=event.federation).first() or memberships.first()
    if membership is not None:
        return membership.person
    named = list(members.filter(search_name=search_key(text))[:2])
    if len(named) == 1:
        return named[0]
    if named:
        raise EntryRefused(
            [
                _("Several members are called %(name)s: give the member number or pick from the list.")
                % {"name": text}
            ]
        )
    raise EntryRefused([_("There is no member with the member number or name %(name)s.") % {"name": text}])
