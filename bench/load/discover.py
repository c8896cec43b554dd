"""The URLs of the load scenario, found in the seeded demo data; writes them as JSON for the locustfile.

    DJANGO_SETTINGS_MODULE=config.settings python bench/load/discover.py urls.json

Public pages: home, calendar, results and rankings indexes, every public bridge event with its sessions,
frequency sheets and some score cards, every team event's tabs, every ulti event's standings and some
player cards, the masterpoint and rating lists. Each one is fetched once as an anonymous visitor and kept
only if it answers 200 (a page the demo does not show publicly would only count as an error).
The director's target: a published session of a bridge event that vezeto@demo.hu directs.
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db.models import Exists, OuterRef  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from bridge.models import PairSession, SessionPair  # noqa: E402
from federation.models import Federation, Role  # noqa: E402
from teams.models import Round as TeamRound  # noqa: E402
from tournaments.models import Event, public_events_q  # noqa: E402
from ulti.models import Participant, Stage  # noqa: E402

DIRECTOR = "vezeto@demo.hu"


def public_pages() -> list[tuple[str, str]]:
    """(group, url) pairs; the group names the page kind in the figures."""
    year = timezone.localdate().year
    pages = [
        ("home", reverse("home")),
        ("calendar", reverse("calendar")),
        ("calendar", reverse("calendar_year", args=[year])),
        ("results index", reverse("results")),
        ("rankings index", reverse("rankings")),
        ("ulti index", reverse("ulti_index")),
    ]
    for federation in Federation.objects.order_by("code"):
        pages.append(("ranking list", reverse("rankings_masterpoints", args=[federation.code])))
        pages.append(("ranking list", reverse("rankings_masterpoints", args=[federation.code]) + "?page=2"))
        pages.append(("ranking list", reverse("rankings_masterpoints", args=[federation.code]) + "?year=all"))
        if federation.game == Federation.ULTI:
            pages.append(("ranking list", reverse("rankings_rating", args=[federation.code])))
    published = PairSession.objects.filter(published_at__isnull=False)
    for event in Event.objects.filter(public_events_q(), format=Event.Format.PAIRS).filter(
        Exists(published.filter(event=OuterRef("pk")))
    ):
        pages.append(("bridge event", reverse("bridge_event", args=[event.pk])))
        for session in published.filter(event=event):
            pages.append(("bridge session", reverse("bridge_session", args=[session.pk])))
            pages.append(("bridge frequencies", reverse("bridge_frequencies", args=[session.pk])))
            pages.append(
                ("bridge frequencies", reverse("bridge_frequencies", args=[session.pk]) + "?board=1")
            )
            for seat in SessionPair.objects.filter(section__session=session).order_by("pk")[:6]:
                pages.append(("bridge score card", reverse("bridge_score_card", args=[session.pk, seat.pk])))
    for event in Event.objects.filter(public_events_q(), format=Event.Format.TEAMS):
        pages.append(("teams event", reverse("teams_event", args=[event.pk])))
        pages.append(("teams standings", reverse("teams_standings", args=[event.pk])))
        for name in ("teams_bracket", "teams_players", "teams_butler"):
            pages.append(("teams tabs", reverse(name, args=[event.pk])))
        rounds = TeamRound.objects.filter(event=event, status=TeamRound.Status.PUBLISHED).order_by("number")
        for number in rounds.values_list("number", flat=True)[:4]:
            pages.append(("teams round", reverse("teams_round", args=[event.pk, number])))
    for event in Event.objects.filter(public_events_q(), format__in=Event.ULTI_FORMATS).filter(
        Exists(Stage.objects.filter(event=OuterRef("pk")))
    ):
        pages.append(("ulti event", reverse("ulti_event", args=[event.pk])))
        pages.append(("ulti standings", reverse("ulti_standings", args=[event.pk])))
        people = Participant.objects.filter(stage__event=event).values_list("person_id", flat=True)
        for person in list(dict.fromkeys(people))[:4]:
            pages.append(("ulti player", reverse("ulti_player", args=[event.pk, person])))
    return pages


def director_target() -> dict | None:
    events = Role.objects.filter(kind=Role.DIRECTOR, user__username=DIRECTOR).values_list(
        "event_id", flat=True
    )
    session = (
        PairSession.objects.filter(event_id__in=list(events), published_at__isnull=False)
        .order_by("pk")
        .first()
    )
    if session is None:
        return None
    return {
        "login": reverse("login"),
        "username": DIRECTOR,
        "password": "versenyportal",
        "export": reverse("bridge_export_pbn", args=[session.pk]),
        "upload": reverse("bridge_upload", args=[session.pk]),
        "session": reverse("bridge_session", args=[session.pk]),
    }


def main(out: str) -> int:
    client = Client(HTTP_HOST="127.0.0.1")
    kept, dropped = [], []
    for group, url in public_pages():
        status = client.get(url).status_code
        (kept if status == 200 else dropped).append((group, url, status))
    target = director_target()
    Path(out).write_text(
        json.dumps(
            {"pages": [{"group": g, "url": u} for g, u, _ in kept], "director": target}, ensure_ascii=False
        )
    )
    groups = sorted({g for g, _, _ in kept})
    print(
        f"{len(kept)} public pages in {len(groups)} groups ({', '.join(groups)}); director target: "
        f"{target['upload'] if target else 'none'}"
    )
    for group, url, status in dropped:
        print(f"  left out (anonymous visitors get {status}): {group} {url}")
    return 0 if kept and target else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "urls.json"))
