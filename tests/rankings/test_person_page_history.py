"""The person page's masterpoint and rating history charts and qualifications (issue 19): the same
server-rendered SVG as the rankings player page, masterpoint classes with the event that reached them, NUB
qualifications with their season; all public, nothing of the private part shown to others."""

import datetime
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from rankings.models import Award, AwardVersion, Qualification, RatingHistory, Season, SeasonEntry, Stage

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def award(event, person, amount, year=None):
    version = AwardVersion.objects.create(
        event=event, federation=event.federation, version=1, date=event.start_date, field_size=20
    )
    return Award.objects.create(
        version=version,
        event=event,
        federation=event.federation,
        person=person,
        year=year or event.start_date.year,
        date=event.start_date,
        amount=Decimal(amount),
        reason="final",
        place_from=1,
        place_to=1,
    )


@pytest.fixture
def ulti_player(mausz, make_person, make_user, make_event):
    """A demo-like MAUSZ player: 6 + 5 masterpoints in 2025, 30 in 2026 (III. class at 10 reached by the
    second event, II. class at 40 by the third), two rated events and a NUB 2026 semifinal place."""
    person = make_person(mausz, user=make_user("ulti@example.hu"), phone="+36 30 123 4567")
    spring = make_event(mausz, date=datetime.date(2025, 3, 8), title="Tavaszi ulti")
    autumn = make_event(mausz, date=datetime.date(2025, 10, 4), title="Őszi ulti")
    cup = make_event(mausz, date=datetime.date(2026, 2, 14), title="Ulti kupa")
    for event, amount in ((spring, "6"), (autumn, "5"), (cup, "30")):
        award(event, person, amount)
    for event, display in ((spring, 1480), (autumn, 1525)):
        RatingHistory.objects.create(
            federation=mausz,
            person=person,
            event=event,
            date=event.start_date,
            mu=25.0,
            sigma=5.0,
            display=display,
            tables=4,
            events=1,
        )
    season = Season.objects.create(federation=mausz, year=2026)
    SeasonEntry.objects.create(
        season=season, stage=Stage.QUALIFIER, person=person, name=str(person), status=SeasonEntry.QUALIFIED
    )
    return {"person": person, "season": season, "events": (spring, autumn, cup)}


def page(client, person):
    response = client.get(reverse("person_detail", args=[person.pk]))
    assert response.status_code == 200
    return response.content.decode()


def section(html, name):
    match = re.search(rf'<section id="{name}">(.*?)</section>', html, re.S)
    assert match, name
    return match.group(1)


def test_charts_are_the_rankings_pages_svg_scaling_to_the_width(client, ulti_player):
    charts = section(page(client, ulti_player["person"]), "history-charts")
    svgs = re.findall(r"<svg [^>]*>", charts)
    assert len(svgs) == 3  # all-time, 2026, rating
    for svg in svgs:
        # a viewBox and no fixed width: portal.css (main svg[viewBox]) scales it down to a 390 px screen
        assert 'viewBox="0 0 720 240"' in svg and " width=" not in svg
    assert "Running total of masterpoints</title>" in charts
    assert "Running total of masterpoints in 2026</title>" in charts
    assert "Rating after each event</title>" in charts
    # the all-time line starts at 0 and has 3 awards (a point each plus the zero start); 2026 has one
    alltime, annual, rating = re.findall(r"<svg .*?</svg>", charts, re.S)
    assert alltime.count("<circle") == 4 and annual.count("<circle") == 2 and rating.count("<circle") == 2
    # the y axis of the all-time chart: 0 to the running total 41, ticks every 20
    assert ">0</text>" in alltime and ">20</text>" in alltime and ">40</text>" in alltime
    assert ">60</text>" not in alltime
    # the rating axis does not start at zero: 1480..1525
    assert ">0</text>" not in rating


def test_the_same_chart_as_on_the_rankings_player_page(client, ulti_player, mausz):
    person = ulti_player["person"]
    charts = section(page(client, person), "history-charts")
    player = client.get(reverse("rankings_player", args=[mausz.code, person.pk])).content.decode()
    for svg in re.findall(r"<svg .*?</svg>", player, re.S):
        if "Running total of masterpoints</title>" in svg or "Rating after each event</title>" in svg:
            assert svg in charts


def test_masterpoint_classes_with_the_event_that_reached_them(client, ulti_player):
    spring, autumn, cup = ulti_player["events"]
    quals = section(page(client, ulti_player["person"]), "qualifications")
    items = re.findall(r"<li>(.*?)</li>", quals, re.S)
    # highest first: II. (40) reached by the cup (6 + 5 + 30 = 41), III. (10) by the autumn event (11)
    assert "II. osztály" in items[0] and "Ulti kupa" in items[0] and "2026. 02. 14." in items[0]
    assert "III. osztály" in items[1] and "Őszi ulti" in items[1]
    assert reverse("rankings_event", args=[autumn.pk]) in items[1]
    assert "<strong>I. osztály" not in quals  # 100 not reached
    assert "Tavaszi ulti" not in quals


def test_nub_qualification_with_its_season_and_invitation_state(client, ulti_player, mausz):
    person, season = ulti_player["person"], ulti_player["season"]
    quals = section(page(client, person), "qualifications")
    season_url = reverse("rankings_season", args=[mausz.code, 2026])
    assert season_url in quals and "National Ulti Championship 2026" in quals and "semifinal" in quals
    assert "waiting for confirmation" not in quals  # no invitation sent yet
    Qualification.objects.create(
        season=season,
        stage=Stage.SEMIFINAL,
        person=person,
        rank=3,
        status=Qualification.CONFIRMED,
        deadline=datetime.datetime(2026, 5, 1, tzinfo=datetime.UTC),
    )
    quals = section(page(client, person), "qualifications")
    assert quals.count(season_url) == 1 and "(confirmed)" in quals


def test_a_bridge_player_without_classes_or_ratings(client, mbsz, make_person, make_event):
    person = make_person(mbsz)
    award(make_event(mbsz, date=datetime.date(2025, 5, 1)), person, "3.5")
    html = page(client, person)
    charts = section(html, "history-charts")
    assert len(re.findall(r"<svg ", charts)) == 2  # all-time and 2025; bridge has no rating
    assert "No qualifications yet." in section(html, "qualifications")


def test_anonymous_sees_charts_and_qualifications_but_nothing_private(client, ulti_player):
    person = ulti_player["person"]
    html = page(client, person)
    assert 'id="history-charts"' in html and "III. osztály" in html
    assert person.phone not in html and person.email not in html
    assert "1970. 05. 17." not in html
    assert 'id="licences"' not in html and 'id="fees"' not in html


def test_no_history_no_charts(client, mbsz, make_person):
    html = page(client, make_person(mbsz))
    assert 'id="history-charts"' not in html and "<svg" not in html.split('id="played"')[1]
