"""Entries through the service: partner confirmation, waiting list, re-division, no-shows and the ledger."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from federation.models import Notification
from federation.services.notifications import address_of
from tournaments.models import Division, Entry
from tournaments.refusals import EntryRefused
from tournaments.services import entries as service
from tournaments.services.ledger import event_ledger

pytestmark = pytest.mark.django_db


def mails_to(person):
    return list(Notification.objects.filter(recipient=address_of(person)).values_list("subject", flat=True))


def test_pair_entry_is_pending_until_the_partner_confirms(pairs_event, make_player):
    me, partner = make_player(), make_player()
    entry = service.create_entry(pairs_event.pk, me.user, [me, partner])
    assert entry.status == Entry.Status.ACTIVE and not entry.is_confirmed
    assert len(mails_to(partner)) == 1 and pairs_event.title in mails_to(partner)[0]  # asked to confirm
    with pytest.raises(PermissionDenied):
        service.confirm(entry.pk, make_player().user)  # a stranger cannot confirm it
    service.confirm(entry.pk, partner.user)
    entry.refresh_from_db()
    assert entry.is_confirmed
    assert len(mails_to(me)) == 2  # received, then confirmed


def test_partner_may_decline_and_the_place_is_freed(make_event, make_player):
    event = make_event(capacity=1)
    me, partner = make_player(), make_player()
    entry = service.create_entry(event.pk, me.user, [me, partner])
    a, b = make_player(), make_player()
    waiting = service.create_entry(event.pk, a.user, [a, b])
    assert waiting.status == Entry.Status.WAITING
    service.decline(entry.pk, partner.user)
    entry.refresh_from_db()
    waiting.refresh_from_db()
    assert entry.status == Entry.Status.DECLINED and waiting.status == Entry.Status.ACTIVE


def test_only_one_who_plays_in_it_can_make_an_entry(pairs_event, make_player):
    a, b, c = make_player(), make_player(), make_player()
    with pytest.raises(EntryRefused):
        service.create_entry(pairs_event.pk, a.user, [b, c])


def test_waiting_list_in_order_and_automatic_promotion_on_withdrawal(make_event, make_player):
    event = make_event(format="individual", capacity=2)
    players = [make_player() for _ in range(4)]
    entries = [service.create_entry(event.pk, p.user, [p]) for p in players]
    assert [e.status for e in entries] == ["active", "active", "waiting", "waiting"]
    assert [e.waiting_position() for e in entries[2:]] == [1, 2]
    Notification.objects.all().delete()

    service.withdraw(entries[0].pk, players[0].user)
    for e in entries:
        e.refresh_from_db()
    assert [e.status for e in entries] == ["withdrawn", "active", "active", "waiting"]
    assert entries[3].waiting_position() == 1
    assert len(mails_to(players[2])) == 1 and event.title in mails_to(players[2])[0]  # the promotion mail
    assert mails_to(players[3]) == []


def test_promotion_skips_a_waiting_entry_that_is_no_longer_eligible(make_event, make_player, mbsz):
    from federation.models import Suspension

    event = make_event(format="individual", capacity=1)
    first, second, third = make_player(), make_player(), make_player()
    e1 = service.create_entry(event.pk, first.user, [first])
    e2 = service.create_entry(event.pk, second.user, [second])
    e3 = service.create_entry(event.pk, third.user, [third])
    Suspension.objects.create(person=second, federation=mbsz, starts_on=event.start_date, reason="teszt")
    service.withdraw(e1.pk, first.user)
    e2.refresh_from_db()
    e3.refresh_from_db()
    assert e2.status == Entry.Status.WAITING and e3.status == Entry.Status.ACTIVE


def test_a_stranger_cannot_withdraw_an_entry(pairs_event, make_player):
    me, partner = make_player(), make_player()
    entry = service.create_entry(pairs_event.pk, me.user, [me, partner])
    with pytest.raises(PermissionDenied):
        service.withdraw(entry.pk, make_player().user)
    service.withdraw(entry.pk, partner.user)  # either partner may
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN


def test_redivision_notifies_and_lets_them_withdraw_without_fee(make_event, make_player, club_admin):
    event = make_event()
    strong = Division.objects.create(event=event, name="A csoport", order=1)
    weak = Division.objects.create(event=event, name="B csoport", order=2)
    me, partner = make_player(), make_player()
    entry = service.create_entry(event.pk, me.user, [me, partner], division_id=weak.pk)
    service.confirm(entry.pk, partner.user)
    Notification.objects.all().delete()

    service.move_division(entry.pk, club_admin, strong.pk)
    assert len(mails_to(me)) == 1 and len(mails_to(partner)) == 1
    service.withdraw(entry.pk, me.user)
    entry.refresh_from_db()
    assert entry.fee_waived and entry.division == strong
    row = event_ledger(event).rows[0]
    assert row.fee.total == 0 and row.fee.reason == "redivision"


def test_only_the_organiser_moves_divisions(make_event, make_player, other_club_admin):
    event = make_event()
    a = Division.objects.create(event=event, name="A")
    b = Division.objects.create(event=event, name="B")
    me, partner = make_player(), make_player()
    entry = service.create_entry(event.pk, me.user, [me, partner], division_id=a.pk)
    with pytest.raises(PermissionDenied):
        service.move_division(entry.pk, other_club_admin, b.pk)
    with pytest.raises(PermissionDenied):
        service.move_division(entry.pk, me.user, b.pk)


def test_division_is_required_when_the_event_has_divisions(make_event, make_player):
    event = make_event()
    Division.objects.create(event=event, name="A")
    me, partner = make_player(), make_player()
    with pytest.raises(EntryRefused):
        service.create_entry(event.pk, me.user, [me, partner])
    assert not Entry.objects.exists()


def test_no_show_still_owes_the_fee(make_event, make_player, club_admin, today):
    event = make_event(start_date=today, entry_fee=2500, format="individual")
    players = [make_player() for _ in range(3)]
    entries = [service.create_entry(event.pk, club_admin, [p], by_organiser=True) for p in players]
    service.withdraw(entries[2].pk, club_admin)
    service.mark_no_show(entries[1].pk, club_admin)
    ledger = event_ledger(event)
    fees_by_entry = {row.entry.pk: row.fee for row in ledger.rows}
    assert fees_by_entry[entries[0].pk].total == 2500
    assert fees_by_entry[entries[1].pk].total == 2500 and fees_by_entry[entries[1].pk].reason == "no_show"
    assert fees_by_entry[entries[2].pk].total == 0
    assert ledger.total.total == 5000 and ledger.total.to_organiser == 5000


def test_no_show_cannot_be_marked_before_the_event(pairs_event, make_player, club_admin):
    me, partner = make_player(), make_player()
    entry = service.create_entry(pairs_event.pk, club_admin, [me, partner], by_organiser=True)
    with pytest.raises(EntryRefused):
        service.mark_no_show(entry.pk, club_admin)


def test_organiser_may_place_an_entry_above_capacity(make_event, make_player, club_admin):
    event = make_event(format="individual", capacity=1)
    first, second = make_player(), make_player()
    service.create_entry(event.pk, first.user, [first])
    entry = service.create_entry(event.pk, club_admin, [second], by_organiser=True, over_capacity=True)
    assert entry.status == Entry.Status.ACTIVE


def test_entry_pages(client, pairs_event, make_player):
    me, partner = make_player(), make_player()
    client.force_login(me.user)
    number = partner.memberships.get().member_number
    response = client.post(reverse("entry_create", args=[pairs_event.pk]), {"player_2": number})
    assert response.status_code == 302
    entry = Entry.objects.get()
    client.force_login(partner.user)
    page = client.get(reverse("my_entries")).content.decode()
    assert reverse("entry_confirm", args=[entry.pk]) in page
    client.post(reverse("entry_confirm", args=[entry.pk]))
    assert Entry.objects.get().is_confirmed
    client.post(reverse("entry_withdraw", args=[entry.pk]))  # the confirmation page first
    assert Entry.objects.get().status == Entry.Status.ACTIVE
    client.post(reverse("entry_withdraw", args=[entry.pk]), {"confirmed": "1"})
    assert Entry.objects.get().status == Entry.Status.WITHDRAWN


def test_entry_page_refusal_shows_the_reason_and_writes_nothing(client, pairs_event, make_player):
    me = make_player()
    client.force_login(me.user)
    response = client.post(
        reverse("entry_create", args=[pairs_event.pk]), {"player_2": "NINCS-ILYEN"}, follow=True
    )
    assert "NINCS-ILYEN" in response.content.decode()
    assert not Entry.objects.exists()


def test_organiser_pages_need_the_organiser(client, pairs_event, make_player, club_admin, other_club_admin):
    me, partner = make_player(), make_player()
    url = reverse("entry_add", args=[pairs_event.pk])
    data = {
        "player_1": me.memberships.get().member_number,
        "player_2": partner.memberships.get().member_number,
    }
    client.force_login(other_club_admin)
    assert client.post(url, data).status_code == 403
    assert client.get(reverse("manage_entries", args=[pairs_event.pk])).status_code == 403
    assert client.get(reverse("fee_ledger", args=[pairs_event.pk])).status_code == 403
    client.force_login(club_admin)
    client.post(url, data)
    assert Entry.objects.get().by_organiser
    assert client.get(reverse("manage_entries", args=[pairs_event.pk])).status_code == 200
    assert client.get(reverse("fee_ledger", args=[pairs_event.pk])).status_code == 200


def test_event_director_manages_entries(client, pairs_event, make_user):
    from federation.models import Role

    director = make_user("tv@example.hu", kind=Role.DIRECTOR, event=pairs_event)
    client.force_login(director)
    assert client.get(reverse("manage_entries", args=[pairs_event.pk])).status_code == 200


def test_withdrawal_by_a_player_stops_when_play_starts(make_event, make_player, club_admin, today):
    event = make_event(start_date=today - datetime.timedelta(days=0), format="individual")
    me = make_player()
    entry = service.create_entry(event.pk, club_admin, [me], by_organiser=True)
    with pytest.raises(EntryRefused):
        service.withdraw(entry.pk, me.user)
    service.withdraw(entry.pk, club_admin)
