"""Payment receipts and the settlement statement as PDF: what they say (read back with pypdfium2) and who
may open them (the people of the entry's payments page; the settlement's readers)."""

# ruff: noqa: F811  (the fixtures imported from the payment tests are parameters here)
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from federation.models import Role
from tests.pdf_reading import pdf_of
from tests.tournaments.test_payments import director, pair, pay  # noqa: F401  (fixtures)
from tests.tournaments.test_payments_settlement import ulti_world  # noqa: F401  (fixture)
from tournaments.engine.payments import receipt_number
from tournaments.models import Payment

pytestmark = pytest.mark.django_db


def _client(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _receipt_url(payment):
    return reverse("payment_receipt", args=[payment.entry_id, payment.pk])


def test_receipt_numbers_name_the_federation_the_year_and_mark_refunds():
    assert receipt_number("mbsz", 2026, 123, refund=False) == "MBSZ-2026-000123"
    assert receipt_number("mausz", 2027, 1234567, refund=True) == "MAUSZ-V-2027-1234567"


def test_a_receipt_shows_the_payment_in_hungarian(pair, club_admin):
    club_admin.first_name, club_admin.last_name = "Ödön", "Szűts"
    club_admin.save()
    payment = pay(pair, club_admin, 12500, method=Payment.Method.CARD, note="helyszínen")
    member = pair.members.first().person
    with translation.override("hu"):
        read = pdf_of(_client(member.user).get(_receipt_url(payment), HTTP_ACCEPT_LANGUAGE="hu"))
    assert read.pages == 1 and read.ink > 500
    event = pair.event
    year = timezone.localtime(payment.recorded_at).year
    assert f"{event.federation.code.upper()}-{year}-{payment.pk:06d}" in read.text
    assert "12 500 Ft" in read.text
    for text in (
        member.full_name,
        event.title,
        event.club.name,
        event.federation.name,
        "Szűts",
        "helyszínen",
    ):
        assert text in read.text, text
    assert f"{payment.paid_on.year}. " in read.text  # a Hungarian date


@pytest.mark.usefixtures("english_pages")
def test_a_refund_gets_a_refund_receipt(pair, club_admin):
    pay(pair, club_admin, 4000)
    refund = pay(pair, club_admin, 1500, refund=True, note="túlfizetés")
    with translation.override("en"):
        read = pdf_of(_client(club_admin).get(_receipt_url(refund), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Refund receipt" in read.text and "Amount paid back" in read.text
    assert "1 500 Ft" in read.text and "-1" not in read.text and "túlfizetés" in read.text
    assert f"-V-{timezone.localtime(refund.recorded_at).year}-{refund.pk:06d}" in read.text


@pytest.mark.usefixtures("english_pages")
def test_money_the_federation_received_names_the_federation_as_receiver(ulti_world):
    payment = Payment.objects.get(payee=Payment.Payee.FEDERATION)
    with translation.override("en"):
        read = pdf_of(_client(ulti_world["staff"]).get(_receipt_url(payment), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Received by Magyar Ultiszövetség" in read.text and "Szolnoki" not in read.text


def test_the_payments_page_links_each_receipt(pair, club_admin):
    payment = pay(pair, club_admin, 4000)
    html = _client(club_admin).get(reverse("entry_payments", args=[pair.pk])).content.decode()
    assert _receipt_url(payment) in html


@pytest.mark.parametrize("who", ["member", "club_admin", "director", "staff_mbsz", "superuser"])
def test_who_sees_the_payments_page_opens_its_receipts(request, who, pair, club_admin, make_user):
    payment = pay(pair, club_admin, 4000)
    if who == "member":
        user = pair.members.first().person.user
    elif who == "superuser":
        user = _superuser()
    else:
        user = request.getfixturevalue(who)
    client = _client(user)
    assert client.get(reverse("entry_payments", args=[pair.pk])).status_code == 200
    assert pdf_of(client.get(_receipt_url(payment))).pages == 1


def _superuser():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_superuser("root@example.hu", "root@example.hu", "x-Very-long-1")


@pytest.mark.parametrize(
    "who", ["anonymous", "stranger", "other_club_admin", "staff_mausz", "other_director"]
)
def test_nobody_else_opens_a_receipt(request, who, pair, club_admin, make_user, make_event, make_player):
    payment = pay(pair, club_admin, 4000)
    if who == "anonymous":
        user = None
    elif who == "stranger":
        user = make_player().user
    elif who == "other_director":
        user = make_user("td2@example.hu", kind=Role.DIRECTOR, event=make_event(title="Másik"))
    else:
        user = request.getfixturevalue(who)
    client = _client(user)
    page = client.get(reverse("entry_payments", args=[pair.pk])).status_code
    response = client.get(_receipt_url(payment))
    assert response.status_code == page and response.status_code in (302, 403, 404)
    assert response.get("Content-Type") != "application/pdf"


def test_another_entrys_payment_is_not_found_under_this_entry(pair, pairs_event, club_admin, make_player):
    from tests.tournaments.test_payments import enter

    mine = pay(pair, club_admin, 4000)
    other = enter(pairs_event, make_player(), make_player())
    theirs = pay(other, club_admin, 4000)
    client = _client(pair.members.first().person.user)
    assert client.get(reverse("payment_receipt", args=[pair.pk, theirs.pk])).status_code == 404
    assert client.get(reverse("payment_receipt", args=[other.pk, theirs.pk])).status_code in (403, 404)
    assert client.get(reverse("payment_receipt", args=[pair.pk, mine.pk])).status_code == 200


def test_the_settlement_statement_pdf_for_the_staff(ulti_world):
    with translation.override("hu"):
        response = _client(ulti_world["staff"]).get(
            reverse("settlement_pdf", args=["mausz", 2026, 10]), HTTP_ACCEPT_LANGUAGE="hu"
        )
    read = pdf_of(response)
    assert read.pages >= 1 and read.ink > 500
    assert "settlement-mausz-2026-10.pdf" in response["Content-Disposition"]
    for text in (
        "2026. október",
        "Szolnoki Ulti Egyesület",
        "Debreceni Ulti Kör",
        "NUB 1. forduló",
        "Értékszámos",
    ):
        assert text in read.text, text
    assert "3 600 Ft" in read.text and "2 400 Ft" in read.text  # the qualifier's fees and share
    assert "Novemberi" not in read.text


def test_the_club_admin_reads_his_own_clubs_statement_pdf_only(ulti_world):
    client = _client(ulti_world["admin"])
    club, other = ulti_world["club"], ulti_world["other_club"]
    read = pdf_of(client.get(reverse("club_settlement_pdf", args=[club.pk, 2026, 10])))
    assert "NUB 1. forduló" in read.text and "Debreceni" not in read.text
    assert client.get(reverse("club_settlement_pdf", args=[other.pk, 2026, 10])).status_code == 403
    assert client.get(reverse("settlement_pdf", args=["mausz", 2026, 10])).status_code == 403
    html = client.get(reverse("club_settlement_month", args=[club.pk, 2026, 10])).content.decode()
    assert reverse("club_settlement_pdf", args=[club.pk, 2026, 10]) in html


@pytest.mark.parametrize("who, code", [("anonymous", 302), ("staff_mbsz", 403), ("other_admin", 403)])
def test_nobody_else_reads_the_settlement_pdf(request, ulti_world, who, code):
    user = {"anonymous": None, "other_admin": ulti_world["other_admin"]}.get(who) or (
        request.getfixturevalue(who) if who == "staff_mbsz" else None
    )
    client = _client(user)
    for url in (
        reverse("settlement_pdf", args=["mausz", 2026, 10]),
        reverse("club_settlement_pdf", args=[ulti_world["club"].pk, 2026, 10]),
    ):
        assert client.get(url).status_code == code, url


def test_a_month_that_does_not_exist_is_404(ulti_world):
    client = _client(ulti_world["staff"])
    assert client.get(reverse("settlement_pdf", args=["mausz", 2026, 13])).status_code == 404
