"""Entry changes: a partner or team member replaced before the deadline, the newcomer accepting; team
members confirming their inclusion; the pages and who may use them."""

import datetime

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from federation.models import Notification, Suspension
from federation.services.notifications import address_of
from tournaments.models import Entry, EntryChange, EntryMember, Event
from tournaments.refusals import EntryRefused
from tournaments.services import entries as entries_service
from tournaments.services import entry_changes as service

pytestmark = pytest.mark.django_db


def mails_to(person):
    return list(Notification.objects.filter(recipient=address_of(person)).values_list("subject", flat=True))


@pytest.fixture
def pair(pairs_event, make_player):
    me, partner = make_player(), make_player()
    entry = entries_service.create_entry(pairs_event.pk, me.user, [me, partner])
    return entry, me, partner


def _partner_member(entry):
    return entry.members.get(position=2)


def test_partner_replaced_after_the_newcomer_accepts(pair, make_player):
    entry, me, partner = pair
    newcomer = make_player()
    change = service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, newcomer)
    assert change.status == EntryChange.Status.PENDING
    assert change.requested_by == me.user and change.old_person == partner and change.new_person == newcomer
    # Nothing changes until the newcomer accepts; he is told by mail.
    assert list(entry.members.values_list("person", flat=True)) == [me.pk, partner.pk]
    assert any(entry.event.title in s for s in mails_to(newcomer))
    service.accept_replacement(change.pk, newcomer.user)
    change.refresh_from_db()
    assert change.status == EntryChange.Status.ACCEPTED and change.decided_by == newcomer.user
    assert change.decided_at is not None
    member = _partner_member(entry)
    assert member.person == newcomer and member.confirmed_at is not None
    entry.refresh_from_db()
    assert entry.is_confirmed
    assert len(mails_to(partner)) >= 2  # asked to confirm at first, then told he was replaced


def test_newcomer_may_decline_and_the_entry_stays(pair, make_player):
    entry, me, partner = pair
    newcomer = make_player()
    change = service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, newcomer)
    service.decline_replacement(change.pk, newcomer.user)
    change.refresh_from_db()
    assert change.status == EntryChange.Status.DECLINED
    assert _partner_member(entry).person == partner
    with pytest.raises(EntryRefused):
        service.accept_replacement(change.pk, newcomer.user)  # a declined change is closed


def test_only_the_newcomer_answers(pair, make_player):
    entry, me, partner = pair
    newcomer = make_player()
    change = service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, newcomer)
    for user in (me.user, partner.user, make_player().user):
        with pytest.raises(PermissionDenied):
            service.accept_replacement(change.pk, user)
    assert _partner_member(entry).person == partner


def test_only_the_entrant_or_the_organiser_asks(pair, make_player, club_admin, other_club_admin):
    entry, me, partner = pair
    member = _partner_member(entry)
    for user in (partner.user, make_player().user, other_club_admin):
        with pytest.raises(PermissionDenied):
            service.request_replacement(entry.pk, user, member.pk, make_player())
    change = service.request_replacement(entry.pk, club_admin, member.pk, make_player())
    assert change.by_organiser


def test_the_member_id_must_belong_to_the_entry(pair, pairs_event, make_player):
    entry, me, _partner = pair
    a, b = make_player(), make_player()
    other = entries_service.create_entry(pairs_event.pk, a.user, [a, b])
    with pytest.raises(EntryRefused):
        service.request_replacement(entry.pk, me.user, other.members.get(position=2).pk, make_player())
    with pytest.raises(EntryRefused):  # nor may the entrant name himself as the one to go
        service.request_replacement(entry.pk, me.user, entry.members.get(position=1).pk, make_player())
    assert not EntryChange.objects.exists()


def test_an_ineligible_newcomer_is_refused_with_the_reason(pair, make_player, mbsz):
    entry, me, _partner = pair
    banned = make_player()
    Suspension.objects.create(
        person=banned,
        federation=mbsz,
        starts_on=timezone.localdate() - datetime.timedelta(days=1),
        ends_on=timezone.localdate() + datetime.timedelta(days=365),
        reason="x",
    )
    with pytest.raises(EntryRefused) as refused:
        service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, banned)
    assert banned.full_name in refused.value.messages[0] and "VSz 6" in refused.value.messages[0]
    assert not EntryChange.objects.exists()


def test_a_newcomer_entered_elsewhere_is_refused(pair, pairs_event, make_player):
    entry, me, _partner = pair
    a, b = make_player(), make_player()
    entries_service.create_entry(pairs_event.pk, a.user, [a, b])
    with pytest.raises(EntryRefused) as refused, translation.override("en"):
        service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, b)
    assert "already entered" in refused.value.messages[0]


def test_eligibility_is_checked_again_on_acceptance(pair, pairs_event, make_player):
    entry, me, _partner = pair
    newcomer = make_player()
    change = service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, newcomer)
    # Meanwhile the newcomer entered with someone else.
    x = make_player()
    entries_service.create_entry(pairs_event.pk, x.user, [x, newcomer])
    with pytest.raises(EntryRefused):
        service.accept_replacement(change.pk, newcomer.user)
    assert _partner_member(entry).person != newcomer


def test_after_the_deadline_refused_with_a_clear_message(make_event, make_player):
    now = timezone.now()
    event = make_event(entry_deadline=now + datetime.timedelta(days=1))
    me, partner = make_player(), make_player()
    entry = entries_service.create_entry(event.pk, me.user, [me, partner])
    newcomer = make_player()
    late = now + datetime.timedelta(days=2)
    with pytest.raises(EntryRefused) as refused, translation.override("en"):
        service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, newcomer, now=late)
    assert "deadline" in refused.value.messages[0]
    change = service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, newcomer, now=now)
    with pytest.raises(EntryRefused):
        service.accept_replacement(change.pk, newcomer.user, now=late)
    assert _partner_member(entry).person == partner


def test_a_new_request_supersedes_the_pending_one(pair, make_player):
    entry, me, _partner = pair
    first, second = make_player(), make_player()
    old = service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, first)
    service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, second)
    old.refresh_from_db()
    assert old.status == EntryChange.Status.CANCELLED
    with pytest.raises(EntryRefused):
        service.accept_replacement(old.pk, first.user)


# --- Team members confirm their inclusion --------------------------------------------------------------


@pytest.fixture
def team(make_event, make_player):
    event = make_event(title="Csapat", format=Event.Format.TEAMS)
    players = [make_player() for _ in range(4)]
    entry = entries_service.create_entry(event.pk, players[0].user, players, team_name="Ászok")
    return entry, players


def test_team_entry_is_pending_until_each_member_confirms(team):
    entry, players = team
    assert not entry.is_confirmed
    assert entry.members.get(position=1).confirmed_at is not None  # the captain's entry is his own
    asked = {s for p in players[1:] for s in mails_to(p)}
    assert len(asked) == 1 and asked.isdisjoint(mails_to(players[0]))  # asked to confirm, not "received"
    for p in players[1:-1]:
        entries_service.confirm(entry.pk, p.user)
    entry.refresh_from_db()
    assert not entry.is_confirmed
    entries_service.confirm(entry.pk, players[-1].user)
    assert entry.is_confirmed


def test_team_member_declines_and_the_captain_replaces_him(team, make_player):
    entry, players = team
    entries_service.decline(entry.pk, players[2].user)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE  # the team keeps its entry, pending
    member = entry.members.get(person=players[2])
    assert member.declined_at is not None and member.confirmed_at is None
    with translation.override(settings.LANGUAGE_CODE):
        told = _("A team member declined: %(event)s") % {"event": entry.event.title}
    assert told in mails_to(players[0])
    newcomer = make_player()
    change = service.request_replacement(entry.pk, players[0].user, member.pk, newcomer)
    service.accept_replacement(change.pk, newcomer.user)
    member.refresh_from_db()
    assert member.person == newcomer and member.declined_at is None and member.confirmed_at


def test_the_organisers_team_entry_needs_no_confirmation(make_event, make_player, club_admin):
    event = make_event(title="Csapat", format=Event.Format.TEAMS)
    players = [make_player() for _ in range(4)]
    entry = entries_service.create_entry(event.pk, club_admin, players, team_name="Ászok", by_organiser=True)
    assert entry.is_confirmed


def test_pending_team_members_shown_in_the_entry_lists(team, client, club_admin):
    entry, players = team
    entries_service.decline(entry.pk, players[3].user)
    client.force_login(club_admin)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("manage_entries", args=[entry.event_id])).content.decode()
    assert "awaiting confirmation" in page and "declined: to be replaced" in page
    public = client.get(reverse("event_detail", args=[entry.event_id])).content.decode()
    assert "awaiting confirmation" in public


# --- Pages and who may use them ------------------------------------------------------------------------


@pytest.fixture
def roles(pair, make_player, club_admin, staff_mbsz, make_user):
    entry, me, partner = pair
    return {
        "entrant": me.user,
        "partner": partner.user,
        "other_player": make_player().user,
        "club_admin": club_admin,
        "staff": staff_mbsz,
        "anonymous": None,
    }


def _client(client, user):
    client.logout()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize(
    "role,status",
    [
        ("entrant", 200),
        ("club_admin", 200),
        ("staff", 200),
        ("partner", 403),
        ("other_player", 404),
        ("anonymous", 302),
    ],
)
def test_replace_page_matrix(role, status, roles, pair, client):
    entry = pair[0]
    response = _client(client, roles[role]).get(reverse("entry_replace", args=[entry.pk]))
    assert response.status_code == status
    if role == "anonymous":
        assert "/login" in response["Location"] or "accounts" in response["Location"]


@pytest.mark.parametrize("role", ["entrant", "club_admin", "staff", "partner", "other_player", "anonymous"])
def test_replace_post_matrix(role, roles, pair, client, make_player):
    entry = pair[0]
    newcomer = make_player()
    number = newcomer.memberships.get().member_number
    data = {"member": _partner_member(entry).pk, "newcomer": number}
    _client(client, roles[role]).post(reverse("entry_replace", args=[entry.pk]), data)
    created = EntryChange.objects.filter(entry=entry, new_person=newcomer).exists()
    assert created == (role in ("entrant", "club_admin", "staff"))


def test_replace_by_exact_name_without_script(pair, client, make_player):
    entry, me, _partner = pair
    newcomer = make_player(first_name="Ágnes", last_name="Székely")
    client.force_login(me.user)
    data = {"member": _partner_member(entry).pk, "newcomer": "szekely agnes"}
    response = client.post(reverse("entry_replace", args=[entry.pk]), data)
    assert response.status_code == 302
    assert EntryChange.objects.get().new_person == newcomer


@pytest.mark.parametrize(
    "role", ["newcomer", "entrant", "partner", "other_player", "club_admin", "staff", "anonymous"]
)
def test_accept_and_decline_matrix(role, roles, pair, client, make_player):
    entry, me, _partner = pair
    newcomer = make_player()
    roles = {**roles, "newcomer": newcomer.user}
    change = service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, newcomer)
    c = _client(client, roles[role])
    c.post(reverse("entry_change_decline", args=[change.pk]))
    change.refresh_from_db()
    assert (change.status == EntryChange.Status.DECLINED) == (role == "newcomer")
    if role == "newcomer":
        change = service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, make_player())
        return
    c.post(reverse("entry_change_accept", args=[change.pk]))
    change.refresh_from_db()
    assert change.status == EntryChange.Status.PENDING


def test_my_entries_offers_the_change_to_the_newcomer(pair, client, make_player):
    entry, me, _partner = pair
    newcomer = make_player()
    change = service.request_replacement(entry.pk, me.user, _partner_member(entry).pk, newcomer)
    client.force_login(newcomer.user)
    page = client.get(reverse("my_entries")).content.decode()
    assert reverse("entry_change_accept", args=[change.pk]) in page
    client.post(reverse("entry_change_accept", args=[change.pk]))
    assert EntryMember.objects.filter(entry=entry, person=newcomer).exists()
    client.force_login(me.user)
    page = client.get(reverse("my_entries")).content.decode()
    assert reverse("entry_replace", args=[entry.pk]) in page


def test_my_entries_offers_no_replacement_after_the_deadline(make_event, make_player, client):
    event = make_event(entry_deadline=timezone.now() + datetime.timedelta(hours=1))
    me, partner = make_player(), make_player()
    entry = entries_service.create_entry(event.pk, me.user, [me, partner])
    Event.objects.filter(pk=event.pk).update(entry_deadline=timezone.now() - datetime.timedelta(hours=1))
    client.force_login(me.user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("my_entries")).content.decode()
    assert reverse("entry_replace", args=[entry.pk]) not in page
    response = client.post(
        reverse("entry_replace", args=[entry.pk]),
        {"member": _partner_member(entry).pk, "newcomer": make_player().memberships.get().member_number},
        follow=True,
    )
    assert "deadline" in response.content.decode() and not EntryChange.objects.exists()


def _event_page(client, user, event):
    client = _client(client, user)  # (logging out forgets the cookies)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client.get(reverse("event_detail", args=[event.pk])).content.decode()


def test_the_event_page_offers_the_entrant_to_replace_his_partner_before_the_deadline(
    make_event, make_player, client
):
    event = make_event(entry_deadline=timezone.now() + datetime.timedelta(days=2))
    me, partner = make_player(), make_player()
    entry = entries_service.create_entry(event.pk, me.user, [me, partner])
    link = reverse("entry_replace", args=[entry.pk])
    page = _event_page(client, me.user, event)
    assert link in page and "Replace partner" in page
    # The partner is a member but not the entrant: the replacement page would refuse him, so no link.
    assert link not in _event_page(client, partner.user, event)
    assert link not in _event_page(client, make_player().user, event)
    assert link not in _event_page(client, None, event)
    # The link is followed: the entrant's replacement page.
    assert _client(client, me.user).get(link).status_code == 200
    # After the deadline the event page offers it no more (and the service refuses it).
    Event.objects.filter(pk=event.pk).update(entry_deadline=timezone.now() - datetime.timedelta(minutes=1))
    page = _event_page(client, me.user, event)
    assert link not in page and "Replace partner" not in page
    assert "Your entry" in page


def test_no_replacement_is_offered_once_play_started_or_for_an_individual_entry(
    make_event, make_player, client, today
):
    event = make_event(start_date=today + datetime.timedelta(days=10))
    me, partner = make_player(), make_player()
    entry = entries_service.create_entry(event.pk, me.user, [me, partner])
    assert service.offers_replacement(me.user, entry)
    assert not service.offers_replacement(partner.user, entry)
    Event.objects.filter(pk=event.pk).update(start_date=today)  # no sessions: play starts on the start date
    entry = Entry.objects.get(pk=entry.pk)
    assert not service.offers_replacement(me.user, entry)
    assert reverse("entry_replace", args=[entry.pk]) not in _event_page(client, me.user, event)
    single = make_event(format=Event.Format.INDIVIDUAL, start_date=today + datetime.timedelta(days=10))
    alone = entries_service.create_entry(single.pk, me.user, [me])
    assert not service.offers_replacement(me.user, alone)
