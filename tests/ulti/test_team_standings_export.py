"""Team ulti: the teams' table of the standings as CSV and XLSX (and in the standings PDF), beside the
players' exports: place (shared as "3–4"), team, members, points, integer forints; public like the page."""

import csv
import datetime
import io

import openpyxl
import pytest
from django.utils import translation
from django.utils.translation import gettext

from federation.models import Role
from tests.pdf_reading import pdf_of
from tournaments.models import Entry, EntryMember, Event
from ulti.models import Standing, TeamStanding
from ulti.services import draw, setup, uploads

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _team_event(mausz, ulti_club, make_person, title):
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title=title,
        format=Event.Format.ULTI_TEAM,
        event_class="team_regional",
        start_date=datetime.date(2026, 7, 4),
        status="approved",
        rule_set="mausz",
    )
    for t in range(3):
        entry = Entry.objects.create(event=event, team_name=f"Tromf {t + 1}")
        for i, line in enumerate("ABC"):
            person = make_person(mausz, ulti_club, last_name=f"Tromf{t + 1}", first_name=f"{line}játékos")
            EntryMember.objects.create(entry=entry, person=person, position=i + 1, line=line)
    return event


def _play(event, user, capture, result):
    """Round 1 in each line's group (A, B, C); `result(table)` the three seats' forints. All forints given."""
    given = []
    for group in setup.start_event(event, user).groups.all():
        rnd = draw.publish_round(draw.generate_round(group, user), user)
        results = {}
        for t in rnd.tables.all():
            seats = t.seats.order_by("position").values_list("participant_id", flat=True)
            results[t.number] = dict(zip(seats, result(t.number), strict=True))
            given += results[t.number].values()
        with capture(execute=True):
            uploads.upload_round(rnd, results, user=user)
    return given


@pytest.fixture
def played(mausz, ulti_club, make_person, make_user, django_capture_on_commit_callbacks):
    """3 teams of 3 (lines A, B, C: a group each), round 1 at one table a group: the seats' results differ,
    so the teams' totals do too."""
    event = _team_event(mausz, ulti_club, make_person, "Csapat ulti kupa")
    user = make_user("team-ulti@example.hu", kind=Role.DIRECTOR, event=event)
    results = _play(
        event, user, django_capture_on_commit_callbacks, lambda n: (300 * n, -120, -300 * n + 120)
    )
    return event, results


@pytest.fixture
def level(mausz, ulti_club, make_person, make_user, django_capture_on_commit_callbacks):
    """Every table ends all square: all three teams share the place 1–3."""
    event = _team_event(mausz, ulti_club, make_person, "Döntetlen csapat ulti")
    user = make_user("team-ulti-level@example.hu", kind=Role.DIRECTOR, event=event)
    _play(event, user, django_capture_on_commit_callbacks, lambda n: (0, 0, 0))
    return event


def _csv(response):
    raw = b"".join(response.streaming_content)
    assert raw.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(raw.decode("utf-8")[1:]), delimiter=";"))


def _members_of(event):
    """team name -> [(line, name, points, forint)] from the players' stored standings after round 1."""
    out = {}
    for row in Standing.objects.filter(stage__event=event, group=None, after_round=1).select_related(
        "participant__person", "participant__entry"
    ):
        p = row.participant
        out.setdefault(p.entry.team_name, []).append((p.line, str(p.person), row.points, row.forint))
    return {team: sorted(members) for team, members in out.items()}


def test_team_csv_sums_the_members_with_integer_forints(client, played):
    event, results = played
    members = _members_of(event)
    assert len(members) == 3 and all(len(m) == 3 for m in members.values())
    response = client.get(f"/ulti/events/{event.pk}/team-standings.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert 'team-standings-1-1.csv"' in response["Content-Disposition"]
    header, *lines = _csv(response)
    with translation.override("hu"):  # the portal speaks Hungarian first
        assert header == [gettext(h) for h in ("Place", "Team", "Players (A, B, C)", "Points", "Forint")]
    assert header[0] == "Helyezés"
    assert [line[1] for line in lines] and {line[1] for line in lines} == set(members)
    # Every forint the tables handed out is in some team's total; the table sums to zero, so do the teams.
    assert sum(int(line[4]) for line in lines) == 0 == sum(results) and len(results) == 9
    for _place, team, players, points, forint in lines:
        ms = members[team]
        assert int(points) == sum(m[2] for m in ms) and int(forint) == sum(m[3] for m in ms)
        assert players == ", ".join(f"{line}: {name}" for line, name, _p, _f in ms)
        assert forint.lstrip("-").isdigit()  # whole forints, no decimal part
    ordered = [(int(line[3]), int(line[4])) for line in lines]
    assert ordered == sorted(ordered, reverse=True) and lines[0][0] == "1"
    stored = TeamStanding.objects.filter(stage__event=event, after_round=1).order_by("order")
    assert [line[1] for line in lines] == [t.entry.team_name for t in stored]


def test_team_xlsx_has_the_same_lines_with_numbers_as_numbers(client, played):
    event, _results = played
    csv_lines = _csv(client.get(f"/ulti/events/{event.pk}/team-standings.csv"))
    response = client.get(f"/ulti/events/{event.pk}/team-standings.xlsx")
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = [list(r) for r in sheet.iter_rows(values_only=True)]
    assert rows[0] == csv_lines[0]
    for row, line in zip(rows[1:], csv_lines[1:], strict=True):
        assert isinstance(row[3], int) and isinstance(row[4], int)
        assert [str(v) for v in row] == line


def test_shared_team_places_read_as_a_range(client, level):
    lines = _csv(client.get(f"/ulti/events/{level.pk}/team-standings.csv"))[1:]
    assert [line[0] for line in lines] == ["1\u20133"] * 3
    assert {line[4] for line in lines} == {"0"}
    pdf = pdf_of(client.get(f"/ulti/events/{level.pk}/standings.pdf")).text
    assert "1\u20133." in pdf and "A: Tromf1 Ajátékos" in pdf.replace("\n", " ")


def test_standings_page_links_the_team_exports_and_the_pdf_lists_members(client, played):
    event, _results = played
    body = client.get(f"/ulti/events/{event.pk}/standings/").content.decode()
    assert f"/ulti/events/{event.pk}/team-standings.csv?stage=1&after=1" in body
    assert f"/ulti/events/{event.pk}/team-standings.xlsx?stage=1&after=1" in body
    pdf = pdf_of(client.get(f"/ulti/events/{event.pk}/standings.pdf")).text.replace("\n", " ")
    with translation.override("hu"):
        assert gettext("Players (A, B, C)") in pdf and "Tromf 1" in pdf


def test_an_individual_event_has_no_team_table_and_a_hidden_one_is_refused(
    client, played, mausz, ulti_club, make_user
):
    event, _results = played
    individual = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Egyéni",
        format=Event.Format.ULTI_INDIVIDUAL,
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 7, 4),
        status="approved",
        rule_set="mausz",
    )
    assert client.get(f"/ulti/events/{individual.pk}/team-standings.csv").status_code == 404
    Event.objects.filter(pk=event.pk).update(status="draft")
    for fmt in ("csv", "xlsx"):
        assert client.get(f"/ulti/events/{event.pk}/team-standings.{fmt}").status_code == (
            client.get(f"/ulti/events/{event.pk}/standings.pdf").status_code
        )
        assert client.get(f"/ulti/events/{event.pk}/team-standings.{fmt}").status_code in (302, 404)
