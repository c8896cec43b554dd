"""A ruling on one ulti table (the director's or the appeals committee's): the round's next result version,
the other tables copied, the same recompute; a refused ruling names the table and writes nothing."""

import datetime

import pytest
from django.utils import translation

from federation.models import Role
from results.services import state_of
from tournaments.models import Entry, EntryMember, Event
from ulti.models import ForintResult, RoundUpload, Standing
from ulti.services import UltiError, draw, setup, uploads
from ulti.services.adjustments import apply_ruling

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def seats(table):
    return [s.participant for s in table.seats.select_related("participant__person").order_by("position")]


@pytest.fixture
def played(mausz, ulti_club, make_person, make_user, django_capture_on_commit_callbacks):
    """Nine players, round 1 played: at every table seat 1 wins and seat 3 loses."""
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Ulti óvás",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 3, 7),
        status="approved",
        rule_set="mausz",
    )
    for _ in range(9):
        entry = Entry.objects.create(event=event)
        EntryMember.objects.create(entry=entry, person=make_person(mausz, ulti_club))
    user = make_user("vezeto@example.hu", kind=Role.DIRECTOR, event=event)
    group = setup.start_event(event, user).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    results = {
        t.number: dict(zip([p.pk for p in seats(t)], (300, -50, -250), strict=True)) for t in rnd.tables.all()
    }
    with django_capture_on_commit_callbacks(execute=True):
        uploads.upload_round(rnd, results, user=user)
    return event, rnd, user


def standing(stage, participant):
    return Standing.objects.get(stage=stage, group=None, after_round=1, participant=participant)


def test_a_ruling_is_the_next_version_and_changes_the_standings(played, django_capture_on_commit_callbacks):
    event, rnd, user = played
    table = rnd.tables.get(number=2)
    winner, middle, loser = seats(table)
    stage = rnd.group.stage
    assert standing(stage, winner).forint == 300 and standing(stage, loser).forint == -250
    with django_capture_on_commit_callbacks(execute=True):
        version = apply_ruling(
            rnd,
            table,
            forints={winner: -250, middle.person: -50, loser.pk: 300},
            reason="Óvás 1: a 2. asztal eredménye megfordul.",
            user=user,
        )
    assert (version.number, version.source, version.note) == (
        2,
        "appeal",
        "Óvás 1: a 2. asztal eredménye megfordul.",
    )
    lines = {(line.table.number, line.participant_id): line.forint for line in version.lines.all()}
    assert len(lines) == 9  # the other tables copied
    assert lines[(2, loser.pk)] == 300 and lines[(2, winner.pk)] == -250
    first = RoundUpload.objects.get(round=rnd, number=1)
    assert ForintResult.objects.get(upload=first, participant=winner).forint == 300  # append-only
    assert standing(stage, loser).forint == 300 and standing(stage, winner).forint == -250
    assert standing(stage, loser).points > standing(stage, winner).points
    assert state_of(event.pk, "ulti").computed_version == state_of(event.pk, "ulti").latest_version


def test_a_ruling_that_does_not_sum_to_zero_is_refused_by_table_and_writes_nothing(played):
    event, rnd, user = played
    winner, middle, loser = seats(rnd.tables.get(number=3))
    before = state_of(event.pk, "ulti").latest_version
    with pytest.raises(UltiError) as refused:
        apply_ruling(rnd, 3, forints={winner: 100, middle: 0, loser: -50}, reason="x", user=user)
    assert any(m.startswith("Table 3:") and "+50" in m for m in refused.value.messages)
    assert RoundUpload.objects.filter(round=rnd).count() == 1
    assert state_of(event.pk, "ulti").latest_version == before


def test_other_refusals_write_nothing(played, make_person, mausz, ulti_club):
    event, rnd, user = played
    table = rnd.tables.get(number=1)
    winner, middle, loser = seats(table)
    stranger = seats(rnd.tables.get(number=2))[0]
    cases = [
        (dict(forints={winner: 0, middle: 0, stranger: 0}), "Table 1:"),
        (dict(forints={winner: 0, middle: 0, make_person(mausz, ulti_club): 0}), "does not sit"),
        (dict(forints={winner: 0, middle: 0}), "no forint result"),
        (dict(forints={}), "no forint results"),
        (dict(forints={winner: 0, middle: 0, loser: 0}, points_adjustment={winner: -1}), "point adjustment"),
        (dict(forints={winner: 0, middle: 0, loser: 0}, source="pbn"), "source"),
    ]
    for kwargs, message in cases:
        with pytest.raises(UltiError, match=message):
            apply_ruling(rnd, table, reason="x", user=user, **kwargs)
    with pytest.raises(UltiError, match="Table 7: there is no such table"):
        apply_ruling(rnd, 7, forints={winner: 0}, reason="x", user=user)
    assert RoundUpload.objects.filter(round=rnd).count() == 1


def test_a_round_without_results_has_nothing_to_change(played):
    event, rnd, user = played
    second = draw.publish_round(draw.generate_round(rnd.group, user), user)
    table = second.tables.get(number=1)
    forints = dict(zip(seats(table), (10, -10, 0), strict=True))
    with pytest.raises(UltiError, match="no results yet"):
        apply_ruling(second, table, forints=forints, reason="x", user=user)
    assert not RoundUpload.objects.filter(round=second).exists()
