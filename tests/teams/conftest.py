"""Fixtures of the teams tests: a public team event with 4-player teams, its director, and helpers that
play a round through the services (generate, publish, upload) and run the recompute task in-process."""

import datetime
import itertools
from decimal import Decimal

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from federation.models import Role
from teams.engine.parsed import ParsedBoard, ParsedResult
from teams.models import Round, TeamEvent
from teams.services import pairing, results
from teams.services.recompute import recompute_event
from tournaments.models import Entry, EntryMember, Event

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def english():
    """The tests read the English source texts; one test checks the Hungarian catalogue on a page."""
    with translation.override("en"):
        yield


@pytest.fixture
def client():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def make_team_event(mbsz, make_person):
    def make(teams=6, sizes=None, status=Event.Status.APPROVED, **options):
        event = Event.objects.create(
            federation=mbsz,
            title=f"Csapatverseny {next(_names)}",
            format=Event.Format.TEAMS,
            event_class=Event.EventClass.CLUB,
            start_date=datetime.date(2026, 3, 7),
            status=status,
            masterpoint_multiplier=Decimal("1.00"),
        )
        for n in range(teams):
            entry = Entry.objects.create(event=event, team_name=f"Csapat {n + 1}")
            for position in range(1, (sizes[n] if sizes else 4) + 1):
                EntryMember.objects.create(
                    entry=entry,
                    person=make_person(federation=mbsz),
                    position=position,
                    is_captain=position == 1,
                )
        TeamEvent.objects.create(event=event, **options)
        return event

    return make


@pytest.fixture
def director(make_user):
    def make(event):
        return make_user(f"vezeto{event.pk}@example.hu", kind=Role.DIRECTOR, event=event)

    return make


@pytest.fixture
def level():
    return board_result


@pytest.fixture
def play():
    return play_round


def board_result(boards, margin_per_board=0):
    """Boards 1..n: the open room scores +420 / the closed room 420 - margin (so home gains each board)."""
    return ParsedResult(tuple(ParsedBoard(b, 420, 420 - margin_per_board) for b in range(1, boards + 1)))


def play_round(event, user, score=None, seed=None):
    """Generate, publish and score a round; `score(match)` returns a ParsedResult (default: level)."""
    round_ = pairing.generate_round(event, user, seed=seed)
    round_ = pairing.publish_round(round_, user)
    for match in round_.matches.filter(away__isnull=False).order_by("table"):
        parsed = score(match) if score else board_result(round_.boards)
        results.upload_result(match, user, parsed)
    recompute_event(event.pk)
    return Round.objects.get(pk=round_.pk)
