"""Benchmark: ranking lists of 100,000 players from 2,000,000 masterpoint awards on PostgreSQL.

Creates (or reuses) a scratch database, loads the data with COPY, then prints

* the time to recompute every list of the federation (each year's annual list and the all-time list, one
  INSERT ... SELECT with window functions each), and
* the server time of list pages (Django's test Client in-process, middleware included) over a mix of
  filters, search and deep pages: p50 / p95 / max over the requests, and
* the server time of the portal's search page (/search/?q=) over players' names typed without accents,
  in lower case, as prefixes and with a typo: p50 / p95 / max.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rank_bench python bench/rankings.py
    python bench/rankings.py --players 20000 --awards 400000 --requests 100 --reload
"""

from __future__ import annotations

import argparse
import datetime
import io
import os
import random
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/rank_bench"


def ensure_database(url: str) -> None:
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings_test"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.conf import settings

    # The test client's host; templates are not instrumented (no setup_test_environment) so the
    # figures are the server's own.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]


def copy_rows(cursor, table: str, columns: list[str], rows, chunk: int = 200_000) -> None:
    buffer = io.StringIO()
    n = 0
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            buffer.write("\t".join("\\N" if v is None else str(v) for v in row))
            buffer.write("\n")
            n += 1
            if n % chunk == 0:
                copy.write(buffer.getvalue())
                buffer = io.StringIO()
        copy.write(buffer.getvalue())


def load(players: int, awards: int, events: int, seed: int) -> None:
    from django.db import connection, transaction

    from demo.federation import FEMALE_NAMES, LAST_NAMES, MALE_NAMES
    from federation.engine.text import search_key
    from federation.models import Club, Federation
    from rankings.models import Award, AwardVersion
    from tournaments.models import Event

    rng = random.Random(seed)
    t0 = time.perf_counter()
    with transaction.atomic():
        with connection.cursor() as c:
            c.execute(
                "TRUNCATE rankings_award, rankings_awardversion, rankings_listentry, rankings_liststamp, "
                "rankings_rankingstate, federation_membership, federation_licence, tournaments_event, "
                "federation_club, federation_person, federation_federation RESTART IDENTITY CASCADE"
            )
        fed = Federation.objects.create(
            code="mbsz", name="Magyar Bridzs Szövetség", short_name="MBSz", game="bridge"
        )
        clubs = Club.objects.bulk_create(
            Club(
                federation=fed,
                name=f"Bridzs Klub {i:03d}",
                city="Budapest",
                search_name=search_key(f"Bridzs Klub {i:03d} Budapest"),
            )
            for i in range(1, 201)
        )
        club_ids = [c.pk for c in clubs]
        pcur = connection.connection.cursor()  # the psycopg cursor, for COPY

        def people():
            for pid in range(1, players + 1):
                female = rng.random() < 0.4
                first = rng.choice(FEMALE_NAMES if female else MALE_NAMES)
                birth = datetime.date(rng.randint(1935, 2010), rng.randint(1, 12), rng.randint(1, 28))
                last = rng.choice(LAST_NAMES)
                yield (
                    pid,
                    first,
                    last,
                    birth,
                    "F" if female else "M",
                    "HU",
                    "t",
                    "",
                    "",
                    None,
                    "account",
                    search_key(f"{last} {first}"),
                    "membership",
                )

        copy_rows(
            pcur,
            "federation_person",
            [
                "id",
                "first_name",
                "last_name",
                "birth_date",
                "gender",
                "citizenship",
                "resident_in_hungary",
                "email",
                "phone",
                "user_id",
                "mail_to",
                "search_name",
                "data_basis",
            ],
            people(),
        )
        pcur.execute("SELECT setval(pg_get_serial_sequence('federation_person', 'id'), %s)", [players])
        copy_rows(
            pcur,
            "federation_membership",
            ["person_id", "federation_id", "member_number", "club_id", "region_id", "joined_on", "is_active"],
            (
                (pid, fed.pk, f"B{pid:06d}", rng.choice(club_ids), None, "2000-01-01", "t")
                for pid in range(1, players + 1)
            ),
        )
        years = list(range(2022, 2027))
        event_objs = Event.objects.bulk_create(
            Event(
                federation=fed,
                title=f"Verseny {i}",
                search_title=f"verseny {i}",
                format="pairs",
                start_date=datetime.date(years[i % len(years)], 1 + i % 12, 1 + i % 28),
                status="approved",
                **({"event_class": "club"} if hasattr(Event, "event_class") else {}),
            )
            for i in range(events)
        )
        versions = AwardVersion.objects.bulk_create(
            AwardVersion(
                event=e,
                federation=fed,
                version=1,
                date=e.start_date,
                event_class="club",
                field_size=400,
                snapshot={},
                result_version="bench",
            )
            for e in event_objs
        )
        per_event = awards // events
        # Activity is skewed: a few players play (and score) far more often than most.
        cumulative, running = [], 0.0
        for i in range(players):
            running += 1 / (1 + i) ** 0.6
            cumulative.append(running)
        order = list(range(1, players + 1))
        rng.shuffle(order)

        def award_rows():
            for v in versions:
                chosen = set()
                while len(chosen) < per_event:
                    chosen.update(rng.choices(order, cum_weights=cumulative, k=per_event - len(chosen)))
                for place, pid in enumerate(sorted(chosen), start=1):
                    amount = f"{rng.randint(1, 4000) / 100:.2f}"
                    yield (
                        v.pk,
                        v.event_id,
                        fed.pk,
                        pid,
                        v.date.year,
                        v.date,
                        amount,
                        "final",
                        "",
                        place,
                        place,
                        "club",
                        "t",
                    )

        copy_rows(
            pcur,
            "rankings_award",
            [
                "version_id",
                "event_id",
                "federation_id",
                "person_id",
                "year",
                "date",
                "amount",
                "reason",
                "entry_key",
                "place_from",
                "place_to",
                "event_class",
                "is_current",
            ],
            award_rows(),
        )
    with connection.cursor() as c:
        c.execute("ANALYZE")
    print(
        f"loaded {players:,} players, {Award.objects.count():,} awards, {len(versions):,} events "
        f"in {time.perf_counter() - t0:.1f} s"
    )


def recompute() -> float:
    """Every list of the federation, as recompute_all_lists does, timed one by one."""
    from federation.models import Federation
    from rankings.models import Award, ListEntry
    from rankings.services.lists import list_stamp, recompute_list, vacuum_lists

    fed = Federation.objects.get(code="mbsz")
    years = sorted(
        set(Award.objects.filter(federation=fed, is_current=True).values_list("year", flat=True).distinct())
    )
    lists = [("annual", y) for y in years] + [("alltime", 0)]
    total = 0.0
    for kind, year in lists:
        t0 = time.perf_counter()
        recompute_list(fed, kind, year, force=True)
        elapsed = time.perf_counter() - t0
        total += elapsed
        stamp = list_stamp(fed, kind, year)
        print(f"  {kind:8} {year or '':>4}  {stamp.rows:>7,} rows  {elapsed:6.2f} s")
    t0 = time.perf_counter()
    vacuum_lists()
    elapsed = time.perf_counter() - t0
    total += elapsed
    print(f"  VACUUM (ANALYZE) of the list table  {elapsed:6.2f} s")
    print(f"recompute of all lists: {total:.2f} s ({ListEntry.objects.count():,} stored rows)")
    return total


def p95(sorted_times: list[float]) -> float:
    return sorted_times[min(len(sorted_times) - 1, int(round(0.95 * len(sorted_times))) - 1)]


def pages(requests: int, seed: int) -> list[float]:
    from django.test import Client

    from federation.models import Club, Membership
    from rankings.models import ListEntry

    rng = random.Random(seed)
    client = Client()
    club_ids = list(Club.objects.values_list("pk", flat=True))
    numbers = list(Membership.objects.order_by("?").values_list("member_number", flat=True)[:50])
    names = list(ListEntry.objects.filter(kind="alltime").order_by("?").values_list("name", flat=True)[:50])
    base = "/rankings/mbsz/masterpoints/"

    def url():
        params = {}
        roll = rng.random()
        params["year"] = rng.choice(["2026", "2025", "2024", "all"])
        if roll < 0.25:
            params["club"] = rng.choice(club_ids)
        elif roll < 0.45:
            params["category"] = rng.choice(["junior", "senior", "women"])
        elif roll < 0.55:
            params["q"] = rng.choice(names).split()[0][:5]
        elif roll < 0.62:
            params["q"] = rng.choice(numbers)
        if rng.random() < 0.4:
            params["page"] = rng.choice([2, 10, 100, 500, 1000])
        return base + "?" + "&".join(f"{k}={v}" for k, v in params.items())

    for _ in range(10):  # warm up
        client.get(url())
    times = []
    for _ in range(requests):
        target = url()
        t0 = time.perf_counter()
        response = client.get(target)
        times.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 200, (target, response.status_code)
    times.sort()
    print(
        f"list page server time over {requests} requests: p50 {statistics.median(times):.1f} ms, "
        f"p95 {p95(times):.1f} ms, max {times[-1]:.1f} ms"
    )
    # The same machine's baseline: the portal's home page (base layout, no list).
    home = []
    for _ in range(50):
        t0 = time.perf_counter()
        client.get("/")
        home.append((time.perf_counter() - t0) * 1000)
    home.sort()
    print(
        f"baseline, home page over 50 requests: p50 {statistics.median(home):.1f} ms, p95 {p95(home):.1f} ms"
    )
    t0 = time.perf_counter()
    response = client.get("/rankings/mbsz/masterpoints.csv?year=all")
    size = sum(len(chunk) for chunk in response.streaming_content)
    print(f"CSV export of the all-time list: {(time.perf_counter() - t0):.2f} s, {size / 1e6:.1f} MB")
    return times


def search_pages(requests: int, seed: int) -> list[float]:
    """The search page over names as people type them: unaccented, lower case, prefixes, a typo."""
    from django.conf import settings
    from django.test import Client

    from federation.engine.text import search_key
    from federation.models import Person

    settings.SEARCH_THROTTLE_PER_MINUTE = 10**9  # one client address sends every request
    rng = random.Random(seed)
    client = Client()
    names = list(Person.objects.order_by("?").values_list("last_name", "first_name")[:200])

    def query():
        last, first = rng.choice(names)
        roll = rng.random()
        if roll < 0.3:
            return "surname", search_key(last)  # "szekely"
        if roll < 0.6:
            return "surname + first letters", f"{search_key(last)} {search_key(first)[:3]}"  # "kovacs an"
        if roll < 0.8:
            return "prefix, accented", last[:4]  # "Szék"
        word = search_key(last)
        return "typo", (word[:2] + word[3:] if len(word) > 4 else word)  # a letter left out: "szkely"

    for _ in range(10):
        client.get("/search/", {"q": query()[1]})
    times, by_kind = [], {}
    for _ in range(requests):
        kind, q = query()
        t0 = time.perf_counter()
        response = client.get("/search/", {"q": q})
        elapsed = (time.perf_counter() - t0) * 1000
        times.append(elapsed)
        by_kind.setdefault(kind, []).append(elapsed)
        assert response.status_code == 200, (q, response.status_code)
    times.sort()
    print(
        f"search page server time over {requests} requests ({Person.objects.count():,} players): "
        f"p50 {statistics.median(times):.1f} ms, p95 {p95(times):.1f} ms, max {times[-1]:.1f} ms"
    )
    for kind, kind_times in by_kind.items():
        kind_times.sort()
        print(
            f"  {kind}: {len(kind_times)} requests, p50 {statistics.median(kind_times):.1f} ms, "
            f"p95 {p95(kind_times):.1f} ms"
        )
    # Load-independent: the database round trips of a search page, per kind (not timed).
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    trips = {}
    for _ in range(40):
        kind, q = query()
        with CaptureQueriesContext(connection) as captured:
            client.get("/search/", {"q": q})
        trips.setdefault(kind, []).append(len(captured.captured_queries))
    print(
        "database round trips per search page: "
        + ", ".join(f"{kind} {statistics.mean(n):.1f}" for kind, n in trips.items())
    )
    home = []  # the same moment's baseline: the home page (base layout, no search)
    for _ in range(50):
        t0 = time.perf_counter()
        client.get("/")
        home.append((time.perf_counter() - t0) * 1000)
    home.sort()
    print(
        f"baseline, home page over 50 requests: p50 {statistics.median(home):.1f} ms, p95 {p95(home):.1f} ms"
    )
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--awards", type=int, default=2_000_000)
    parser.add_argument("--events", type=int, default=5_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--reload", action="store_true", help="load the data again even if it is there")
    parser.add_argument("--search-only", action="store_true", help="time only the search page")
    args = parser.parse_args(argv)

    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("bench/rankings.py needs PostgreSQL (DATABASE_URL=postgres://...)")
    ensure_database(url)
    setup_django(url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from rankings.models import Award

    if args.reload or Award.objects.count() != args.awards // args.events * args.events:
        load(args.players, args.awards, args.events, args.seed)
    print(f"machine: {os.cpu_count()} CPUs, load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if not args.search_only:
        recompute()
        pages(args.requests, args.seed)
    search_pages(args.requests, args.seed)
    print(f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
