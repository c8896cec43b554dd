"""Seating requests (VSz 10: non-smoking, stationary table) collected with the entry, shown to the director."""

import pytest
from django.urls import reverse

from federation.models import Role
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def _enter(client, event, me, partner, **extra):
    client.force_login(me.user)
    data = {"player_2": partner.memberships.get().member_number, **extra}
    return client.post(reverse("entry_create", args=[event.pk]), data)


def test_the_request_is_stored_with_the_entry(client, pairs_event, make_player):
    me, partner = make_player(), make_player()
    response = _enter(
        client, pairs_event, me, partner, seating_request="stationary", seating_note=" kerekesszék "
    )
    assert response.status_code == 302
    entry = Entry.objects.get()
    assert (entry.seating_request, entry.seating_note) == ("stationary", "kerekesszék")


def test_other_needs_a_note_and_nothing_is_written_without_it(client, pairs_event, make_player):
    me, partner = make_player(), make_player()
    response = _enter(client, pairs_event, me, partner, seating_request="other", seating_note="")
    assert response.status_code == 200
    assert "seating_note" in response.context["form"].errors
    assert not Entry.objects.exists()


def test_an_unknown_request_is_refused(client, pairs_event, make_player):
    me, partner = make_player(), make_player()
    response = _enter(client, pairs_event, me, partner, seating_request="window")
    assert response.status_code == 200 and not Entry.objects.exists()


def test_the_director_sees_the_requests_another_player_does_not(client, pairs_event, make_player, make_user):
    me, partner = make_player(), make_player()
    _enter(client, pairs_event, me, partner, seating_request="non_smoking", seating_note="asztma")
    plain_me, plain_partner = make_player(), make_player()
    _enter(client, pairs_event, plain_me, plain_partner)
    director = make_user("tv@example.hu", kind=Role.DIRECTOR, event=pairs_event)
    client.force_login(director)
    page = client.get(reverse("manage_entries", args=[pairs_event.pk])).content.decode()
    assert 'id="seating-requests"' in page and "asztma" in page
    assert page.count('data-seating-request="') == 1  # only the entry that asked
    assert 'data-seating-request="non_smoking"' in page

    other = make_player()
    client.force_login(other.user)
    assert client.get(reverse("manage_entries", args=[pairs_event.pk])).status_code == 403
    assert "asztma" not in client.get(reverse("event_detail", args=[pairs_event.pk])).content.decode()


def test_a_withdrawn_entry_drops_off_the_list(client, pairs_event, make_player, club_admin):
    me, partner = make_player(), make_player()
    _enter(client, pairs_event, me, partner, seating_request="non_smoking")
    Entry.objects.update(status=Entry.Status.WITHDRAWN)
    client.force_login(club_admin)
    page = client.get(reverse("manage_entries", args=[pairs_event.pk])).content.decode()
    assert 'id="seating-requests"' not in page


def test_an_ulti_entry_form_has_no_seating_fields(make_event, mausz):
    from tournaments.forms import EntryForm

    event = make_event(federation=mausz, club=None, format="ulti_individual", event_class="")
    assert "seating_request" not in EntryForm(event=event).fields
