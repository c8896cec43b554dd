"""The federation's monthly settlement with its clubs (MAUSZ section 2): 800 Ft of each qualifier fee and
400 Ft of each rating tournament player's fee are the federation's, the room rent stays with the club;
money the federation received directly is set against its share. Page and CSV, for whom."""

import csv
import datetime
import io

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from federation.models import Club, Role
from tournaments.models import Entry, EntryMember, Event, Payment
from tournaments.services import payments as service

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 10, 10)


def enter(event, *people, **fields):
    entry = Entry.objects.create(event=event, **fields)
    for i, person in enumerate(people, start=1):
        EntryMember.objects.create(entry=entry, person=person, position=i, confirmed_at=timezone.now())
    return entry


@pytest.fixture
def ulti_world(mausz, ulti_club, make_person, make_user):
    def event(**fields):
        values = dict(
            federation=mausz,
            club=ulti_club,
            format=Event.Format.ULTI_INDIVIDUAL,
            start_date=DAY,
            status=Event.Status.APPROVED,
        )
        values.update(fields)
        return Event.objects.create(**values)

    qualifier = event(title="NUB 1. forduló", event_class=Event.EventClass.NUB_QUALIFIER, qualifier_number=1)
    rating = event(
        title="Értékszámos",
        event_class=Event.EventClass.RATING,
        entry_fee=1500,
        start_date=DAY.replace(day=20),
    )
    elsewhere = event(
        title="Novemberi",
        event_class=Event.EventClass.RATING,
        entry_fee=1500,
        start_date=DAY.replace(month=11),
    )
    people = [make_person(federation=mausz, club=ulti_club) for _ in range(6)]
    q = [enter(qualifier, p) for p in people[:3]]
    q[2].no_show = True  # did not show up, did not withdraw: still owes (VSz 7)
    q[2].save()
    enter(qualifier, people[3], status=Entry.Status.WITHDRAWN)  # owes nothing
    r = [enter(rating, p) for p in people[4:6]]
    enter(elsewhere, people[0])  # another month
    other_club = Club.objects.create(federation=mausz, name="Debreceni Ulti Kör", region=ulti_club.region)
    other = event(
        title="Debreceni értékszámos", club=other_club, event_class=Event.EventClass.RATING, entry_fee=1000
    )
    enter(other, people[5])
    staff = make_user("staff@mausz.hu", kind=Role.FEDERATION_STAFF, federation=mausz)
    admin = make_user("admin@szue.hu", kind=Role.CLUB_ADMIN, club=ulti_club)
    other_admin = make_user("admin@duk.hu", kind=Role.CLUB_ADMIN, club=other_club)
    # The club collected two qualifier fees in cash; one player transferred into the federation's account.
    for entry in q[:2]:
        service.record_payment(entry.pk, admin, amount=1200, method="cash", paid_on=DAY)
    service.record_payment(r[0].pk, staff, amount=1500, method="transfer", paid_on=DAY, payee="federation")
    return dict(
        qualifier=qualifier, rating=rating, club=ulti_club, other_club=other_club, staff=staff, admin=admin,
        other_admin=other_admin,
    )  # fmt: skip


def test_the_shares_of_the_month_per_club(ulti_world, mausz):
    clubs = service.settlement(mausz, 2026, 10)
    by_club = {c.club.pk: c for c in clubs}
    ours = by_club[ulti_world["club"].pk]
    qualifier, rating = ours.events
    assert (qualifier.players, qualifier.fees, qualifier.to_federation, qualifier.to_organiser) == (
        3,
        3 * 1200,
        3 * 800,
        3 * 400,
    )
    assert (rating.players, rating.fees, rating.to_federation, rating.to_organiser) == (2, 3000, 800, 2200)
    assert (qualifier.collected_by_club, rating.received_by_federation) == (2400, 1500)
    assert ours.to_federation == 3200 and ours.balance == 3200 - 1500
    assert by_club[ulti_world["other_club"].pk].to_federation == 400
    assert [e.event.title for c in clubs for e in c.events if e.event.start_date.month != 10] == []


def test_the_page_and_the_csv_for_the_staff(ulti_world, english_pages):
    client = Client()
    client.force_login(ulti_world["staff"])
    page = client.get(reverse("settlement_month", args=["mausz", 2026, 10]))
    html = page.content.decode()
    assert page.status_code == 200 and "NUB 1. forduló" in html and "Debreceni Ulti Kör" in html
    assert "2\u00a0400\u00a0Ft" in html  # the qualifier's share
    response = client.get(reverse("settlement_csv", args=["mausz", 2026, 10]))
    assert response["Content-Type"].startswith("text/csv")
    raw = response.content
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert len(rows) == 1 + 3 + 1 and rows[-1][0] == "All clubs"  # two clubs: the all-clubs total last
    qualifier = next(r for r in rows if r[2] == "NUB 1. forduló")
    assert qualifier[0] == "Szolnoki Ulti Egyesület" and qualifier[1] == "2026.10.10."
    assert rows[0][7:9] == ["Kept by the club (Ft)", "Of which room rent (Ft)"]
    assert qualifier[4:] == ["3", "3600", "2400", "1200", "1200", "2400", "0", "2400"]
    rating = next(r for r in rows if r[2] == "Értékszámos")
    assert rating[7:9] == ["2200", "0"]  # the rest of a rating tournament's fee is no room rent


def test_a_club_admin_reads_his_own_clubs_statement_only(ulti_world):
    client = Client()
    client.force_login(ulti_world["admin"])
    club, other = ulti_world["club"], ulti_world["other_club"]
    html = client.get(reverse("club_settlement_month", args=[club.pk, 2026, 10])).content.decode()
    assert "NUB 1. forduló" in html and "Debreceni értékszámos" not in html
    rows = client.get(reverse("club_settlement_csv", args=[club.pk, 2026, 10])).content.decode("utf-8-sig")
    assert "Debreceni" not in rows and rows.count("\r\n") == 3
    assert client.get(reverse("club_settlement_month", args=[other.pk, 2026, 10])).status_code == 403
    assert client.get(reverse("settlement_month", args=["mausz", 2026, 10])).status_code == 403
    assert client.get(reverse("settlement_csv", args=["mausz", 2026, 10])).status_code == 403


@pytest.mark.parametrize("who, code", [("anonymous", 302), ("staff_mbsz", 403), ("other_admin", 403)])
def test_nobody_else_reads_the_settlement(request, ulti_world, who, code):
    client = Client()
    if who == "staff_mbsz":
        client.force_login(request.getfixturevalue("staff_mbsz"))
    elif who == "other_admin":
        client.force_login(ulti_world["other_admin"])
    for url in (
        reverse("settlement_month", args=["mausz", 2026, 10]),
        reverse("settlement_csv", args=["mausz", 2026, 10]),
        reverse("club_settlement_csv", args=[ulti_world["club"].pk, 2026, 10]),
    ):
        assert client.get(url).status_code == code, url


def test_a_month_that_does_not_exist_is_404(ulti_world):
    client = Client()
    client.force_login(ulti_world["staff"])
    assert client.get(reverse("settlement_month", args=["mausz", 2026, 13])).status_code == 404
    assert client.get(reverse("settlement_csv", args=["mausz", 99999, 1])).status_code == 404


def test_money_received_by_the_federation_counts_against_its_share_only(ulti_world, mausz):
    assert Payment.objects.filter(payee="federation").count() == 1
    ours = next(c for c in service.settlement(mausz, 2026, 10) if c.club == ulti_world["club"])
    assert ours.received_by_federation == 1500 and ours.collected_by_club == 2400


@pytest.fixture
def semifinals(mausz, ulti_club, make_person, make_user):
    """The NUB semifinal's two rounds in one month, hosted by the club: five semifinalists, one withdrawn."""

    def semifinal(number, day):
        return Event.objects.create(
            federation=mausz,
            club=ulti_club,
            format=Event.Format.ULTI_INDIVIDUAL,
            title=f"NUB elődöntő {number}.",
            event_class=Event.EventClass.NUB_SEMIFINAL,
            qualifier_number=number,
            start_date=DAY.replace(month=3, day=day),
            status=Event.Status.APPROVED,
        )

    first, second = semifinal(1, 7), semifinal(2, 21)
    people = [make_person(federation=mausz, club=ulti_club) for _ in range(5)]
    entries = [enter(first, p) for p in people[:4]]
    enter(first, people[4], status=Entry.Status.WITHDRAWN)
    for p in people[:4]:
        enter(second, p)
    staff = make_user("staff-sf@mausz.hu", kind=Role.FEDERATION_STAFF, federation=mausz)
    admin = make_user("admin-sf@szue.hu", kind=Role.CLUB_ADMIN, club=ulti_club)
    service.record_payment(
        entries[0].pk, admin, amount=3000, method="cash", paid_on=DAY.replace(month=3, day=7)
    )
    return dict(first=first, second=second, staff=staff, admin=admin, club=ulti_club)


def test_the_first_semifinal_keeps_2_x_400_room_rent_per_player_for_its_host(semifinals, mausz):
    # MAUSZ 9 (5): 2 x 1,500 Ft a semifinalist at the first semifinal; its host accounts 2 x 400 Ft of it
    # to the federation as room rent. The second semifinal owes nothing and is not on the statement.
    (club,) = service.settlement(mausz, 2026, 3)
    (line,) = club.events
    assert line.event == semifinals["first"]
    assert (line.players, line.fees, line.to_federation) == (4, 4 * 3000, 4 * 2200)
    assert (line.to_organiser, line.room_rent) == (4 * 800, 4 * 800)
    assert (line.room_rent_rule, line.room_rent_players) == ("semifinal", 4)
    assert (club.room_rent, club.balance, line.collected_by_club) == (3200, 8800, 3000)
    assert all(isinstance(v, int) for v in (line.fees, line.to_federation, line.room_rent, line.balance))


def test_the_semifinal_room_rent_on_the_page_its_csv_and_its_pdf(semifinals, english_pages):
    from tests.pdf_reading import pdf_of

    client = Client()
    client.force_login(semifinals["admin"])
    club = semifinals["club"]
    html = client.get(reverse("club_settlement_month", args=[club.pk, 2026, 3])).content.decode()
    assert "Of which room rent" in html and "room rent: 4 × 2 × 400 Ft (both semifinals)" in html
    assert "3\u00a0200\u00a0Ft" in html and "NUB elődöntő 2." not in html
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(reverse("club_settlement_csv", args=[club.pk, 2026, 3])).content.decode(
                    "utf-8-sig"
                )
            ),
            delimiter=";",
        )
    )
    assert [r[2] for r in rows[1:]] == ["NUB elődöntő 1."]
    assert rows[1][4:] == ["4", "12000", "8800", "3200", "3200", "3000", "0", "8800"]
    read = pdf_of(client.get(reverse("club_settlement_pdf", args=[club.pk, 2026, 3])))
    assert "room rent: 4 × 2 × 400 Ft" in read.text and "3 200" in read.text.replace("\u00a0", " ")


def test_the_hungarian_page_and_pdf_show_the_room_rent_in_forints(semifinals):
    from django.utils import translation

    from tests.pdf_reading import pdf_of

    client = Client()
    client.force_login(semifinals["staff"])
    with translation.override("hu"):
        url = reverse("settlement_month", args=["mausz", 2026, 3])
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="hu").content.decode()
        pdf_url = reverse("settlement_pdf", args=["mausz", 2026, 3])
        read = pdf_of(client.get(pdf_url, HTTP_ACCEPT_LANGUAGE="hu"))
    assert '<html lang="hu">' in html and 'class="small text-muted room-rent"' in html
    assert html.count("3\u00a0200\u00a0Ft") >= 2  # the line's room rent and the club's total
    assert "4 × 2 × 400 Ft" in read.text and "2026. március" in read.text


@pytest.fixture
def two_hosts(semifinals, mausz, make_person):
    """The March semifinals at the club (4 semifinalists) and, the same month, a NUB qualifier of 3 players
    at another club: both host clubs keep room rent (MAUSZ 9 (5): 2 x 400 Ft, and 400 Ft, a player)."""
    other = Club.objects.create(federation=mausz, name="Debreceni Ulti Kör", region=semifinals["club"].region)
    qualifier = Event.objects.create(
        federation=mausz,
        club=other,
        format=Event.Format.ULTI_INDIVIDUAL,
        title="NUB 3. forduló",
        event_class=Event.EventClass.NUB_QUALIFIER,
        qualifier_number=3,
        start_date=DAY.replace(month=3, day=14),
        status=Event.Status.APPROVED,
    )
    for _ in range(3):
        enter(qualifier, make_person(federation=mausz, club=other))
    return dict(semifinals, other=other)


def test_all_clubs_total_the_room_rent_the_hosts_keep(two_hosts, mausz):
    total = service.all_clubs(service.settlement(mausz, 2026, 3))
    # Semifinal: 4 x 2 x 1,500 = 12,000 Ft owed, 4 x 2 x 400 = 3,200 room rent; qualifier: 3 x 1,200 =
    # 3,600 owed, 3 x 400 = 1,200 room rent.
    assert (total.players, total.fees) == (7, 12000 + 3600)
    assert (total.to_federation, total.to_organiser, total.room_rent) == (8800 + 2400, 3200 + 1200, 4400)
    assert (total.collected_by_club, total.balance) == (3000, 11200)
    assert total.club is None


def test_all_clubs_room_rent_on_the_page_the_csv_and_the_pdf(two_hosts, english_pages):
    from tests.pdf_reading import pdf_of

    client = Client()
    client.force_login(two_hosts["staff"])
    html = client.get(reverse("settlement_month", args=["mausz", 2026, 3])).content.decode()
    all_clubs = html[html.index("All clubs") :]
    assert 'room-rent-total">4\u00a0400\u00a0Ft' in all_clubs and "15\u00a0600\u00a0Ft" in all_clubs
    raw = client.get(reverse("settlement_csv", args=["mausz", 2026, 3])).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(raw), delimiter=";"))
    assert [r[2] for r in rows[1:-1]] == ["NUB 3. forduló", "NUB elődöntő 1."]  # by club name
    assert rows[-1][0] == "All clubs"
    assert rows[-1][4:] == ["7", "15600", "11200", "4400", "4400", "3000", "0", "11200"]
    text = pdf_of(client.get(reverse("settlement_pdf", args=["mausz", 2026, 3]))).text.replace("\u00a0", " ")
    assert "of which room rent 4 400 Ft" in " ".join(text.split())


def test_one_club_has_no_all_clubs_total(semifinals, english_pages):
    client = Client()
    client.force_login(semifinals["staff"])
    html = client.get(reverse("settlement_month", args=["mausz", 2026, 3])).content.decode()
    assert "room-rent-total" not in html
    raw = client.get(reverse("settlement_csv", args=["mausz", 2026, 3])).content.decode("utf-8-sig")
    assert "All clubs" not in raw
