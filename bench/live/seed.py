"""The live tournament day's seed: one approved, public pairs event with a Mitchell session of TABLES tables
(2 x TABLES pairs, ROUNDS rounds of 2 boards), its table codes made, nothing entered yet; written as JSON
for the locustfile. Built through the services the director's pages use (`setup.create_session`,
`table_entry.create_codes`), on a migrated, empty database.

    DJANGO_SETTINGS_MODULE=config.settings python bench/live/seed.py TABLES ROUNDS seed.json
"""

import datetime
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import transaction  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from bridge.models import SessionPair  # noqa: E402
from bridge.services import live, setup, table_entry  # noqa: E402
from demo import bridge_sample as sample  # noqa: E402
from federation.models import Federation, Role  # noqa: E402

TITLE = "Élő verseny terhelési teszt"


def seed(tables: int, rounds: int) -> dict:
    mbsz, _ = Federation.objects.get_or_create(
        code="mbsz",
        defaults={"name": "Magyar Bridzs Szövetség", "short_name": "MBSz", "game": Federation.BRIDGE},
    )
    start = timezone.now().replace(second=0, microsecond=0)
    with transaction.atomic():
        event = sample.event_with_pairs(mbsz, pairs=2 * tables, title=TITLE, start=start)
        name = f"live-td-{event.pk}@bench.invalid"
        director = get_user_model().objects.create_user(username=name, email=name, password=None)
        Role.objects.create(user=director, kind=Role.DIRECTOR, event=event)
        session = setup.create_session(
            event,
            movement="mitchell",
            pairs=setup.pairs_from_entries(event),
            announced=event.sessions.first(),
            boards_per_round=2,
            rounds=rounds,
        )
        codes = table_entry.create_codes(session, director)
    assert live.is_live(session), "the session has table codes and is not published: it must be live"
    north = {
        seat.pk: seat.number
        for seat in SessionPair.objects.filter(section__session=session).exclude(direction="EW")
    }
    out_tables = []
    for code in codes:
        rounds_here = table_entry.table_rounds(code)
        out_tables.append(
            {
                "code": code.code,
                "table": code.table,
                # the pair that stays North-South at this table all session (a Mitchell): its boards count
                # on the live standings grows by one with each board the table confirms
                "ns": north[rounds_here[0].ns.pk],
                "boards": sum(len(r.boards) for r in rounds_here),
            }
        )
    return {
        "session": session.pk,
        "page": reverse("bridge_session", args=[session.pk]),
        "boards_page": reverse("bridge_frequencies", args=[session.pk]),
        "standings": reverse("bridge_live_standings", args=[session.pk]),
        "boards": reverse("bridge_live_boards", args=[session.pk]),
        "tables": out_tables,
    }


if __name__ == "__main__":
    tables, rounds, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    began = datetime.datetime.now()
    figures = seed(tables, rounds)
    with open(path, "w", encoding="utf-8") as out:
        json.dump(figures, out, indent=1)
    took = (datetime.datetime.now() - began).total_seconds()
    print(
        f"seed: session {figures['session']}, {len(figures['tables'])} tables with codes,"
        f" {sum(t['boards'] for t in figures['tables'])} table-boards to play ({took:.1f} s)"
    )
