"""Recording payments and refunds of entries: who may, the paid / part-paid / unpaid / refunded status in
the entry list, the ledgers and the player's own page, no-show fees (VSz 7) and the transfer reference."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from federation.models import Notification, Role
from federation.services.notifications import address_of
from tournaments.engine.payments import reference_for
from tournaments.models import Entry, EntryMember, Payment
from tournaments.refusals import Refused
from tournaments.services import entries as entry_service
from tournaments.services import payments as service

pytestmark = pytest.mark.django_db


def enter(event, *people, **fields):
    entry = Entry.objects.create(event=event, **fields)
    for i, person in enumerate(people, start=1):
        EntryMember.objects.create(entry=entry, person=person, position=i, confirmed_at=timezone.now())
    return entry


@pytest.fixture
def pair(pairs_event, make_player):
    me, partner = make_player(), make_player()
    return enter(pairs_event, me, partner)  # 2 x 2,000 Ft


@pytest.fixture
def director(make_user, pairs_event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=pairs_event)


def pay(entry, user, amount, **extra):
    return service.record_payment(
        entry.pk,
        user,
        amount=amount,
        method=extra.pop("method", Payment.Method.CASH),
        paid_on=extra.pop("paid_on", timezone.localdate()),
        **extra,
    )


def status(entry):
    return service.entry_payments(Entry.objects.get(pk=entry.pk)).state.status


@pytest.mark.parametrize("who", ["club_admin", "director", "staff_mbsz"])
def test_the_organiser_the_director_and_the_staff_record_a_payment(request, who, pair):
    user = request.getfixturevalue(who)
    payment = pay(pair, user, 1500, note="helyszínen")
    assert (payment.amount, payment.recorded_by, payment.payee) == (1500, user, Payment.Payee.ORGANISER)
    assert status(pair) == "part_paid"


@pytest.mark.parametrize("who", ["other_club_admin", "staff_mausz", "player", "other_director"])
def test_nobody_else_records_a_payment(request, who, pair, make_user, make_event, make_player):
    if who == "player":
        user = pair.members.first().person.user
    elif who == "other_director":
        user = make_user("td2@example.hu", kind=Role.DIRECTOR, event=make_event(title="Másik"))
    else:
        user = request.getfixturevalue(who)
    with pytest.raises(PermissionDenied):
        pay(pair, user, 4000)
    assert not Payment.objects.exists()


@pytest.mark.usefixtures("english_pages")
def test_status_runs_from_unpaid_to_paid_and_a_refund_is_a_negative_row_with_a_reason(pair, club_admin):
    assert status(pair) == "unpaid"
    pay(pair, club_admin, 1000)
    assert status(pair) == "part_paid"
    pay(pair, club_admin, 3000, method=Payment.Method.CARD)
    assert status(pair) == "paid"
    with pytest.raises(Refused) as refused:
        pay(pair, club_admin, 4000, refund=True)
    assert "reason" in refused.value.messages[0]
    with pytest.raises(Refused) as refused:
        pay(pair, club_admin, 4001, refund=True, note="túl sok")
    assert "4000" in refused.value.messages[0]
    assert Payment.objects.count() == 2  # nothing written by the refusals
    entry_service.withdraw(pair.pk, club_admin)
    state = service.entry_payments(Entry.objects.get(pk=pair.pk)).state
    assert (state.status, state.refund_due) == ("paid", 4000)  # withdrawn: nothing owed, all to pay back
    refund = pay(pair, club_admin, 4000, refund=True, note="visszalépett")
    assert refund.amount == -4000 and refund.is_refund
    assert status(pair) == "refunded"


def test_payment_rows_are_never_changed_or_deleted(pair, club_admin):
    payment = pay(pair, club_admin, 4000)
    payment.amount = 1
    with pytest.raises(TypeError):
        payment.save()
    with pytest.raises(TypeError):
        payment.delete()
    with pytest.raises(TypeError):
        Payment.objects.filter(pk=payment.pk).update(amount=1)


@pytest.mark.parametrize("amount", [0, -5, 2.5, True])
def test_amounts_are_positive_whole_forints(pair, club_admin, amount):
    with pytest.raises(Refused):
        pay(pair, club_admin, amount)


def test_a_date_in_the_future_is_refused(pair, club_admin):
    with pytest.raises(Refused):
        pay(pair, club_admin, 4000, paid_on=timezone.localdate() + datetime.timedelta(days=2))


def test_only_the_federations_staff_books_money_the_federation_received(pair, club_admin, staff_mbsz):
    with pytest.raises(Refused):
        pay(pair, club_admin, 4000, payee=Payment.Payee.FEDERATION)
    assert pay(pair, staff_mbsz, 4000, payee=Payment.Payee.FEDERATION).payee == "federation"


@pytest.mark.usefixtures("english_pages")
def test_a_no_show_owes_its_fee_and_it_shows_as_a_no_show_fee(make_event, make_player, club_admin, today):
    event = make_event(start_date=today)
    entry = enter(event, make_player(), make_player())
    entry_service.mark_no_show(entry.pk, club_admin, True)
    row = service.entry_payments(Entry.objects.get(pk=entry.pk))
    assert (row.fee.total, row.state.status, row.no_show_fee) == (4000, "unpaid", True)
    client = Client()
    client.force_login(club_admin)
    page = client.get(reverse("manage_entries", args=[event.pk])).content.decode()
    assert "no-show fee (VSz 7)" in page and 'data-payment-status="unpaid"' in page


# The pages


def test_the_entry_payments_page_records_for_the_organiser_and_shows_the_player_his_own(pair, club_admin):
    client = Client()
    client.force_login(club_admin)
    url = reverse("entry_payments", args=[pair.pk])
    response = client.post(
        url,
        {
            "kind": "payment",
            "amount": "4000",
            "method": "transfer",
            "paid_on": timezone.localdate().isoformat(),
        },
    )
    assert response.status_code == 302
    assert status(pair) == "paid"
    player = Client()
    player.force_login(pair.members.first().person.user)
    page = player.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert reference_for(pair.pk) in html and 'data-payment-status="paid"' in html
    assert 'id="record-payment"' not in html  # the player sees, does not record
    assert player.post(url, {"kind": "payment", "amount": "1", "method": "cash"}).status_code == 403
    assert Payment.objects.count() == 1


@pytest.mark.usefixtures("english_pages")
def test_a_refused_refund_on_the_page_writes_nothing(pair, club_admin):
    pay(pair, club_admin, 1000)
    client = Client()
    client.force_login(club_admin)
    response = client.post(
        reverse("entry_payments", args=[pair.pk]),
        {"kind": "refund", "amount": "1000", "method": "cash", "paid_on": timezone.localdate().isoformat()},
    )
    assert response.status_code == 400 and "A refund needs its reason." in response.content.decode()
    assert Payment.objects.count() == 1


@pytest.mark.parametrize("who, code", [("anonymous", 302), ("stranger", 403), ("other_club_admin", 403)])
def test_strangers_do_not_see_an_entrys_payments(request, who, code, pair, make_player):
    client = Client()
    if who == "stranger":
        client.force_login(make_player().user)
    elif who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    response = client.get(reverse("entry_payments", args=[pair.pk]))
    assert response.status_code == code
    if code == 302:
        assert response["Location"].startswith("/accounts/login/")


def test_the_fee_ledger_shows_what_was_paid(pair, pairs_event, club_admin, make_player):
    unpaid = enter(pairs_event, make_player(), make_player())
    pay(pair, club_admin, 4000)
    client = Client()
    client.force_login(club_admin)
    html = client.get(reverse("fee_ledger", args=[pairs_event.pk])).content.decode()
    assert f'data-entry="{pair.pk}"' in html and f'data-entry="{unpaid.pk}"' in html
    assert html.count('data-payment-status="paid"') == 1 and html.count('data-payment-status="unpaid"') == 1
    assert reference_for(unpaid.pk) in html


def test_the_club_fee_summary_has_the_paid_total(pair, staff_mbsz, today):
    pay(pair, staff_mbsz, 3000)
    client = Client()
    client.force_login(staff_mbsz)
    response = client.get(reverse("club_fee_summary_year", args=["mbsz", pair.event.start_date.year]))
    assert "3\u00a0000\u00a0Ft" in response.content.decode()


def test_the_players_own_page_shows_his_fees_to_him_and_the_staff_only(pair, club_admin, staff_mbsz):
    pay(pair, club_admin, 1000)
    person = pair.members.first().person
    url = reverse("person_detail", args=[person.pk])
    me = Client()
    me.force_login(person.user)
    html = me.get(url).content.decode()
    assert (
        'id="fees"' in html and reference_for(pair.pk) in html and 'data-payment-status="part_paid"' in html
    )
    staff = Client()
    staff.force_login(staff_mbsz)
    assert reference_for(pair.pk) in staff.get(url).content.decode()
    for client in (Client(), _logged_in_as(pair.members.last().person.user.__class__, "other@example.hu")):
        html = client.get(url).content.decode()
        assert 'id="fees"' not in html and reference_for(pair.pk) not in html


def _logged_in_as(user_model, email):
    client = Client()
    client.force_login(user_model.objects.create_user(username=email, email=email))
    return client


def test_the_entry_confirmation_carries_the_fee_and_the_reference(pairs_event, make_player):
    me = make_player()
    entry = entry_service.create_entry(pairs_event.pk, me.user, [me, make_player()])
    body = Notification.objects.get(recipient=address_of(me)).body
    assert reference_for(entry.pk) in body
    partner = entry.members.get(position=2).person
    entry_service.confirm(entry.pk, partner.user)
    confirmed = Notification.objects.filter(recipient=address_of(me)).order_by("-pk").first().body
    assert reference_for(entry.pk) in confirmed and "4\u00a0000" in confirmed
