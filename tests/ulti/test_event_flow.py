"""An ulti event from draw to standings: Swiss rounds (preview, publish, hand edits with a warning on a
repeat meeting), uploads by form and CSV, refusals that write nothing, byes, append-only versions, the
idempotent stamped recompute, team standings, and the all-play-all final button (Kirkman for 21)."""

import datetime
from itertools import combinations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from federation.models import Role
from results.services import state_of
from tournaments.models import Entry, EntryMember, Event
from ulti.models import (
    Bye,
    ForintResult,
    Participant,
    Round,
    RoundUpload,
    Stage,
    Standing,
    TableScore,
    TeamStanding,
)
from ulti.services import UltiError, draw, recompute, setup, uploads
from ulti.services.source import ulti_final_result

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """Services speak the active language; these tests read their English wording."""
    with translation.override("en"):
        yield


@pytest.fixture
def make_event(mausz, ulti_club, make_person):
    def make(players=10, *, fmt="ulti_individual", event_class="nub_qualifier", teams=False, **extra):
        event = Event.objects.create(
            federation=mausz,
            club=ulti_club,
            title=extra.pop("title", f"Ulti {players}"),
            format=fmt,
            event_class=event_class,
            start_date=datetime.date(2026, 3, 7),
            status="approved",
            rule_set=extra.pop("rule_set", "mausz"),
            **extra,
        )
        if teams:
            for t in range(players // 3):
                entry = Entry.objects.create(event=event, team_name=f"Csapat {t + 1}")
                for i, line in enumerate("ABC"):
                    person = make_person(mausz, ulti_club, last_name=f"Csapat{t + 1}")
                    EntryMember.objects.create(entry=entry, person=person, position=i + 1, line=line)
        else:
            for _ in range(players):
                entry = Entry.objects.create(event=event)
                EntryMember.objects.create(entry=entry, person=make_person(mausz, ulti_club))
        return event

    return make


@pytest.fixture
def director(make_user):
    def make(event):
        return make_user(f"vezeto{event.pk}@example.hu", kind=Role.DIRECTOR, event=event)

    return make


def seats(table):
    return [s.participant_id for s in table.seats.order_by("position")]


def spread(rnd, step=100):
    """Zero-sum results, different at every table: seat 1 wins, seat 3 loses."""
    return {
        t.number: dict(
            zip(seats(t), (step * t.number + step, -step // 2, -step * t.number - step // 2), strict=True)
        )
        for t in rnd.tables.all()
    }


def play(group, user, capture, results=spread):
    rnd = draw.generate_round(group, user)
    draw.publish_round(rnd, user)
    with capture(execute=True):
        uploads.upload_round(rnd, results(rnd), user=user)
    return rnd


def test_round_one_is_a_draft_seeded_by_rating_with_a_bye(make_event, director, monkeypatch):
    event = make_event(10)
    user = director(event)
    ratings = {}
    monkeypatch.setattr(setup, "live_ratings", lambda ids, fed: ratings or {pid: 1500 + pid for pid in ids})
    stage = setup.start_event(event, user)
    group = stage.groups.get()
    rnd = draw.generate_round(group, user)
    assert rnd.status == Round.Status.DRAFT and rnd.tables.count() == 3
    assert Bye.objects.filter(round=rnd).count() == 1
    # Seeded: start number 1 (best rated) sits with one player of each third; the lowest-rated has the bye.
    first = [Participant.objects.get(pk=p).number for p in seats(rnd.tables.get(number=1))]
    assert first[0] == 1 and len(set(first)) == 3
    assert Bye.objects.get(round=rnd).participant.number == 10
    assert {"kind": "seeded"} in rnd.notes
    # A draft may be drawn again; once published it may not.
    again = draw.generate_round(group, user)
    assert again.number == 1 and Round.objects.filter(group=group).count() == 1
    draw.publish_round(again, user)
    with pytest.raises(UltiError, match="no result yet"):
        draw.generate_round(group, user)


def test_upload_by_form_then_csv_gives_standings_and_versions(
    make_event, director, django_capture_on_commit_callbacks
):
    event = make_event(9)
    user = director(event)
    group = setup.start_event(event, user).groups.get()
    rnd = play(group, user, django_capture_on_commit_callbacks)
    rows = list(Standing.objects.filter(stage=group.stage, after_round=1).order_by("order"))
    assert [r.points for r in rows] == [4, 4, 4, 2, 2, 2, 0, 0, 0]
    assert rows[0].forint == 400 and rows[0].place == "1"
    state = state_of(event.pk, "ulti")
    assert not state.processing and state.computed_version == 1

    # A correction by CSV (start numbers, a header, Hungarian separators) is version 2 of the round.
    tables = list(rnd.tables.order_by("number"))
    lines = ["asztal;játékos;forint"]
    for t in tables:
        numbers = [Participant.objects.get(pk=p).number for p in seats(t)]
        for n, amount in zip(numbers, ("-1 200", "+700", "500 Ft"), strict=True):
            lines.append(f"{t.number};{n};{amount}")
    with django_capture_on_commit_callbacks(execute=True):
        version = uploads.upload_csv(rnd, "\n".join(lines), user=user, file_name="r1.csv")
    assert version.number == 2 and version.source == "csv"
    assert RoundUpload.objects.filter(round=rnd).count() == 2
    top = Standing.objects.filter(stage=group.stage, after_round=1).order_by("order").first()
    assert top.forint == 700 and top.points == 4
    assert state_of(event.pk, "ulti").computed_version == 2


def test_a_table_that_does_not_sum_to_zero_is_refused_by_name_and_nothing_is_written(make_event, director):
    event = make_event(9)
    user = director(event)
    group = setup.start_event(event, user).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    results = spread(rnd)
    bad = results[2]
    first = next(iter(bad))
    bad[first] += 10
    with pytest.raises(UltiError) as refused:
        uploads.upload_round(rnd, results, user=user)
    assert any(m.startswith("Table 2:") and "+10" in m for m in refused.value.messages)
    assert not RoundUpload.objects.exists() and not ForintResult.objects.exists()
    assert state_of(event.pk, "ulti") is None or state_of(event.pk, "ulti").latest_version == 0


def test_unknown_player_and_missing_table_are_refused(make_event, director):
    event = make_event(9)
    user = director(event)
    group = setup.start_event(event, user).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    with pytest.raises(UltiError) as refused:
        uploads.upload_csv(rnd, "1;99;100\n1;U0;-100\n", user=user)
    assert "unknown player 99" in refused.value.messages[0] and "Line 2" in refused.value.messages[1]
    results = spread(rnd)
    del results[3]
    with pytest.raises(UltiError, match="Table 3: no results"):
        uploads.upload_round(rnd, results, user=user)
    results = spread(rnd)
    results[1], results[2] = results[2], results[1]  # table 2's players given as table 1
    with pytest.raises(UltiError, match="Table 1"):
        uploads.upload_round(rnd, results, user=user)
    assert not RoundUpload.objects.exists()


def test_byes_score_the_rule_set_points_and_nobody_gets_two(
    make_event, director, django_capture_on_commit_callbacks
):
    event = make_event(7, rule_set="szolnok")  # 7 players: one bye a round; Szolnok byes score 3
    user = director(event)
    group = setup.start_event(event, user).groups.get()
    had = []
    for _ in range(6):
        rnd = play(group, user, django_capture_on_commit_callbacks)
        had.extend(Bye.objects.filter(round=rnd).values_list("participant__person_id", flat=True))
    assert len(had) == 6 and len(set(had)) == 6
    row = Standing.objects.get(stage=group.stage, after_round=1, participant__byes__round__number=1)
    assert row.points == 3 and row.forint == 0 and row.byes == 1


def test_result_versions_are_append_only(make_event, director, django_capture_on_commit_callbacks):
    event = make_event(6)
    user = director(event)
    group = setup.start_event(event, user).groups.get()
    rnd = play(group, user, django_capture_on_commit_callbacks)
    version = RoundUpload.objects.get(round=rnd)
    with pytest.raises(TypeError):
        version.save()
    with pytest.raises(TypeError):
        RoundUpload.objects.filter(round=rnd).delete()
    with pytest.raises(TypeError):
        ForintResult.objects.filter(upload=version).update(forint=0)


def test_recompute_is_idempotent_and_stamped(make_event, director, django_capture_on_commit_callbacks):
    event = make_event(9)
    user = director(event)
    group = setup.start_event(event, user).groups.get()
    play(group, user, django_capture_on_commit_callbacks)
    play(group, user, django_capture_on_commit_callbacks)

    def snapshot():
        return sorted(
            Standing.objects.values_list(
                "participant_id", "after_round", "place", "points", "forint", "event_version"
            )
        ), sorted(TableScore.objects.values_list("table_id", "participant_id", "points", "place"))

    before = snapshot()
    assert recompute.recompute_event(event.pk)["skipped"]
    assert recompute.recompute_event(event.pk, force=True)["version"] == 2
    assert snapshot() == before
    assert {v for *_rest, v in before[0]} == {2}


@pytest.mark.parametrize("fmt", ["ulti_individual", "ulti_team"])
def test_recompute_queries_do_not_grow_with_the_players(
    make_event, director, django_capture_on_commit_callbacks, fmt
):
    """No query per player, table, group or round: a recompute of more players, or of more rounds, costs the
    same queries (COPY streams, on PostgreSQL, are not queries). Team ulti: three groups, team standings."""
    team = fmt == "ulti_team"
    counts = []
    for players, rounds in ((9, 1), (18, 1), (18, 2)) if team else ((6, 1), (15, 1), (15, 2)):
        event = make_event(
            players, fmt=fmt, teams=team, event_class="team_regional" if team else "nub_qualifier",
            title=f"Ulti {players}/{rounds}",
        )  # fmt: skip
        user = director(event)
        stage = setup.start_event(event, user)
        for group in stage.groups.all():
            for _ in range(rounds):
                play(group, user, django_capture_on_commit_callbacks)
        with CaptureQueriesContext(connection) as queries:
            recompute.recompute_event(event.pk, force=True)
        counts.append(len(queries))
        assert Standing.objects.filter(stage=stage, group=None, after_round=rounds).count() == players
        assert TeamStanding.objects.filter(stage=stage, after_round=rounds).count() == (
            players // 3 if team else 0
        )
    assert counts[0] == counts[1] == counts[2], counts


def test_processing_banner_until_the_task_ran(
    client, make_event, director, django_capture_on_commit_callbacks
):
    event = make_event(6)
    user = director(event)
    group = setup.start_event(event, user).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    uploads.upload_round(rnd, spread(rnd), user=user)  # committed hooks never run in this test: stale
    html = client.get(f"/ulti/events/{event.pk}/standings/").content.decode()
    assert "processing" in html
    recompute.recompute_event(event.pk)
    html = client.get(f"/ulti/events/{event.pk}/standings/").content.decode()
    assert 'class="alert alert-info processing' not in html


def test_hand_edit_warns_on_a_repeat_meeting_and_saves_only_when_confirmed(
    make_event, director, django_capture_on_commit_callbacks
):
    event = make_event(6)
    user = director(event)
    group = setup.start_event(event, user).groups.get()
    first = play(group, user, django_capture_on_commit_callbacks)
    rnd = draw.generate_round(group, user)
    old = [seats(t) for t in first.tables.order_by("number")]
    warnings = draw.edit_round(rnd, old, [], user=user)
    assert warnings and "met before" in warnings[0]
    assert [seats(t) for t in rnd.tables.order_by("number")] != old  # not saved
    draw.edit_round(rnd, old, [], user=user, confirm=True)
    rnd.refresh_from_db()
    assert [seats(t) for t in rnd.tables.order_by("number")] == old
    assert rnd.method == Round.Method.MANUAL and rnd.repeats == 6
    with pytest.raises(UltiError, match="exactly three"):
        draw.edit_round(rnd, [old[0][:2], old[0][2:] + old[1]], [], user=user)


def test_hand_edit_page_shows_the_warning(client, make_event, director, django_capture_on_commit_callbacks):
    event = make_event(6)
    user = director(event)
    group = setup.start_event(event, user).groups.get()
    first = play(group, user, django_capture_on_commit_callbacks)
    rnd = draw.generate_round(group, user)
    client.force_login(user)
    data = {f"t{t.number}_{i + 1}": str(p) for t in first.tables.all() for i, p in enumerate(seats(t))}
    response = client.post(f"/ulti/rounds/{rnd.pk}/edit/", data)
    # Pages speak Hungarian by default.
    assert response.status_code == 200 and "már találkozott" in response.content.decode()
    response = client.post(f"/ulti/rounds/{rnd.pk}/edit/", {**data, "confirm": "1"})
    assert response.status_code == 302


def test_form_upload_page_refuses_then_accepts(
    client, make_event, director, django_capture_on_commit_callbacks
):
    event = make_event(6)
    user = director(event)
    group = setup.start_event(event, user).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    client.force_login(user)
    data = {}
    for number, result in spread(rnd).items():
        table = rnd.tables.get(number=number)
        for pid, forint in result.items():
            data[f"f{table.pk}_{pid}"] = str(forint)
    wrong = dict(data)
    wrong[next(iter(wrong))] = "5"
    html = client.post(f"/ulti/rounds/{rnd.pk}/upload/", wrong, follow=True).content.decode()
    assert "1. asztal: a forinteredmények összege" in html
    assert not RoundUpload.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/ulti/rounds/{rnd.pk}/upload/", data)
    assert response.status_code == 302 and RoundUpload.objects.count() == 1
    assert Standing.objects.filter(stage=group.stage).count() == 6


def test_team_standings_sum_the_members(make_event, director, django_capture_on_commit_callbacks):
    event = make_event(18, fmt="ulti_team", event_class="team_regional", teams=True)
    user = director(event)
    stage = setup.start_event(event, user)
    assert sorted(stage.groups.values_list("name", flat=True)) == ["A", "B", "C"]
    for group in stage.groups.all():
        play(group, user, django_capture_on_commit_callbacks)
    teams = list(TeamStanding.objects.filter(stage=stage, after_round=1).order_by("order"))
    assert len(teams) == 6
    for team in teams:
        members = Standing.objects.filter(
            stage=stage, group=None, after_round=1, participant__entry=team.entry
        )
        assert team.points == sum(m.points for m in members)
        assert team.forint == sum(m.forint for m in members)
        assert sorted(m["line"] for m in team.members) == ["A", "B", "C"]
    assert sum(t.points for t in teams) == 6 * 6  # six tables, six points each
    assert [t.place_from for t in teams] == sorted(t.place_from for t in teams)


def test_final_button_draws_a_verified_kirkman_schedule_for_21(
    make_event, director, django_capture_on_commit_callbacks
):
    event = make_event(30, fmt="sport_ulti", event_class="sport_ulti", teams=True)
    user = director(event)
    stage = setup.start_event(event, user)
    assert stage.kind == Stage.Kind.QUALIFIER and stage.rounds == 5
    assert sorted(stage.groups.values_list("name", flat=True)) == ["A", "B"]
    for group in stage.groups.all():
        for _ in range(stage.rounds):
            play(group, user, django_capture_on_commit_callbacks)
    try:
        final = setup.start_next_stage(stage, size=21, user=user)
    except setup.CutTied as tie:  # II. 10. (5): the staff resolve a shared 21st place; here by order
        final = setup.start_next_stage(stage, size=21, user=user, admit=[tie.tied[0].participant_id])
    assert final.system == Stage.System.ALL_PLAY_ALL and final.participants.count() == 21
    qualified = list(
        Standing.objects.filter(stage=stage, group=None, after_round=5)
        .order_by("order")[:21]
        .values_list("participant__person_id", flat=True)
    )
    assert list(final.participants.order_by("number").values_list("person_id", flat=True)) == qualified
    rounds = draw.generate_schedule(final.groups.get(), user)
    assert len(rounds) == 10
    met = set()
    for rnd in rounds:
        assert rnd.tables.count() == 7 and not rnd.byes.exists()
        for table in rnd.tables.all():
            for pair in combinations(sorted(seats(table)), 2):
                assert pair not in met
                met.add(pair)
    assert len(met) == 21 * 20 // 2
    assert rounds[0].notes[0]["kind"] == "kirkman"


def test_rankings_source_gives_placings_and_table_places(
    make_event, director, django_capture_on_commit_callbacks
):
    event = make_event(6, rule_set="mausz")
    user = director(event)
    stage = setup.start_event(event, user)
    stage.rounds = 2
    stage.save()
    group = stage.groups.get()
    play(group, user, django_capture_on_commit_callbacks)
    assert ulti_final_result(event) is None  # not final yet
    play(group, user, django_capture_on_commit_callbacks)
    result = ulti_final_result(event)
    assert result is not None and result.field_size == 6 and len(result.tables) == 4
    assert {p.place_from for p in result.placings} >= {1}
    assert all(set(t.places.values()) <= {1, 2, 3} for t in result.tables)


def _off_unit(rnd):
    """Table 1 gets +155 / -75 / -80: zero-sum, but not whole 10 Ft units."""
    results = spread(rnd)
    first = min(results)
    results[first] = dict(zip(results[first], (155, -75, -80), strict=True))
    return results, first


def test_forints_off_the_event_unit_are_refused_and_nothing_is_written(make_event, director):
    event = make_event(9)
    user = director(event)
    group = setup.start_event(event, user).groups.get()
    assert event.ulti.unit_forints == 10
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    results, first = _off_unit(rnd)
    with pytest.raises(UltiError) as refused:
        uploads.upload_round(rnd, results, user=user)
    (message,) = refused.value.messages
    assert message.startswith(f"Table {first}:") and "10 Ft" in message and "+155" in message
    assert "-75" in message and "-80" not in message  # -80 is 8 units
    # the CSV says the same
    lines = ["asztal;játékos;forint"]
    for table in rnd.tables.all():
        for pid, forint in results[table.number].items():
            lines.append(f"{table.number};{Participant.objects.get(pk=pid).number};{forint}")
    with pytest.raises(UltiError, match="multiple of the unit, 10 Ft"):
        uploads.upload_csv(rnd, "\n".join(lines), user=user)
    # one table from a score sheet's path
    table = rnd.tables.get(number=first)
    with pytest.raises(UltiError, match="multiple of the unit"):
        uploads.upload_table(table, results[first], user=user)
    assert not RoundUpload.objects.exists() and not ForintResult.objects.exists()


def test_forints_on_the_event_unit_are_accepted(make_event, director):
    event = make_event(9)
    user = director(event)
    group = setup.start_event(event, user).groups.get()
    setup.ensure_settings(event, unit_forints=5)  # 155, -75 and -80 are whole 5 Ft units
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    results, first = _off_unit(rnd)
    upload = uploads.upload_round(rnd, results, user=user)
    table = rnd.tables.get(number=first)
    assert sorted(upload.lines.filter(table=table).values_list("forint", flat=True)) == [-80, -75, 155]


def _one_round_stage(make_event, director, capture):
    """9 players, one round of the spread results: the three second places share 4-6 (2 points, -50 Ft)."""
    event = make_event(9)
    user = director(event)
    stage = setup.start_event(event, user)
    Stage.objects.filter(pk=stage.pk).update(rounds=1)
    stage.refresh_from_db()
    play(stage.groups.get(), user, capture)
    return stage, user


def test_a_tie_at_the_cut_line_is_shown_not_silently_admitted(
    make_event, director, django_capture_on_commit_callbacks
):
    stage, user = _one_round_stage(make_event, director, django_capture_on_commit_callbacks)
    tied_rows = list(Standing.objects.filter(stage=stage, group=None, place="4-6").order_by("order"))
    assert [(r.points, r.forint) for r in tied_rows] == [(2, -50)] * 3
    with pytest.raises(setup.CutTied) as refused:
        setup.start_next_stage(stage, size=4, user=user)
    tie = refused.value
    assert (tie.cut.seats, len(tie.tied), tie.cut.sizes_without_tie) == (1, 3, (3, 6))
    assert "Places 4-6" in tie.messages[0] and "2 points and -50 Ft" in tie.messages[0]
    assert Stage.objects.filter(event=stage.event).count() == 1  # nothing created
    # a wrong choice (two for one seat) is refused too
    two = [tied_rows[0].participant_id, tied_rows[1].participant_id]
    with pytest.raises(UltiError, match="exactly 1"):
        setup.start_next_stage(stage, size=4, user=user, admit=two)
    # the staff pick the last of the three by display order: that one goes on, not the first
    picked = tied_rows[2].participant_id
    nxt = setup.start_next_stage(stage, size=4, user=user, admit=[picked])
    people = set(nxt.participants.values_list("person_id", flat=True))
    assert len(people) == 4 and tied_rows[2].participant.person_id in people
    assert tied_rows[0].participant.person_id not in people


def test_a_cut_between_places_needs_no_choice(make_event, director, django_capture_on_commit_callbacks):
    stage, user = _one_round_stage(make_event, director, django_capture_on_commit_callbacks)
    assert not setup.cut_is_tied(stage, 3)
    nxt = setup.start_next_stage(stage, size=3, user=user)  # the three table winners, 4 points each
    assert nxt.participants.count() == 3


def test_next_stage_page_shows_the_tie_to_the_director_only(
    client, make_event, director, make_user, django_capture_on_commit_callbacks
):
    stage, user = _one_round_stage(make_event, director, django_capture_on_commit_callbacks)
    url = f"/ulti/stages/{stage.pk}/next/"
    outsider = make_user("kivulallo@example.hu")
    client.force_login(outsider)
    assert client.post(url, {"size": "4"}).status_code in (403, 404)
    client.force_login(user)
    response = client.post(url, {"size": "4"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('name="admit"') == 3 and "4-6" in html
    assert Stage.objects.filter(event=stage.event).count() == 1
    chosen = Standing.objects.filter(stage=stage, group=None, place="4-6").order_by("order").last()
    response = client.post(url, {"size": "4", "resolve": "1", "admit": [chosen.participant_id]})
    assert response.status_code == 302
    assert Stage.objects.filter(event=stage.event).count() == 2
