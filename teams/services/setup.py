"""An event's team options and its teams, taken from the tournaments entries (4-6 players each)."""

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.engine.formats import shape_of
from tournaments.models import Entry, Event

from ..models import Team, TeamEvent
from . import Refused


def setup_of(event: Event) -> TeamEvent:
    """The event's options (defaults until the director saves them)."""
    if event.format != Event.Format.TEAMS:
        raise Refused(_("This is not a team event."))
    setup, _created = TeamEvent.objects.get_or_create(event=event)
    return setup


def roster_entries(event: Event):
    """Entries that play: active, shown up, with their members loaded."""
    return (
        event.entries.filter(status=Entry.Status.ACTIVE, no_show=False)
        .prefetch_related("members__person")
        .order_by("entered_at", "pk")
    )


@transaction.atomic
def ensure_teams(event: Event) -> list[Team]:
    """The event's teams; made from the entries the first time a round is generated, fixed after."""
    teams = list(event.teams.order_by("start_number"))
    if teams:
        return teams
    shape = shape_of(Event.Format.TEAMS)
    problems = []
    entries = list(roster_entries(event))
    for entry in entries:
        size = len(entry.members.all())
        if not shape.min_players <= size <= shape.max_players:
            problems.append(
                _("%(team)s has %(size)s players; a team has %(min)s to %(max)s.")
                % {
                    "team": entry.team_name or entry.pk,
                    "size": size,
                    "min": shape.min_players,
                    "max": shape.max_players,
                }
            )
    if problems:
        raise Refused(*problems)
    if len(entries) < 2:
        raise Refused(_("A team event needs at least two teams."))
    return [
        Team.objects.create(
            event=event,
            entry=entry,
            name=entry.team_name or " – ".join(m.person.last_name for m in entry.members.all()[:2]),
            start_number=number,
        )
        for number, entry in enumerate(entries, start=1)
    ]


def rosters(event: Event) -> dict[int, list[int]]:
    """team id -> person ids of its players."""
    out: dict[int, list[int]] = {}
    for team in event.teams.prefetch_related("entry__members"):
        out[team.pk] = [m.person_id for m in team.entry.members.all()]
    return out
