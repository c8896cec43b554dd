"""A disputed board calls the event's directors beyond the control room (issue #18): one mail per dispute
through the outbox, a count in the navbar until a director opens the control room."""

import pytest
from django.urls import reverse

from federation.models import Notification
from tournaments.models import DirectorAlert

from .conftest import key
from .helpers import Kind, answer, enter

pytestmark = pytest.mark.django_db


def test_a_dispute_mails_the_directors_once_and_shows_in_their_navbar(clients, codes, director, session):
    director.email = "vezeto-vita@example.hu"
    director.save()
    entry = enter(codes[1]).entry
    k = key()
    answer(codes[1], entry, Kind.DISPUTE, k=k)
    answer(codes[1], entry, Kind.DISPUTE, k=k)  # the phone sends it again: nothing new
    alert = DirectorAlert.objects.get()
    assert alert.game == "bridge" and alert.board == entry.board and alert.seen_at is None
    mails = Notification.objects.filter(recipient="vezeto-vita@example.hu")
    assert mails.count() == 1
    assert reverse("bridge_control_room", args=[session.pk]) in mails.get().body

    home = clients["director"].get(reverse("home")).content.decode()
    assert 'id="director-alerts"' in home
    listing = clients["director"].get(reverse("director_alerts")).content.decode()
    assert alert.path in listing and "director-alert" in listing
    for role in ("player", "anonymous"):
        assert 'id="director-alerts"' not in clients[role].get(reverse("home")).content.decode()

    assert clients["director"].get(alert.path).status_code == 200  # the control room
    alert.refresh_from_db()
    assert alert.seen_at is not None and alert.seen_by == director
    assert 'id="director-alerts"' not in clients["director"].get(reverse("home")).content.decode()


def test_a_confirmation_raises_no_alert(codes):
    answer(codes[1], enter(codes[1]).entry)
    assert not DirectorAlert.objects.exists()


def test_a_players_pages_do_not_count_alerts(clients):
    """The navbar counts alerts only for a user who may run events: a player's page sends no such query."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert clients["player"].get(reverse("home")).status_code == 200
    table = DirectorAlert._meta.db_table
    assert not [q["sql"] for q in queries if table in q["sql"]]
