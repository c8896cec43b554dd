"""No overbooking: many players race for the last places at once (PostgreSQL row locks)."""

import threading

import pytest
from django.db import connection

from tournaments.models import Entry
from tournaments.services.entries import create_entry


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_entries_never_exceed_capacity(make_event, make_player):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks (SQLite serialises writers differently)")
    capacity, racers = 3, 12
    event = make_event(format="individual", capacity=capacity + 2)
    early = [make_player() for _ in range(2)]
    for p in early:
        create_entry(event.pk, p.user, [p])
    players = [make_player() for _ in range(racers)]
    start = threading.Barrier(racers)
    errors = []

    def enter(person):
        from django.db import connections

        try:
            start.wait()
            create_entry(event.pk, person.user, [person])
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=enter, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    assert errors == []
    statuses = list(Entry.objects.filter(event=event).values_list("status", flat=True))
    assert statuses.count(Entry.Status.ACTIVE) == capacity + 2
    assert statuses.count(Entry.Status.WAITING) == racers - capacity
    waiting = list(
        Entry.objects.filter(event=event, status=Entry.Status.WAITING).order_by("waiting_since", "pk")
    )
    assert [e.waiting_position() for e in waiting] == list(range(1, racers - capacity + 1))
