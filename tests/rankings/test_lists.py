"""Stored lists: shared places, filters, search, CSV, licence filtering, SQL equal to the engine."""

import csv
import datetime
import io
from decimal import Decimal

import openpyxl
import pytest
from django.db import transaction
from django.urls import reverse

from federation.models import Licence, Person
from rankings.engine.standings_list import rank
from rankings.models import ListEntry, ListKind
from rankings.services.history import award_history
from rankings.services.ledger import record_result
from rankings.services.lists import licences_changed, recompute_all_lists, recompute_stale_lists
from rankings.services.schemes import change_scheme, current_scheme
from rankings.services.state import data_changed, needs_licence
from rankings.text import fold

pytestmark = pytest.mark.django_db
THIS_YEAR = datetime.date.today().year


@pytest.fixture
def bridge_lists(mbsz, bridge_club, other_bridge_club, make_person, make_event, build_result):
    """Ten pairs over two events; equal totals for some players."""
    people = {
        "anna": make_person(mbsz, bridge_club, first_name="Anna", last_name="Ács", gender=Person.FEMALE),
        "bela": make_person(mbsz, bridge_club, first_name="Béla", last_name="Szűcs"),
        "cili": make_person(
            mbsz,
            other_bridge_club,
            first_name="Cili",
            last_name="Kovács",
            gender=Person.FEMALE,
            birth_date=datetime.date(THIS_YEAR - 20, 3, 1),
        ),
        "dani": make_person(
            mbsz,
            other_bridge_club,
            first_name="Dani",
            last_name="Kovács",
            birth_date=datetime.date(THIS_YEAR - 20, 3, 1),
        ),
        "ede": make_person(
            mbsz, bridge_club, first_name="Ede", last_name="Öreg", birth_date=datetime.date(1940, 1, 1)
        ),
        "feri": make_person(
            mbsz, bridge_club, first_name="Feri", last_name="Öreg", birth_date=datetime.date(1941, 1, 1)
        ),
    }
    fill = [make_person(mbsz, bridge_club) for _ in range(14)]
    p = people
    for date in (datetime.date(THIS_YEAR, 2, 1), datetime.date(THIS_YEAR, 5, 1)):
        event = make_event(mbsz, event_class="championship", date=date)
        rows = [(1, 1, [p["anna"], p["bela"]]), (2, 3, [p["cili"], p["dani"]]), (2, 3, [p["ede"], p["feri"]])]
        rows += [(i + 4, i + 4, fill[2 * i : 2 * i + 2]) for i in range(7)]
        record_result(event, build_result(event, rows))
    old = make_event(mbsz, event_class="championship", date=datetime.date(THIS_YEAR - 1, 5, 1))
    record_result(
        old,
        build_result(
            old, [(1, 1, [p["ede"], p["feri"]])] + [(i + 2, i + 2, fill[2 * i : 2 * i + 2]) for i in range(7)]
        ),
    )
    recompute_all_lists(mbsz)
    return people


def test_shared_places_and_stable_order(mbsz, bridge_lists):
    rows = list(
        ListEntry.objects.filter(federation=mbsz, kind=ListKind.ANNUAL, year=THIS_YEAR).order_by("position")
    )
    top = [(r.name, r.place_from, r.place_to) for r in rows[:6]]
    assert top == [
        ("Ács Anna", 1, 2),
        ("Szűcs Béla", 1, 2),
        ("Kovács Cili", 3, 6),
        ("Kovács Dani", 3, 6),
        ("Öreg Ede", 3, 6),
        ("Öreg Feri", 3, 6),
    ]
    # All-time: the previous year's win puts the Öreg pair on top.
    alltime = ListEntry.objects.filter(federation=mbsz, kind=ListKind.ALLTIME).order_by("position")
    assert [r.name for r in alltime[:2]] == ["Öreg Ede", "Öreg Feri"]


def test_the_sql_list_equals_the_engine(mbsz, bridge_lists):
    rows = list(ListEntry.objects.filter(federation=mbsz, kind=ListKind.ANNUAL, year=THIS_YEAR))
    expected = rank(rows, score=lambda r: r.total, order_key=lambda r: (fold(r.name), r.person_id))
    assert [(r.item.person_id, r.place_from, r.place_to, r.position) for r in expected] == [
        (r.person_id, r.place_from, r.place_to, r.position) for r in sorted(rows, key=lambda r: r.position)
    ]


def page(client, mbsz, **params):
    response = client.get(reverse("rankings_masterpoints", args=[mbsz.code]), params)
    assert response.status_code == 200
    return response.content.decode()


def test_filters_and_search(client, mbsz, bridge_lists, other_bridge_club):
    html = page(client, mbsz)
    assert "Ács Anna" in html and "1-2." in html
    html = page(client, mbsz, club=other_bridge_club.pk)
    assert "Kovács Cili" in html and "Ács Anna" not in html
    # Junior list: its own places.
    html = page(client, mbsz, category="junior")
    assert "Kovács Cili" in html and "Öreg Ede" not in html and "1-2." in html
    html = page(client, mbsz, category="senior")
    assert "Öreg Ede" in html and "Kovács Cili" not in html
    html = page(client, mbsz, category="women")
    assert "Ács Anna" in html and "Kovács Cili" in html and "Szűcs Béla" not in html
    # Search without accents, by member number, and the all-time list.
    assert "Szűcs Béla" in page(client, mbsz, q="szucs")
    member = bridge_lists["cili"].memberships.get().member_number
    html = page(client, mbsz, q=member)
    assert "Kovács Cili" in html and "Kovács Dani" not in html
    assert "Öreg Ede" in page(client, mbsz, year="all")
    assert "Nobody on this list yet" in page(client, mbsz, year="1990") or "Senki" in page(
        client, mbsz, year="1990"
    )


def test_csv_export(client, mbsz, bridge_lists):
    response = client.get(reverse("rankings_masterpoints_csv", args=[mbsz.code]), {"category": "women"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    raw = b"".join(response.streaming_content)
    # Hungarian Excel: a byte-order mark, ";" between fields, decimal comma.
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert len(rows[0]) == 6
    assert [r[1] for r in rows[1:]] == ["Ács Anna", "Kovács Cili"]
    assert rows[1][0] == "1" and rows[2][0] == "2"
    assert "," in rows[1][4] and "." not in rows[1][4]


def test_xlsx_export_holds_the_same_rows_with_numbers_as_numbers(client, mbsz, bridge_lists):
    response = client.get(reverse("rankings_masterpoints_xlsx", args=[mbsz.code]), {"category": "women"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert len(rows[0]) == 6
    assert [r[1] for r in rows[1:]] == ["Ács Anna", "Kovács Cili"]
    assert isinstance(rows[1][4], int | float) and rows[1][4] > 0


def test_licence_filtering_on_the_current_ulti_lists(
    mausz, ulti_club, make_person, make_event, build_result, licence
):
    people = [make_person(mausz, ulti_club) for _ in range(15)]
    for p in people[1:]:
        licence(p, mausz, THIS_YEAR)
    licence(people[0], mausz, THIS_YEAR - 1)  # last year's licence does not count
    event = make_event(mausz, event_class="sport_ulti", fmt="sport_ulti", date=datetime.date(THIS_YEAR, 3, 1))
    record_result(event, build_result(event, [(i + 1, i + 1, [p]) for i, p in enumerate(people)]))
    recompute_all_lists(mausz)

    def listed(kind, year):
        return set(
            ListEntry.objects.filter(federation=mausz, kind=kind, year=year).values_list(
                "person_id", flat=True
            )
        )

    assert people[0].pk not in listed(ListKind.ANNUAL, THIS_YEAR)
    assert people[0].pk not in listed(ListKind.ALLTIME, 0)
    top = ListEntry.objects.get(federation=mausz, kind=ListKind.ANNUAL, year=THIS_YEAR, position=1)
    assert top.person_id == people[1].pk and top.place_from == 1
    # Licensed now: back on the lists (the licence signal marks them stale, the task rebuilds them).
    Licence.objects.create(person=people[0], federation=mausz, year=THIS_YEAR)
    licences_changed(mausz.pk)
    recompute_stale_lists(mausz.pk)
    assert people[0].pk in listed(ListKind.ANNUAL, THIS_YEAR)
    assert (
        ListEntry.objects.get(
            federation=mausz, kind=ListKind.ANNUAL, year=THIS_YEAR, person=people[0]
        ).position
        == 1
    )


def test_the_licence_signal_publishes_once_per_transaction(
    mausz, make_person, django_capture_on_commit_callbacks
):
    people = [make_person(mausz) for _ in range(3)]
    with django_capture_on_commit_callbacks() as callbacks:
        for p in people:
            Licence.objects.create(person=p, federation=mausz, year=THIS_YEAR)
    assert [c.task.name for c in callbacks].count("rankings.tasks.licences_changed") == 1


def test_a_licence_rolled_back_does_not_stop_the_next_one_publishing(
    mausz, make_person, django_capture_on_commit_callbacks
):
    first, second = make_person(mausz), make_person(mausz)
    with django_capture_on_commit_callbacks() as callbacks:
        try:
            with transaction.atomic():
                Licence.objects.create(person=first, federation=mausz, year=THIS_YEAR)
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
        Licence.objects.create(person=second, federation=mausz, year=THIS_YEAR)
    assert [c.task.name for c in callbacks].count("rankings.tasks.licences_changed") == 1


def test_a_licence_saved_while_the_broker_is_down_is_saved_without_an_error(
    mausz, make_person, broker_down, django_capture_on_commit_callbacks
):
    person = make_person(mausz)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic():
            Licence.objects.create(person=person, federation=mausz, year=THIS_YEAR)
    assert len(callbacks) == 1  # the publish was tried after the commit, and failed quietly
    assert Licence.objects.filter(person=person, year=THIS_YEAR).exists()


def test_the_licence_admin_saves_while_the_broker_is_down(
    admin_client, mausz, make_person, broker_down, django_capture_on_commit_callbacks
):
    person = make_person(mausz)
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            reverse("admin:federation_licence_add"),
            {
                "person": person.pk,
                "federation": mausz.pk,
                "year": THIS_YEAR,
                "number": "L-1",
                "issued_on": "2026-01-05",
            },
        )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Licence.objects.filter(person=person, year=THIS_YEAR).exists()


def test_a_bridge_list_ignores_ulti_licences(mbsz, bridge_lists):
    assert needs_licence(mbsz, ListKind.ANNUAL, THIS_YEAR) is False
    # Nobody holds a licence, yet everybody who scored is listed (4 scoring pairs of 10).
    assert not Licence.objects.exists()
    assert ListEntry.objects.filter(federation=mbsz, kind=ListKind.ANNUAL, year=THIS_YEAR).count() == 8


def test_stale_lists_say_processing(client, mbsz, bridge_lists):
    data_changed(mbsz.pk, [(ListKind.ANNUAL, THIS_YEAR)])
    html = page(client, mbsz)
    assert 'class="alert alert-warning processing"' in html
    recompute_stale_lists(mbsz.pk)
    assert "processing" not in page(client, mbsz).split("<main")[1].split("<form")[0]


def test_player_page_history_and_chart(client, mbsz, bridge_lists):
    anna = bridge_lists["anna"]
    response = client.get(reverse("rankings_player", args=[mbsz.code, anna.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<svg" in html and "<polyline" in html and "cdn" not in html.lower()
    total = sum(a.amount for a in award_history(anna, mbsz))
    assert f"{total:.2f}".replace(".", ",") in html or f"{total:.2f}" in html
    assert Decimal(total) > 0


def test_pages_by_stored_positions(client, mbsz, bridge_club, make_person, make_event, build_result):
    """Whole lists and category lists are paged by stored positions; search and club filters too."""
    rules = current_scheme(mbsz).rules
    rules = {**rules, "classes": {**rules["classes"], "club": {"first": "100", "share": "1", "min_field": 1}}}
    change_scheme(mbsz, rules, datetime.date(2000, 1, 1), "everybody scores")
    juniors = {i for i in range(0, 130, 3)}
    people = [
        make_person(
            mbsz, bridge_club, birth_date=datetime.date(THIS_YEAR - 20 if i in juniors else 1970, 1, 1)
        )
        for i in range(130)
    ]
    event = make_event(mbsz, event_class="club", date=datetime.date(THIS_YEAR, 4, 1))
    record_result(event, build_result(event, [(i + 1, i + 1, [p]) for i, p in enumerate(people)]))
    recompute_all_lists(mbsz)
    url = reverse("rankings_masterpoints", args=[mbsz.code])

    def names(response):
        return [r.person_id for r in response.context["rows"]]

    second = client.get(url, {"page": 2})
    assert names(second) == [p.pk for p in people[50:100]]
    assert second.context["page"].paginator.count == 130 and second.context["page"].paginator.num_pages == 3
    assert names(client.get(url, {"page": 3})) == [p.pk for p in people[100:]]
    junior = [p.pk for i, p in enumerate(people) if i in juniors]
    response = client.get(url, {"category": "junior"})
    assert names(response) == junior[:44] and response.context["rows"][0].shown_place == "1"
    assert response.context["page"].paginator.count == len(junior)
    senior_pages = client.get(url, {"category": "senior", "page": 2})
    assert names(senior_pages) == [p.pk for i, p in enumerate(people) if i not in juniors][50:]
    # Search results and club filters are paged too.
    found = client.get(url, {"q": "teszt", "page": 2})
    assert names(found) == [p.pk for p in people[50:100]]
    assert names(client.get(url, {"club": bridge_club.pk, "page": 3})) == [p.pk for p in people[100:]]
