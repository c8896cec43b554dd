"""Withdrawing once play has started (issue #14).

Before the start a withdrawal frees the place for the waiting list, whose first entry is mailed "Helyet
kapott". Once play has started (the first session began, or results exist) the players' withdraw button is
refused with a message; the organiser or director records a no-show (VSz 7) or a withdrawal during play
(VSz 25) instead, and nobody moves up from the waiting list or is told they got a place. Destructive
buttons ask for confirmation: a data-confirm script, and without it a confirmation page.
"""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from federation.models import Notification, Role
from federation.services.notifications import address_of
from results.models import RecomputeState
from tournaments.models import Entry, Session
from tournaments.refusals import EntryRefused
from tournaments.services import entries as service

pytestmark = pytest.mark.django_db


def got_a_place_subject(event):
    with translation.override("hu"):
        return translation.gettext("You got a place: %(event)s") % {"event": event.title}


def got_a_place_mails(event):
    return Notification.objects.filter(subject=got_a_place_subject(event))


@pytest.fixture
def full_event(make_event, make_player, today):
    """Capacity 1: one entry in the field, one on the waiting list; the event's session starts at
    `session_start` (entered while it was still ahead)."""

    def make(*, session_start):
        event = make_event(format="individual", capacity=1, start_date=timezone.localdate(session_start))
        session = Session.objects.create(event=event, starts_at=timezone.now() + datetime.timedelta(days=1))
        playing, waiting = make_player(), make_player()
        first = service.create_entry(event.pk, playing.user, [playing], by_organiser=False)
        second = service.create_entry(event.pk, waiting.user, [waiting], by_organiser=False)
        assert (first.status, second.status) == (Entry.Status.ACTIVE, Entry.Status.WAITING)
        Session.objects.filter(pk=session.pk).update(starts_at=session_start)  # then the clock moves on
        event.refresh_from_db()
        Notification.objects.all().delete()
        return event, first, second, playing, waiting

    return make


def test_before_the_start_the_waiting_entry_moves_up_and_is_mailed(full_event):
    start = timezone.now() + datetime.timedelta(days=3)
    event, first, second, playing, waiting = full_event(session_start=start)
    service.withdraw(first.pk, playing.user)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == Entry.Status.WITHDRAWN and not first.withdrawn_during_play
    assert second.status == Entry.Status.ACTIVE
    assert list(got_a_place_mails(event).values_list("recipient", flat=True)) == [address_of(waiting)]
    assert got_a_place_subject(event).startswith("Helyet kapott")


def test_after_the_first_session_began_the_player_is_refused_and_nothing_changes(full_event):
    event, first, second, playing, waiting = full_event(
        session_start=timezone.now() - datetime.timedelta(hours=2)
    )
    with pytest.raises(EntryRefused) as refused:
        service.withdraw(first.pk, playing.user)
    assert refused.value.messages == [str(service.STARTED_REFUSAL)]
    first.refresh_from_db()
    assert first.status == Entry.Status.ACTIVE
    assert not Notification.objects.exists()


def test_after_the_start_the_organiser_records_a_withdrawal_during_play_without_promotion(
    full_event, club_admin
):
    event, first, second, playing, waiting = full_event(
        session_start=timezone.now() - datetime.timedelta(hours=2)
    )
    service.withdraw(first.pk, club_admin)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == Entry.Status.WITHDRAWN and first.withdrawn_during_play
    assert first.withdrawn_by == club_admin
    assert second.status == Entry.Status.WAITING  # the place stays empty
    assert not got_a_place_mails(event).exists()
    assert not Notification.objects.filter(recipient=address_of(waiting)).exists()


def test_results_already_uploaded_count_as_started_even_before_the_session_time(full_event, club_admin):
    event, first, second, playing, waiting = full_event(
        session_start=timezone.now() + datetime.timedelta(hours=5)
    )
    RecomputeState.objects.create(event=event, scope="bridge-pairs", latest_version=1)
    assert event.has_started() and not event.play_started()
    with pytest.raises(EntryRefused):
        service.withdraw(first.pk, playing.user)
    service.withdraw(first.pk, club_admin)
    second.refresh_from_db()
    assert second.status == Entry.Status.WAITING and not got_a_place_mails(event).exists()


def test_a_no_show_after_the_start_moves_nobody_up(full_event, club_admin):
    event, first, second, playing, waiting = full_event(
        session_start=timezone.now() - datetime.timedelta(hours=2)
    )
    service.mark_no_show(first.pk, club_admin)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.no_show and first.status == Entry.Status.ACTIVE
    assert second.status == Entry.Status.WAITING and not got_a_place_mails(event).exists()


def test_a_larger_capacity_after_the_start_moves_nobody_up(full_event, club_admin):
    from tournaments.services.entries import fill_places, lock_event

    event, first, second, playing, waiting = full_event(
        session_start=timezone.now() - datetime.timedelta(hours=2)
    )
    event.capacity = 2
    event.save(update_fields=["capacity"])
    assert fill_places(lock_event(event.pk)) == []
    second.refresh_from_db()
    assert second.status == Entry.Status.WAITING


def test_the_players_page_refuses_after_the_start_with_the_message(client, full_event):
    event, first, second, playing, waiting = full_event(
        session_start=timezone.now() - datetime.timedelta(hours=2)
    )
    client.force_login(playing.user)
    page = client.get(reverse("my_entries")).content.decode()
    assert reverse("entry_withdraw", args=[first.pk]) not in page  # no button once play has started
    response = client.post(reverse("entry_withdraw", args=[first.pk]), {"confirmed": "1"}, follow=True)
    assert str(service.STARTED_REFUSAL) in response.content.decode()
    first.refresh_from_db()
    assert first.status == Entry.Status.ACTIVE


def test_the_withdraw_button_asks_first_and_without_script_shows_a_confirmation_page(client, full_event):
    event, first, second, playing, waiting = full_event(
        session_start=timezone.now() + datetime.timedelta(days=3)
    )
    client.force_login(playing.user)
    page = client.get(reverse("my_entries")).content.decode()
    assert "data-confirm=" in page and reverse("entry_withdraw", args=[first.pk]) in page

    shown = client.post(reverse("entry_withdraw", args=[first.pk]), {"next": reverse("my_entries")})
    assert shown.status_code == 200
    html = shown.content.decode()
    assert 'name="confirmed" value="1"' in html and 'id="withdraw-confirm"' in html
    first.refresh_from_db()
    assert first.status == Entry.Status.ACTIVE  # nothing happened yet

    done = client.post(reverse("entry_withdraw", args=[first.pk]), {"confirmed": "1"})
    assert done.status_code == 302
    first.refresh_from_db()
    assert first.status == Entry.Status.WITHDRAWN


def test_the_organiser_page_offers_a_withdrawal_during_play_after_the_start(client, full_event, club_admin):
    event, first, second, playing, waiting = full_event(
        session_start=timezone.now() - datetime.timedelta(hours=2)
    )
    client.force_login(club_admin)
    page = client.get(reverse("manage_entries", args=[event.pk])).content.decode()
    assert "VSz 25" in page and "data-confirm=" in page
    confirm = client.post(reverse("entry_withdraw", args=[first.pk])).content.decode()
    assert "VSz 25" in confirm
    client.post(reverse("entry_withdraw", args=[first.pk]), {"confirmed": "1"})
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.withdrawn_during_play and second.status == Entry.Status.WAITING


def test_the_api_withdrawal_after_the_start_promotes_nobody(client, full_event, make_user):
    event, first, second, playing, waiting = full_event(
        session_start=timezone.now() - datetime.timedelta(hours=2)
    )
    client.force_login(playing.user)
    assert client.post(reverse("entry-withdraw", args=[first.pk])).status_code == 400
    director = make_user("tv@example.hu", kind=Role.DIRECTOR, event=event)
    client.force_login(director)
    assert client.post(reverse("entry-withdraw", args=[first.pk])).status_code == 200
    second.refresh_from_db()
    assert second.status == Entry.Status.WAITING and not got_a_place_mails(event).exists()


def test_cancelling_the_event_asks_for_confirmation(client, make_event, club_admin):
    event = make_event()
    client.force_login(club_admin)
    page = client.get(reverse("event_cancel", args=[event.pk])).content.decode()
    assert "data-confirm=" in page
