"""A player disputing the round's forints calls the event's directors beyond the control room (issue #18):
one mail per disputed sheet through the outbox, a count in the navbar until a director opens the control
room."""

import pytest
from django.urls import reverse

from federation.models import Notification
from tournaments.models import DirectorAlert
from ulti.services import table_entry

from .conftest import fill, key

pytestmark = pytest.mark.django_db


def test_a_dispute_mails_the_directors_once_and_shows_in_their_navbar(clients, codes, director, rnd):
    director.email = "ulti-vezeto-vita@example.hu"
    director.save()
    code = codes[1]
    fill(code)
    state = table_entry.state_of(code)
    k = key()
    for seat, sent_key in ((state.seats[0], k), (state.seats[0], k), (state.seats[1], key())):
        # Sent twice by one phone, then a second player disputes the same sheet: one alert.
        table_entry.send(
            code, key=sent_key, kind="dispute", seat=seat.pk, based_on=state.head.pk, note="9 lap"
        )
    alert = DirectorAlert.objects.get()
    assert alert.game == "ulti" and alert.table == 1 and alert.round == rnd.number and alert.note == "9 lap"
    mails = Notification.objects.filter(recipient="ulti-vezeto-vita@example.hu")
    assert mails.count() == 1
    assert reverse("ulti_control_room", args=[rnd.pk]) in mails.get().body

    home = clients["director"].get(reverse("home")).content.decode()
    assert 'id="director-alerts"' in home
    for role in ("other_director", "player", "anonymous"):
        assert 'id="director-alerts"' not in clients[role].get(reverse("home")).content.decode(), role
    listing = clients["other_director"].get(reverse("director_alerts")).content.decode()
    assert alert.path not in listing  # another event's director sees none of it

    assert clients["director"].get(alert.path).status_code == 200
    alert.refresh_from_db()
    assert alert.seen_at is not None and alert.seen_by == director
    assert 'id="director-alerts"' not in clients["director"].get(reverse("home")).content.decode()


def test_a_new_sheet_disputed_again_is_a_new_alert(codes):
    code = codes[1]
    fill(code)
    state = table_entry.state_of(code)
    table_entry.send(code, key=key(), kind="dispute", seat=state.seats[0].pk, based_on=state.head.pk)
    # The deal corrected on the phone: a new head, disputed again.
    fill(code, deals=12, start=12)
    state = table_entry.state_of(code)
    table_entry.send(code, key=key(), kind="dispute", seat=state.seats[0].pk, based_on=state.head.pk)
    assert DirectorAlert.objects.count() == 2
