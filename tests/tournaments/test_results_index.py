"""The results index, the home page, the event page's links and the navbar entries (issue #20)."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from bridge.models import IndividualEvent, PairSession
from federation.models import Role
from teams.models import Round as TeamRound
from tournaments.forms import EventForm
from tournaments.models import Event
from tournaments.services import history
from ulti.models import Group, Stage
from ulti.models import Round as UltiRound

pytestmark = pytest.mark.django_db


def published_pairs(event):
    PairSession.objects.create(event=event, number=1, published_at=timezone.now())
    return event


def published_individual(event):
    IndividualEvent.objects.create(event=event, published_at=timezone.now())
    return event


def published_teams(event):
    TeamRound.objects.create(event=event, number=1, boards=8, method="swiss", published_at=timezone.now())
    return event


def published_ulti(event):
    stage = Stage.objects.create(event=event, number=1, system=Stage.System.SWISS, rounds=3)
    group = Group.objects.create(stage=stage)
    UltiRound.objects.create(
        group=group, number=1, method=UltiRound.Method.SWISS, published_at=timezone.now()
    )
    return event


@pytest.fixture
def results(make_event, mausz, ulti_club, today):
    past = today - datetime.timedelta(days=10)
    ulti = dict(federation=mausz, club=ulti_club, event_class=Event.EventClass.RATING, start_date=past)
    return {
        "pairs": published_pairs(make_event(title="Páros eredmény", start_date=past)),
        "individual": published_individual(
            make_event(title="Egyéni eredmény", format=Event.Format.INDIVIDUAL, start_date=past)
        ),
        "teams": published_teams(
            make_event(title="Csapat eredmény", format=Event.Format.TEAMS, start_date=past)
        ),
        "ulti_individual": published_ulti(
            make_event(title="Ulti egyéni eredmény", format=Event.Format.ULTI_INDIVIDUAL, **ulti)
        ),
        "ulti_team": published_ulti(
            make_event(title="Ulti csapat eredmény", format=Event.Format.ULTI_TEAM, **ulti)
        ),
        "sport_ulti": published_ulti(
            make_event(title="Sportulti eredmény", format=Event.Format.SPORT_ULTI, **ulti)
        ),
    }


def index_rows(client, **params):
    html = client.get(reverse("results"), params).content.decode()
    return dict(re.findall(r'<tr data-format="([a-z_]+)">.*?<a href="([^"]+)">', html, re.S))


def test_index_lists_every_format_with_its_own_results_page(client, results):
    rows = index_rows(client)
    assert rows == {
        "pairs": reverse("bridge_event", args=[results["pairs"].pk]),
        "individual": reverse("bridge_individual", args=[results["individual"].pk]),
        "teams": reverse("teams_event", args=[results["teams"].pk]),
        "ulti_individual": reverse("ulti_event", args=[results["ulti_individual"].pk]),
        "ulti_team": reverse("ulti_event", args=[results["ulti_team"].pk]),
        "sport_ulti": reverse("ulti_event", args=[results["sport_ulti"].pk]),
    }


def test_index_filters_by_year_federation_club_and_format(client, results, bridge_club, ulti_club, today):
    assert set(index_rows(client, federation="mausz")) == {"ulti_individual", "ulti_team", "sport_ulti"}
    assert set(index_rows(client, club=bridge_club.pk)) == {"pairs", "individual", "teams"}
    assert set(index_rows(client, club=ulti_club.pk, event_format="sport_ulti")) == {"sport_ulti"}
    year = results["pairs"].start_date.year
    assert len(index_rows(client, year=year)) == 6
    assert index_rows(client, year=year - 3) == {}
    assert set(index_rows(client, event_format="individual")) == {"individual"}
    # A format nothing scores is no choice; a bad value is a 400 naming the field, not a 500.
    refused = client.get(reverse("results"), {"event_format": "bridge_solitaire"})
    assert refused.status_code == 400


def test_index_hides_unpublished_and_non_public_events(client, make_event, results, today, club_admin):
    draft = published_pairs(make_event(title="Titkos piszkozat", status=Event.Status.DRAFT))
    unpublished = make_event(title="Még nincs eredmény")
    PairSession.objects.create(event=unpublished, number=1)
    for who in (None, club_admin):  # the club's admin runs the draft, but the index is the public one
        if who:
            client.force_login(who)
        html = client.get(reverse("results")).content.decode()
        assert draft.title not in html and unpublished.title not in html
        assert results["pairs"].title in html


def test_home_lists_coming_events_from_today_and_latest_results(client, make_event, results, today):
    old = make_event(title="Régi verseny", start_date=today - datetime.timedelta(days=400))
    running = make_event(
        title="Ma is tart",
        start_date=today - datetime.timedelta(days=1),
        end_date=today + datetime.timedelta(1),
    )
    on_today = make_event(title="Mai verseny", start_date=today)
    later = make_event(title="Későbbi verseny", start_date=today + datetime.timedelta(days=5))
    html = client.get(reverse("home")).content.decode()
    coming = html.split('id="upcoming-events"')[1].split("</ul>")[0]
    assert old.title not in coming
    positions = [coming.index(e.title) for e in (running, on_today, later)]
    assert positions == sorted(positions)
    latest = html.split('id="latest-results"')[1].split("</ul>")[0]
    assert reverse("teams_event", args=[results["teams"].pk]) in latest
    assert reverse("ulti_event", args=[results["sport_ulti"].pk]) in latest


def test_event_page_links_each_format_to_its_own_results_page(client, results, make_event):
    for fmt, url_name in (("pairs", "bridge_event"), ("teams", "teams_event"), ("ulti_team", "ulti_event")):
        event = results[fmt]
        html = client.get(reverse("event_detail", args=[event.pk])).content.decode()
        assert reverse(url_name, args=[event.pk]) in html
    individual = make_event(title="Egyéni", format=Event.Format.INDIVIDUAL)
    html = client.get(reverse("event_detail", args=[individual.pk])).content.decode()
    # individual events are scored (issue #20): their own results page, never a pairs, teams or ulti one
    assert reverse("bridge_individual", args=[individual.pk]) in html
    for url_name in ("bridge_event", "teams_event", "ulti_event"):
        assert reverse(url_name, args=[individual.pk]) not in html
    assert reverse("event_ics", args=[individual.pk]) in html


def test_announcement_form_offers_the_individual_format_now_it_is_scored(club_admin, make_event):
    new = EventForm(user=club_admin)
    assert "individual" in dict(new.fields["format"].choices)
    assert "pairs" in dict(new.fields["format"].choices)
    existing = make_event(format=Event.Format.INDIVIDUAL, status=Event.Status.DRAFT)
    assert "individual" in dict(EventForm(user=club_admin, instance=existing).fields["format"].choices)


def test_event_ics_for_approved_events_only(client, make_event, club_admin):
    event = make_event(title="Naptárba")
    answer = client.get(reverse("event_ics", args=[event.pk]))
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/calendar")
    assert b"SUMMARY:Napt" in answer.content and answer.content.count(b"BEGIN:VEVENT") == 1
    draft = make_event(title="Piszkozat", status=Event.Status.DRAFT)
    assert client.get(reverse("event_ics", args=[draft.pk])).status_code == 404
    client.force_login(club_admin)
    assert client.get(reverse("event_ics", args=[draft.pk])).status_code == 404


def nav(client):
    return client.get(reverse("home")).content.decode().split("</nav>")[0]


def test_navbar_entries_by_role(client, make_user, club_admin, staff_mbsz, make_event, make_player):
    director = make_user("vezeto@example.hu", kind=Role.DIRECTOR, event=make_event())
    player = make_player().user
    cases = [
        (None, set()),
        (player, set()),
        (director, {"organiser_events"}),
        (club_admin, {"organiser_events", "event_create"}),
        (staff_mbsz, {"organiser_events", "event_create", "approval_queue"}),
    ]
    for user, expected in cases:
        client.logout()
        if user:
            client.force_login(user)
        html = nav(client)
        shown = {
            name for name in ("organiser_events", "event_create", "approval_queue") if reverse(name) in html
        }
        assert shown == expected, (user, shown)
        # Whatever is offered can be followed.
        for name in shown:
            assert client.get(reverse(name)).status_code == 200, (user, name)


def test_approval_queue_is_for_federation_staff(client, make_event, staff_mbsz, staff_mausz, club_admin):
    waiting = make_event(title="Beadott kiírás", status=Event.Status.SUBMITTED)
    client.force_login(staff_mbsz)
    assert waiting.title in client.get(reverse("approval_queue")).content.decode()
    client.force_login(staff_mausz)
    page = client.get(reverse("approval_queue"))
    assert page.status_code == 200 and waiting.title not in page.content.decode()
    client.force_login(club_admin)
    assert client.get(reverse("approval_queue")).status_code == 403
    client.logout()
    assert client.get(reverse("approval_queue")).status_code == 302


def test_appeals_button_only_for_who_may_see_the_desk(client, make_event, make_user, make_player):
    event = make_event(title="Óvásos verseny")
    director = make_user("tv@example.hu", kind=Role.DIRECTOR, event=event)
    desk = reverse("appeals_event", args=[event.pk])
    for user, offered in ((None, False), (make_player().user, False), (director, True)):
        client.logout()
        if user:
            client.force_login(user)
        assert (desk in client.get(reverse("event_detail", args=[event.pk])).content.decode()) is offered
        if offered:
            assert client.get(desk).status_code == 200


def test_rule_set_names_not_keys(client, make_event, mausz, ulti_club, staff_mausz):
    event = make_event(
        federation=mausz, club=ulti_club, format=Event.Format.ULTI_INDIVIDUAL, rule_set="szolnok"
    )
    client.force_login(staff_mausz)
    html = client.get(reverse("event_detail", args=[event.pk])).content.decode()
    assert "Szolnoki klubszabály" in html or "Szolnok club rules" in html
    assert ">szolnok<" not in html
    form = client.get(reverse("event_create")).content.decode()
    assert 'value="mausz" label="MAUSZ 2013"' in form


def test_history_shows_labels_and_local_times(client, make_event, club_admin, make_user):
    event = make_event(title="Történet")
    change = history.record(
        event,
        club_admin,
        history.EventChange.Action.EDITED,
        details={"entry_deadline": ["2026-03-01 09:00:00+00:00", None], "capacity": [10, 12]},
    )
    history.record(event, club_admin, history.EventChange.Action.DIRECTOR, details={"director": "vezeto"})
    with translation.override("en"):
        rows = history.readable_changes(change)
    with_labels = {label.lower(): (old, new) for label, old, new in rows}
    assert with_labels["entry deadline"] == ("2026. 03. 01. 10:00", "—")  # Europe/Budapest, winter time
    client.force_login(club_admin)
    html = client.get(reverse("event_detail", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "vezeto" in html and "v → e" not in html and "<code>entry_deadline</code>" not in html
    assert "2026. 03. 01. 10:00" in html


def test_scheme_page_shows_labels_not_keys(client, mbsz, mausz):
    for federation, keys in ((mbsz, ("announced", "championship")), (mausz, ("nub_final", "sport_ulti"))):
        html = client.get(reverse("rankings_scheme", args=[federation.code]), HTTP_ACCEPT_LANGUAGE="en")
        assert html.status_code == 200
        text = html.content.decode()
        cells = re.findall(r"<tr>\s*<td>([^<]+)</td>", text)
        assert cells and not set(keys) & set(cells), cells
        assert str(Event.EventClass(keys[0]).label) in cells
        assert "docs/masterpoints.md" not in text


def test_index_names_the_organiser_club_then_federation_once(client, results, make_event, bridge_club, mbsz):
    """A federation's own event (no club) reads "MBSz", not "MBSz · MBSz"."""
    own = published_teams(
        make_event(
            title="Szövetségi csapat",
            format=Event.Format.TEAMS,
            club=None,
            start_date=results["pairs"].start_date,
        )
    )
    html = client.get(reverse("results")).content.decode()
    cells = dict(
        re.findall(r'<a href="[^"]+">([^<]+)</a></td>.*?<td class="small">([^<]+)</td>\s*</tr>', html, re.S)
    )
    assert cells[own.title] == "MBSz"
    assert cells["Páros eredmény"] == f"{bridge_club.name} · MBSz"
