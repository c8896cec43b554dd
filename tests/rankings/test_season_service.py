"""The NUB season through the services and pages: table, cut, reserve replacement, confirmation."""

import datetime
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from federation.models import Notification, Role
from rankings.models import Qualification, Season, SeasonEntry, SeasonTeamEntry, SeasonTieChoice, Stage
from rankings.services import season as season_service
from rankings.services.ledger import record_result
from rankings.services.season import open_confirmations, process_deadlines, recompute_season, respond

pytestmark = pytest.mark.django_db
YEAR = 2026


@pytest.fixture
def field(mausz, ulti_clubs, make_person):
    """Six players in each region."""
    dt_club, ft_club = ulti_clubs
    return [make_person(mausz, dt_club, last_name=f"Dt{i}") for i in range(6)] + [
        make_person(mausz, ft_club, last_name=f"Ft{i}") for i in range(6)
    ]


@pytest.fixture
def qualifiers(mausz, regions, make_event):
    dt, ft = regions
    return {
        (region.code, n): make_event(
            mausz,
            event_class="nub_qualifier",
            date=datetime.date(YEAR, n + 1, 10 + (region.code == "felso-tisza")),
            region=region,
            season=YEAR,
            qualifier_number=n,
        )
        for region in (dt, ft)
        for n in range(1, 6)
    }


def play(event, rows, build_result):
    """rows: [(person, points, forint)], ranked by points then forint."""
    ordered = sorted(rows, key=lambda r: (-r[1], -r[2]))
    placings = [(i + 1, i + 1, [p], pts, ft) for i, (p, pts, ft) in enumerate(ordered)]
    record_result(event, build_result(event, placings))


@pytest.fixture
def season(mausz, field, qualifiers, build_result):
    season = Season.objects.create(federation=mausz, year=YEAR, semifinal_places=4, final_places=2)
    dt, ft = field[:6], field[6:]
    # Dt0 plays all five in his region: best three 30+29+28 (the 10 and 5 do not count).
    # Ft0 plays three in Felső-Tisza and one in Duna-Tisza köz: regions combine.
    # Dt5 attended only two.
    for n, pts in zip(range(1, 6), (30, 10, 29, 28, 5), strict=True):
        play(
            qualifiers[("duna-tisza", n)],
            [(dt[0], pts, 100)]
            + [(dt[i], 20 - i, 0) for i in range(1, 5)]
            + ([(dt[5], 40, 0)] if n <= 2 else []),
            build_result,
        )
    for n in range(1, 6):
        rows = [(ft[i], 18 - i, 10 * n) for i in range(1, 6)]
        if n <= 3:
            rows.append((ft[0], 27, 500))
        play(qualifiers[("felso-tisza", n)], rows, build_result)
    play(
        qualifiers[("duna-tisza", 5)],
        [(dt[0], 5, 100), (ft[0], 26, 0)] + [(dt[i], 20 - i, 0) for i in range(1, 5)],
        build_result,
    )
    recompute_season(season.pk)
    return season


def rows(season, stage=Stage.QUALIFIER):
    return {e.name: e for e in SeasonEntry.objects.filter(season=season, stage=stage)}


def test_the_season_table(season, field):
    table = rows(season)
    dt0, ft0, dt5 = table["Dt0 Játékos1"], table["Ft0 Játékos7"], table["Dt5 Játékos6"]
    assert (dt0.points, dt0.forint, dt0.attended) == (Decimal(87), 300, 5)
    assert [r["counted"] for r in sorted(dt0.results, key=lambda r: r["number"])] == [
        True,
        False,
        True,
        True,
        False,
    ]
    # Ft0: 27 x 3 in Felső-Tisza and 26 in Duna-Tisza köz -> best three are the 27s.
    assert (ft0.points, ft0.attended, ft0.position) == (Decimal(81), 4, 2)
    assert dt0.position == 1 and dt0.status == "qualified"
    assert not dt5.eligible and dt5.status == "ineligible" and dt5.position is None
    qualified = [e for e in table.values() if e.status == "qualified"]
    reserve = sorted((e for e in table.values() if e.status == "reserve"), key=lambda e: e.reserve_position)
    assert len(qualified) == 4 and [e.reserve_position for e in reserve] == list(range(1, len(reserve) + 1))
    assert all(r.points <= min(q.points for q in qualified) for r in reserve)


def test_the_season_page_draws_the_cut_line(client, season, mausz):
    response = client.get(reverse("rankings_season", args=[mausz.code, YEAR]))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("cut-line") == 1  # the one row below the 4th player (the rule is in season.css)
    assert "Dt0 Játékos1" in html and "fw-bold" in html


def test_a_player_who_does_not_confirm_is_replaced_and_the_replacement_notified(season, client, make_user):
    deadline = timezone.now() + datetime.timedelta(days=2)
    invited = open_confirmations(season, Stage.SEMIFINAL, deadline)
    assert len(invited) == 4 and Notification.objects.count() == 4
    first_reserve = SeasonEntry.objects.get(season=season, stage=Stage.QUALIFIER, reserve_position=1)
    second_reserve = SeasonEntry.objects.get(season=season, stage=Stage.QUALIFIER, reserve_position=2)

    # Three confirm, one through the page's confirm button.
    user = make_user("dt0@example.hu")
    dt0 = invited[0].person
    dt0.user = user
    dt0.save()
    client.force_login(user)
    response = client.post(reverse("rankings_confirm", args=[invited[0].pk]))
    assert response.status_code == 302
    for q in invited[1:3]:
        respond(q, True)
    assert Qualification.objects.get(pk=invited[0].pk).status == "confirmed"

    # Before the deadline nothing happens; after it the fourth is replaced by the first reserve.
    assert process_deadlines(timezone.now()) == 0
    after = deadline + datetime.timedelta(minutes=1)
    assert process_deadlines(after) == 1
    assert process_deadlines(after) == 0  # idempotent
    late = Qualification.objects.get(pk=invited[3].pk)
    replacement = Qualification.objects.get(replaces=late)
    assert late.status == "expired"
    assert (replacement.person, replacement.via, replacement.status) == (
        first_reserve.person,
        "reserve",
        "invited",
    )
    assert replacement.deadline == after + datetime.timedelta(days=season.replacement_days)
    mail = Notification.objects.filter(recipient=first_reserve.person.email).get()
    assert "tartalék" in mail.subject or "reserve" in mail.subject
    # The confirmation page, as an absolute link (issue #14).
    season_page = reverse("rankings_season", kwargs={"code": season.federation.code, "year": season.year})
    assert settings.PORTAL_URL.startswith("https://") and settings.PORTAL_URL + season_page in mail.body
    # A late confirmation changes nothing.
    assert respond(late, True, now=after).status == "expired"

    # The replacement gives up: the second reserve is invited at once.
    respond(replacement, False, now=after)
    assert Qualification.objects.get(replaces=replacement).person == second_reserve.person


def test_only_the_invited_player_may_confirm(season, client, make_user):
    q = open_confirmations(season, Stage.SEMIFINAL, timezone.now() + datetime.timedelta(days=1))[0]
    client.force_login(make_user("other@example.hu"))
    assert client.post(reverse("rankings_confirm", args=[q.pk])).status_code == 403
    client.logout()
    assert client.post(reverse("rankings_confirm", args=[q.pk])).status_code == 302  # to the login page
    assert Qualification.objects.get(pk=q.pk).status == "invited"


def test_semifinal_starts_from_zero(season, mausz, field, make_event, build_result):
    semis = [
        make_event(
            mausz,
            event_class="nub_semifinal",
            date=datetime.date(YEAR, 9, d),
            season=YEAR,
            qualifier_number=n,
        )
        for n, d in ((1, 10), (2, 20))
    ]
    semi_players = field[1:5]
    play(semis[0], [(p, 10 + i, 0) for i, p in enumerate(semi_players)], build_result)
    play(semis[1], [(p, 10 + i, 0) for i, p in enumerate(reversed(semi_players))], build_result)
    recompute_season(season.pk)
    table = rows(season, Stage.SEMIFINAL)
    assert len(table) == 4 and all(e.points == 23 for e in table.values())
    assert all(e.place_from == 1 and e.place_to == 4 for e in table.values())
    # All four share the place that straddles the cut of two (II. 10. (5)): a tie for the staff, nobody
    # goes to the final by display order, nobody over the number.
    assert all(e.status == "tied" for e in table.values())
    with pytest.raises(ValidationError):
        open_confirmations(season, Stage.FINAL, timezone.now() + datetime.timedelta(days=3))
    assert not Qualification.objects.filter(stage=Stage.FINAL).exists()


@pytest.fixture
def tied_semifinal(season, mausz, field, make_event, build_result):
    """A semifinal of one event, 2 final places (the season fixture): one player clear on 30 points, three
    tied on 12 points and -40 Ft for the one seat left, one behind on 5."""
    semi = make_event(
        mausz, event_class="nub_semifinal", date=datetime.date(YEAR, 9, 10), season=YEAR, qualifier_number=1
    )
    clear, *tied = field[1:5]
    play(semi, [(clear, 30, 100)] + [(p, 12, -40) for p in tied] + [(field[5], 5, 0)], build_result)
    recompute_season(season.pk)
    return clear, tied


def test_the_staff_resolve_a_tie_at_the_final_cut(season, tied_semifinal, make_user, mausz, client):
    clear, tied = tied_semifinal
    table = {e.person_id: e for e in SeasonEntry.objects.filter(season=season, stage=Stage.SEMIFINAL)}
    assert table[clear.pk].status == "qualified"
    assert [table[p.pk].status for p in tied] == ["tied"] * 3
    staff = make_user("staff@mausz.hu", kind=Role.FEDERATION_STAFF, federation=mausz)
    client.force_login(staff)
    page = client.get(reverse("rankings_season", args=[mausz.code, YEAR])).content.decode()
    assert 'id="tie-semifinal"' in page and "II. 10. (5)" in page
    url = reverse("rankings_season_tie", args=[mausz.code, YEAR])
    # Two for one seat, or nobody: refused, nothing stored.
    for chosen in ([tied[0].pk, tied[1].pk], []):
        response = client.post(
            url, {"table": "semifinal", "person": chosen, "reason": "sorsolás"}, follow=True
        )
        assert [m.level for m in response.context["messages"]] == [messages.ERROR]
    assert not SeasonTieChoice.objects.exists()
    response = client.post(
        url, {"table": "semifinal", "person": [tied[2].pk], "reason": "sorsolás a helyszínen"}
    )
    assert response.status_code == 302
    choice = SeasonTieChoice.objects.get()
    assert choice.person_ids == [tied[2].pk] and choice.chosen_by == staff
    table = {e.person_id: e for e in SeasonEntry.objects.filter(season=season, stage=Stage.SEMIFINAL)}
    assert [table[p.pk].status for p in tied] == ["reserve", "reserve", "qualified"]
    assert [table[p.pk].reserve_position for p in tied[:2]] == [1, 2]
    created = open_confirmations(season, Stage.FINAL, timezone.now() + datetime.timedelta(days=3))
    assert {q.person_id for q in created} == {clear.pk, tied[2].pk}


def test_a_new_result_that_changes_the_tie_sets_the_choice_aside(
    season, tied_semifinal, make_user, mausz, make_event, build_result
):
    clear, tied = tied_semifinal
    staff = make_user("staff@mausz.hu", kind=Role.FEDERATION_STAFF, federation=mausz)
    season_service.resolve_tie(staff, season, Stage.SEMIFINAL, [tied[0].pk], "sorsolás")
    second = make_event(
        mausz, event_class="nub_semifinal", date=datetime.date(YEAR, 9, 20), season=YEAR, qualifier_number=2
    )
    play(second, [(tied[1], 3, 0), (tied[2], 3, 0)], build_result)  # two of the three now 15 / -40
    recompute_season(season.pk)
    table = {e.person_id: e.status for e in SeasonEntry.objects.filter(season=season, stage=Stage.SEMIFINAL)}
    assert [table[p.pk] for p in tied] == ["reserve", "tied", "tied"]


@pytest.mark.parametrize("who", ["anonymous", "player", "mbsz_staff"])
def test_only_the_federations_staff_resolve_a_tie(
    season, tied_semifinal, who, make_user, mbsz, mausz, client
):
    clear, tied = tied_semifinal
    if who == "player":
        client.force_login(make_user("jatekos@example.hu"))
    elif who == "mbsz_staff":
        client.force_login(make_user("staff@mbsz.hu", kind=Role.FEDERATION_STAFF, federation=mbsz))
    page = client.get(reverse("rankings_season", args=[mausz.code, YEAR])).content.decode()
    assert 'id="tie-semifinal"' not in page  # the public table shows the status, not the staff's form
    response = client.post(
        reverse("rankings_season_tie", args=[mausz.code, YEAR]),
        {"table": "semifinal", "person": [tied[0].pk], "reason": "x"},
    )
    assert response.status_code in (302, 403, 404)
    if response.status_code == 302:
        assert "login" in response.url
    assert not SeasonTieChoice.objects.exists()


def test_team_championship_and_sport_ulti_invitations(
    mausz, regions, ulti_clubs, make_person, make_event, build_result
):
    dt, ft = regions
    people = [make_person(mausz, ulti_clubs[0]) for _ in range(3 * 20)]
    season = Season.objects.create(federation=mausz, year=YEAR)
    for region, count, offset in ((dt, 11, 0), (ft, 9, 11)):
        event = make_event(
            mausz,
            event_class="team_regional",
            fmt="ulti_team",
            date=datetime.date(YEAR, 6, 1),
            region=region,
            season=YEAR,
        )
        teams = [people[3 * (offset + i) : 3 * (offset + i) + 3] for i in range(count)]
        record_result(event, build_result(event, [(i + 1, i + 1, t, 50 - i, 0) for i, t in enumerate(teams)]))
    # Last year's sport ulti list and this year's final players.
    old = make_event(mausz, event_class="sport_ulti", fmt="sport_ulti", date=datetime.date(YEAR - 1, 8, 1))
    record_result(old, build_result(old, [(i + 1, i + 1, [p]) for i, p in enumerate(people[:30])]))
    final = make_event(mausz, event_class="nub_final", date=datetime.date(YEAR, 11, 1), season=YEAR)
    record_result(final, build_result(final, [(i + 1, i + 1, [p]) for i, p in enumerate(people[25:46])]))
    recompute_season(season.pk)
    finalists = SeasonTeamEntry.objects.filter(season=season, status="finalist")
    assert finalists.count() == 15
    assert finalists.filter(region=dt).count() == 8 and finalists.filter(via="extra").get().region == dt
    assert list(
        SeasonTeamEntry.objects.filter(season=season, region=ft, status="reserve").values_list(
            "reserve_position", flat=True
        )
    ) == [1, 2]
    invited = list(SeasonEntry.objects.filter(season=season, stage=Stage.SPORT_ULTI).order_by("position"))
    # Sport ulti: a third of 30 (9.9, rounded down) score, so last year's list has 9 players; plus this
    # year's 21 finalists, each once.
    assert [e.note for e in invited].count("list") == 9
    assert len(invited) == 9 + 21 and invited[0].person == people[0] and invited[-1].note == "final"
