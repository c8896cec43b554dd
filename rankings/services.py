"""Services of the rankings app: load models, call an engine, write the result in one transaction.

Entry points other apps use:

* ``results_changed(event_id, reason)`` - an event's results became final or changed (a correction, an
  appeal decision): re-award, re-rate and recompute the season and the lists, in Celery after the commit.
* ``live_ratings(person_ids)`` - the current rating of each player, for round-1 seeding of ulti events.
"""

from __future__ import annotations

import datetime
import logging
import time
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

from django.db import connection, transaction
from django.db.models import F, Max, Q, Sum
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from config.celery import enqueue_on_commit, publish
from federation.engine import age
from federation.models import Federation, Membership, Person, Region
from federation.services.notifications import absolute_url, address_of, notify
from results import page_cache

from . import sources
from .engine import awards as award_engine
from .engine import rating as rating_engine
from .engine import season as season_engine
from .engine import team_final as team_engine
from .engine.standings_list import place_label
from .models import (
    Award,
    AwardScheme,
    AwardVersion,
    ListKind,
    ListStamp,
    PaymentResultChange,
    PlayerRating,
    PrizePayment,
    Qualification,
    RankingState,
    RatedEvent,
    RatingHistory,
    Reason,
    Season,
    SeasonEntry,
    SeasonTeamEntry,
    Stage,
)
from .text import fold_sql

log = logging.getLogger(__name__)

SEASON_CLASSES = ("nub_qualifier", "nub_semifinal", "nub_final", "team_regional", "sport_ulti")
CENT = Decimal("0.01")


# --- Public entry points ----------------------------------------------------------------------------------


def results_changed(event_id: int, reason: str = "") -> None:
    """Tell the rankings that an event's results became final or changed; work happens after the commit.

    ``reason``: "correction" or "appeal" (the first final result is recorded as "final" whatever it says).
    """
    transaction.on_commit(lambda: _process_event_results(event_id, reason))


def _process_event_results(event_id: int, reason: str) -> None:
    """Publish the rankings' share of a changed result; when the broker cannot take it, do the work here.

    Nothing else would bring it back: the recompute that calls this is already stamped done, so the results
    sweeper will not run it again. The work is idempotent, so doing it in the caller (in production, the
    worker that just recomputed) is safe.
    """
    from . import tasks

    if not publish(tasks.process_event_results, event_id, reason):
        process_event(event_id, reason)


def live_ratings(person_ids, federation=None) -> dict[int, int]:
    """The current displayed rating of each player; a player never rated gets the starting value."""
    fed = federation or Federation.objects.filter(game=Federation.ULTI).order_by("pk").first()
    ids = [int(p) for p in person_ids]
    result = dict.fromkeys(ids, rating_engine.Rating().display)
    if fed is not None and ids:
        rows = PlayerRating.objects.filter(federation=fed, person_id__in=ids).values_list(
            "person_id", "display"
        )
        result.update(dict(rows))
    return result


# --- Small helpers ----------------------------------------------------------------------------------------


def _state_for_update(federation_id: int) -> RankingState:
    RankingState.objects.get_or_create(federation_id=federation_id)
    return RankingState.objects.select_for_update().get(pk=federation_id)


def _bump(federation_id: int) -> int:
    RankingState.objects.get_or_create(federation_id=federation_id)
    RankingState.objects.filter(pk=federation_id).update(data_version=F("data_version") + 1)
    return RankingState.objects.values_list("data_version", flat=True).get(pk=federation_id)


def _mark_stale(federation_id: int, lists, version: int) -> None:
    """Lists (kind, year) must reach ``version``; a Celery task rebuilds them after the commit."""
    from . import tasks

    for kind, year in set(lists):
        stamp, _created = ListStamp.objects.get_or_create(federation_id=federation_id, kind=kind, year=year)
        if stamp.needs_version < version:
            ListStamp.objects.filter(pk=stamp.pk).update(needs_version=version)
    enqueue_on_commit(tasks.recompute_lists, federation_id)


def data_changed(federation_id: int, lists) -> int:
    """Bump the federation's data version and mark the given lists stale; returns the new version."""
    version = _bump(federation_id)
    _mark_stale(federation_id, lists, version)
    return version


def licence_lists(federation: Federation) -> list[tuple[str, int]]:
    """The lists that leave off players without a licence for the current year (ulti only)."""
    if federation.game != Federation.ULTI:
        return []
    year = timezone.localdate().year
    return [(ListKind.ANNUAL, year), (ListKind.ALLTIME, 0), (ListKind.RATING, 0)]


def needs_licence(federation: Federation, kind: str, year: int) -> bool:
    return (kind, year) in licence_lists(federation)


# --- Award schemes ----------------------------------------------------------------------------------------


def ensure_default_scheme(federation: Federation) -> AwardScheme:
    """Version 1 (the default of docs/masterpoints.md) when the federation has none yet."""
    scheme = AwardScheme.objects.filter(federation=federation).order_by("-version").first()
    if scheme is None:
        scheme, _created = AwardScheme.objects.get_or_create(
            federation=federation,
            version=1,
            defaults=dict(
                valid_from=datetime.date(2000, 1, 1),
                rules=award_engine.DEFAULT_SCHEMES[federation.game],
                note="Default scheme (docs/masterpoints.md)",
            ),
        )
    return scheme


def scheme_for(federation: Federation, on: datetime.date) -> AwardScheme:
    """The scheme that awards an event on ``on``: the newest version already valid that day."""
    ensure_default_scheme(federation)
    scheme = (
        AwardScheme.objects.filter(federation=federation, valid_from__lte=on).order_by("-version").first()
    )
    return scheme or AwardScheme.objects.filter(federation=federation).order_by("version").first()


def current_scheme(federation: Federation) -> AwardScheme:
    return scheme_for(federation, timezone.localdate())


def change_scheme(federation: Federation, rules: dict, valid_from: datetime.date, note: str, user=None):
    """Save a new scheme version and re-award (in Celery) every event it now governs."""
    from . import tasks

    award_engine.scheme_from_dict(rules)  # raises SchemeError
    with transaction.atomic():
        _state_for_update(federation.pk)
        ensure_default_scheme(federation)
        last = AwardScheme.objects.filter(federation=federation).aggregate(v=Max("version"))["v"] or 0
        scheme = AwardScheme.objects.create(
            federation=federation,
            version=last + 1,
            valid_from=valid_from,
            rules=award_engine.scheme_to_dict(award_engine.scheme_from_dict(rules)),
            note=note,
            created_by=user if user is not None and user.is_authenticated else None,
        )
        enqueue_on_commit(tasks.reaward_scheme, scheme.pk)
    return scheme


def reaward_for_scheme(scheme_id: int) -> int:
    """Re-award every recorded event on or after the scheme's first day; returns new versions made."""
    scheme = AwardScheme.objects.select_related("federation").get(pk=scheme_id)
    event_ids = list(
        AwardVersion.objects.filter(
            federation=scheme.federation, is_current=True, date__gte=scheme.valid_from
        ).values_list("event_id", flat=True)
    )
    made = 0
    for event_id in event_ids:
        with transaction.atomic():
            _state_for_update(scheme.federation_id)
            current = AwardVersion.objects.select_related("event").get(event_id=event_id, is_current=True)
            if _award(
                current.event, scheme.federation, current.snapshot, Reason.SCHEME, f"v{scheme.version}"
            ):
                made += 1
    return made


# --- The ledger -------------------------------------------------------------------------------------------


def _num(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, float):
        value = Fraction(str(value))
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)
    return str(value)


def snapshot_of(result: sources.EventResult) -> dict:
    """The JSON form of a result (only strings, numbers, booleans and None, so it compares after a load)."""
    multiplier = (
        Decimal(1) if result.masterpoint_multiplier is None else Decimal(str(result.masterpoint_multiplier))
    )
    placings = []
    for p in sorted(result.placings, key=lambda p: (p.place_from, p.place_to, str(p.entry_key))):
        placings.append(
            {
                "entry_key": str(p.entry_key),
                "place_from": int(p.place_from),
                "place_to": int(p.place_to),
                "place": place_label(p.place_from, p.place_to),
                "points": _num(p.points),
                "forint": None if p.forint is None else int(p.forint),
                "name": p.name or "",
                "players": [
                    {
                        "person_id": int(s.person_id),
                        "fraction": _num(s.boards_played_fraction),
                        "has_rights": s.has_rights,
                        "substitute_for": s.substitute_for,
                    }
                    for s in p.players
                ],
            }
        )
    return {
        "event_class": result.event_class or "",
        "field_size": int(result.field_size),
        "multiplier": str(multiplier.quantize(CENT)),
        "date": result.date.isoformat(),
        "result_version": str(result.version),
        "season": result.season,
        "series_number": result.series_number,
        "region_code": result.region_code,
        "placings": placings,
    }


def _lines_from_snapshot(scheme: AwardScheme, snap: dict) -> list[award_engine.AwardLine]:
    placings = [
        award_engine.Placing(
            entry_key=p["entry_key"],
            place_from=p["place_from"],
            place_to=p["place_to"],
            shares=tuple(
                award_engine.Share(
                    person_id=s["person_id"],
                    fraction=None if s["fraction"] is None else Fraction(s["fraction"]),
                    has_rights=s["has_rights"],
                    substitute_for=s["substitute_for"],
                )
                for s in p["players"]
            ),
        )
        for p in snap["placings"]
    ]
    return award_engine.award_lines(
        scheme.scheme, snap["event_class"], snap["field_size"], Decimal(snap["multiplier"]), placings
    )


def _award(event, federation: Federation, snap: dict, reason: str, note: str = "") -> AwardVersion | None:
    """Write a new award version for an event when its result or its awards changed (caller holds the
    federation's lock). Returns the new version, or None when nothing changed."""
    date = datetime.date.fromisoformat(snap["date"])
    scheme = scheme_for(federation, date)
    lines = _lines_from_snapshot(scheme, snap)
    ids = {line.person_id for line in lines}
    known = set(Person.objects.filter(pk__in=ids).values_list("pk", flat=True))
    if known != ids:
        log.warning("event %s: unknown people %s get no award", event.pk, sorted(ids - known))
        lines = [line for line in lines if line.person_id in known]
    new_set = {(a.person_id, a.entry_key, a.place_from, a.place_to, a.amount) for a in lines}

    current = AwardVersion.objects.select_for_update().filter(event=event, is_current=True).first()
    if current is not None:
        old_set = {
            (a.person_id, a.entry_key, a.place_from, a.place_to, a.amount.quantize(CENT))
            for a in current.awards.all()
        }
        if current.snapshot == snap and old_set == new_set:
            return None
    now = timezone.now()
    if current is None:
        reason = Reason.FINAL
    elif reason not in Reason.values or reason == Reason.FINAL:
        reason = Reason.CORRECTION
    if current is not None:
        AwardVersion.objects.filter(pk=current.pk).update(is_current=False, superseded_at=now)
        current.awards.update(is_current=False)
    last = AwardVersion.objects.filter(event=event).aggregate(v=Max("version"))["v"] or 0
    region = None
    if snap.get("region_code"):
        region = Region.objects.filter(federation=federation, code=snap["region_code"]).first()
    version = AwardVersion.objects.create(
        event=event,
        federation=federation,
        version=last + 1,
        date=date,
        event_class=snap["event_class"],
        field_size=snap["field_size"],
        multiplier=Decimal(snap["multiplier"]),
        season=snap.get("season"),
        series_number=snap.get("series_number"),
        region=region,
        result_version=snap["result_version"],
        scheme=scheme,
        reason=reason,
        note=note,
        snapshot=snap,
        created_at=now,
    )
    Award.objects.bulk_create(
        Award(
            version=version,
            event=event,
            federation=federation,
            person_id=line.person_id,
            year=date.year,
            date=date,
            amount=line.amount,
            reason=reason,
            entry_key=line.entry_key,
            place_from=line.place_from,
            place_to=line.place_to,
            event_class=snap["event_class"],
        )
        for line in lines
    )
    if current is not None and reason != Reason.SCHEME:
        _record_payment_changes(event, current, version)
    years = {date.year} | ({current.date.year} if current is not None else set())
    data_changed(federation.pk, [(ListKind.ANNUAL, y) for y in years] + [(ListKind.ALLTIME, 0)])
    return version


def _record_payment_changes(event, old: AwardVersion, new: AwardVersion) -> None:
    """Prizes already paid stay as they were (VSz 9); we only record that the result changed."""
    for payment in PrizePayment.objects.filter(event=event, paid_at__lte=new.created_at):
        before = payment.place or old.placing_of(payment.entry_key, payment.person_id)
        after = new.placing_of(payment.entry_key, payment.person_id)
        PaymentResultChange.objects.get_or_create(
            payment=payment, award_version=new, defaults={"old_place": before, "new_place": after}
        )


def record_result(event, result: sources.EventResult, reason: str = "") -> AwardVersion | None:
    """Award an event's final result (a new ledger version when anything changed)."""
    federation = event.federation
    with transaction.atomic():
        _state_for_update(federation.pk)
        return _award(event, federation, snapshot_of(result), reason)


def record_prize_payment(event, amount: int, *, entry_key="", person=None, user=None, paid_at=None, note=""):
    """Record a cash prize paid out, with the place it was paid for."""
    current = AwardVersion.objects.filter(event=event, is_current=True).first()
    place = current.placing_of(entry_key, person.pk if person else None) if current else ""
    return PrizePayment.objects.create(
        event=event,
        entry_key=entry_key,
        person=person,
        amount=amount,
        place=place,
        paid_at=paid_at or timezone.now(),
        note=note,
        recorded_by=user if user is not None and user.is_authenticated else None,
    )


def process_event(event_id: int, reason: str = "") -> dict:
    """Everything that follows an event's final (or changed) result; safe to run twice."""
    from tournaments.models import Event

    from . import tasks

    event = Event.objects.select_related("federation").get(pk=event_id)
    result = sources.result_for(event)
    if result is None:
        return {"awarded": False, "rated": False}
    version = record_result(event, result, reason)
    rated = False
    if result.tables or RatedEvent.objects.filter(event=event).exists():
        rated = update_ratings(event, result)
    if result.event_class in SEASON_CLASSES and event.federation.game == Federation.ULTI:
        year = result.season or result.date.year
        with transaction.atomic():
            season, _created = Season.objects.get_or_create(federation=event.federation, year=year)
            enqueue_on_commit(tasks.recompute_season, season.pk)
    return {"awarded": version is not None, "rated": rated}


# --- Ulti rating ------------------------------------------------------------------------------------------


def _rounds_of(result: sources.EventResult) -> list[list[dict[str, int]]]:
    by_round: dict[int, list] = defaultdict(list)
    for table in sorted(result.tables, key=lambda t: (t.round, str(t.table))):
        by_round[table.round].append({str(pid): int(place) for pid, place in sorted(table.places.items())})
    return [by_round[r] for r in sorted(by_round)]


def update_ratings(event, result: sources.EventResult) -> bool:
    """Record an event's tables and replay the ratings from it onward; False when nothing changed."""
    rounds = _rounds_of(result)
    players = {int(pid) for tables in rounds for table in tables for pid in table}
    players |= {s.person_id for p in result.placings for s in p.players}
    counted = bool(rounds) and rating_engine.counts_for_rating(
        rating_earning=result.rating_earning,
        in_calendar=result.in_calendar,
        club_event=result.club_event,
        players=len(players),
    )
    federation = event.federation
    with transaction.atomic():
        _state_for_update(federation.pk)
        rated = RatedEvent.objects.filter(event=event).first()
        facts = dict(
            federation=federation,
            date=result.date,
            result_version=str(result.version),
            counted=counted,
            players=len(players),
            tables=rounds,
        )
        if rated is not None and all(getattr(rated, k) == v for k, v in facts.items()):
            return False
        start = (result.date, event.pk)
        if rated is not None:
            start = min(start, (rated.date, event.pk))
            for key, value in facts.items():
                setattr(rated, key, value)
            rated.processed_at = timezone.now()
            rated.save()
        else:
            if not counted:
                RatedEvent.objects.create(event=event, **facts)
                return False
            RatedEvent.objects.create(event=event, **facts)
        replay_ratings(federation, start)
        data_changed(federation.pk, [(ListKind.RATING, 0)])
    return True


def _after(key) -> Q:
    date, event_id = key
    return Q(date__gt=date) | Q(date=date, event_id__gte=event_id)


def replay_ratings(federation: Federation, start: tuple[datetime.date, int]) -> int:
    """Recompute every rating from the event at ``start`` (date, event id) on; returns events applied."""
    later_history = RatingHistory.objects.filter(federation=federation).filter(_after(start))
    touched = set(later_history.values_list("person_id", flat=True))
    to_apply = list(
        RatedEvent.objects.filter(federation=federation, counted=True)
        .filter(_after(start))
        .order_by("date", "event_id")
    )
    for rated in to_apply:
        touched |= {int(pid) for tables in rated.tables for table in tables for pid in table}
    later_history.delete()

    # The state just before ``start``: the latest history row of each touched player.
    state: dict[int, rating_engine.Rating] = {}
    last_date: dict[int, datetime.date] = {}
    ids = sorted(touched)
    for i in range(0, len(ids), 2000):
        rows = (
            RatingHistory.objects.filter(federation=federation, person_id__in=ids[i : i + 2000])
            .order_by("person_id", "date", "event_id")
            .values_list("person_id", "mu", "sigma", "tables", "events", "date")
        )
        for pid, mu, sigma, tables, events, date in rows:
            state[pid] = rating_engine.Rating(mu, sigma, tables, events)
            last_date[pid] = date

    for rated in to_apply:
        rounds = [
            [{int(pid): place for pid, place in table.items()} for table in tables] for tables in rated.tables
        ]
        new = rating_engine.rate_event(state, rounds)
        RatingHistory.objects.bulk_create(
            RatingHistory(
                federation=federation,
                person_id=pid,
                event_id=rated.event_id,
                date=rated.date,
                mu=r.mu,
                sigma=r.sigma,
                display=r.display,
                tables=r.tables,
                events=r.events,
            )
            for pid, r in sorted(new.items())
        )
        state.update(new)
        for pid in new:
            last_date[pid] = rated.date

    existing = {r.person_id: r for r in PlayerRating.objects.filter(federation=federation, person_id__in=ids)}
    gone = [pid for pid in ids if pid not in state and pid in existing]
    PlayerRating.objects.filter(federation=federation, person_id__in=gone).delete()
    create, update = [], []
    for pid in ids:
        if pid not in state:
            continue
        r = state[pid]
        row = existing.get(pid) or PlayerRating(federation=federation, person_id=pid)
        row.mu, row.sigma, row.display = r.mu, r.sigma, r.display
        row.tables, row.events, row.provisional = r.tables, r.events, r.provisional
        row.last_date = last_date.get(pid)
        (update if row.pk else create).append(row)
    PlayerRating.objects.bulk_create(create)
    PlayerRating.objects.bulk_update(
        update, ["mu", "sigma", "display", "tables", "events", "provisional", "last_date"], batch_size=1000
    )
    return len(to_apply)


# --- Stored lists -----------------------------------------------------------------------------------------


def _age_cutoffs(ref_year: int) -> tuple[datetime.date, datetime.date]:
    """Birth dates on/after the first are junior, before the second senior, in ``ref_year`` (VSz 3)."""
    junior_from = datetime.date(ref_year - age.JUNIOR_AGE_LIMIT, 1, 1)
    senior_before = datetime.date(ref_year - age.SENIOR_AGE, 1, 1)
    return junior_from, senior_before


def _source_sql(kind: str) -> str:
    if kind == ListKind.RATING:
        return (
            "SELECT person_id, display AS total, tables AS events, "
            "CASE WHEN provisional THEN 1 ELSE 0 END AS provisional "
            "FROM rankings_playerrating WHERE federation_id = %(fed)s"
        )
    year_filter = " AND year = %(year)s" if kind == ListKind.ANNUAL else ""
    return (
        "SELECT person_id, ROUND(SUM(amount), 2) AS total, COUNT(DISTINCT event_id) AS events, "
        "0 AS provisional FROM rankings_award "
        f"WHERE federation_id = %(fed)s AND is_current{year_filter} GROUP BY person_id"
    )


def _qualification_sql(levels, params) -> str:
    if not levels:
        return "''"
    parts = []
    for i, level in enumerate(levels):
        params[f"q{i}"] = str(level.min_points)
        params[f"qc{i}"] = level.code
        parts.append(f"WHEN t.total >= CAST(%(q{i})s AS NUMERIC) THEN %(qc{i})s")
    return "CASE " + " ".join(parts) + " ELSE '' END"


def rebuild_list(federation: Federation, kind: str, year: int, data_version: int) -> dict:
    """Replace one stored list by one INSERT ... SELECT with window functions; returns its row counts."""
    today = timezone.localdate()
    ref_year = year if kind == ListKind.ANNUAL else today.year
    junior_from, senior_before = _age_cutoffs(ref_year)
    params = {
        "fed": federation.pk,
        "kind": kind,
        "year": year,
        "version": data_version,
        "junior_from": junior_from,
        "senior_before": senior_before,
        "licence_year": today.year,
    }
    licence = ""
    if needs_licence(federation, kind, year):
        licence = (
            "WHERE EXISTS (SELECT 1 FROM federation_licence l WHERE l.person_id = a.person_id "
            "AND l.federation_id = %(fed)s AND l.year = %(licence_year)s)"
        )
    levels = current_scheme(federation).scheme.qualifications if kind == ListKind.ALLTIME else ()
    qualification = _qualification_sql(levels, params)
    name = "p.last_name || ' ' || p.first_name"
    sort_name = fold_sql(name)  # accent-insensitive: "Ács" sorts with the A's; also starts the search key
    order = "t.total DESC, t.sort_name, t.person_id"
    sql = f"""
        INSERT INTO rankings_listentry (
            federation_id, kind, year, position, place_from, place_to, age_position, age_place_from,
            age_place_to, women_position, women_place_from, women_place_to, person_id, name, search_key,
            member_number, club_id, club_name, region_id, age_category, is_female, total, events,
            provisional, qualification, data_version)
        SELECT %(fed)s, %(kind)s, %(year)s,
            ROW_NUMBER() OVER (ORDER BY {order}),
            RANK() OVER (ORDER BY t.total DESC),
            RANK() OVER (ORDER BY t.total DESC) + COUNT(*) OVER (PARTITION BY t.total) - 1,
            ROW_NUMBER() OVER (PARTITION BY t.age_category ORDER BY {order}),
            RANK() OVER (PARTITION BY t.age_category ORDER BY t.total DESC),
            RANK() OVER (PARTITION BY t.age_category ORDER BY t.total DESC)
                + COUNT(*) OVER (PARTITION BY t.age_category, t.total) - 1,
            CASE WHEN t.is_female THEN ROW_NUMBER() OVER (PARTITION BY t.is_female ORDER BY {order}) END,
            CASE WHEN t.is_female THEN RANK() OVER (PARTITION BY t.is_female ORDER BY t.total DESC) END,
            CASE WHEN t.is_female THEN RANK() OVER (PARTITION BY t.is_female ORDER BY t.total DESC)
                + COUNT(*) OVER (PARTITION BY t.is_female, t.total) - 1 END,
            t.person_id, t.name, t.sort_name || ' ' || LOWER(t.member_number), t.member_number, t.club_id,
            t.club_name, t.region_id, t.age_category, t.is_female, t.total, t.events, t.provisional,
            {qualification}, %(version)s
        FROM (
            SELECT a.person_id, a.total, a.events, (a.provisional = 1) AS provisional,
                {name} AS name,
                {sort_name} AS sort_name,
                COALESCE(m.member_number, '') AS member_number,
                m.club_id, COALESCE(c.name, '') AS club_name,
                COALESCE(m.region_id, c.region_id) AS region_id,
                CASE WHEN p.birth_date >= %(junior_from)s THEN 'junior'
                     WHEN p.birth_date < %(senior_before)s THEN 'senior' ELSE 'open' END AS age_category,
                (p.gender = 'F') AS is_female
            FROM ({_source_sql(kind)}) a
            JOIN federation_person p ON p.id = a.person_id
            LEFT JOIN federation_membership m ON m.person_id = a.person_id AND m.federation_id = %(fed)s
            LEFT JOIN federation_club c ON c.id = m.club_id
            {licence}
        ) t
    """
    where = [federation.pk, kind, year]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL work_mem = '256MB'")  # the window sorts stay in memory
        cursor.execute(
            "DELETE FROM rankings_listentry WHERE federation_id = %s AND kind = %s AND year = %s", where
        )
        cursor.execute(sql, params)
        counts = {"all": cursor.rowcount, "junior": 0, "senior": 0, "open": 0, "women": 0, "qualified": 0}
        cursor.execute(
            "SELECT age_category, is_female, COUNT(*), SUM(CASE WHEN qualification = '' THEN 0 ELSE 1 END) "
            "FROM rankings_listentry WHERE federation_id = %s AND kind = %s AND year = %s "
            "GROUP BY age_category, is_female",
            where,
        )
        for category, female, n, qualified in cursor.fetchall():
            counts[category] += n
            counts["qualified"] += int(qualified or 0)
            if female:
                counts["women"] += n
    return counts


def vacuum_lists() -> None:
    """PostgreSQL: refresh the visibility map and statistics of the rebuilt rows (index-only scans).
    Only outside a transaction (a Celery task); autovacuum does it later anyway."""
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("VACUUM (ANALYZE) rankings_listentry")


def recompute_list(federation: Federation, kind: str, year: int, *, force: bool = False) -> bool:
    """Rebuild one list if it is stale (or ``force``); the stamp row is the per-list lock."""
    with transaction.atomic():
        ListStamp.objects.get_or_create(federation=federation, kind=kind, year=year)
        stamp = ListStamp.objects.select_for_update().get(federation=federation, kind=kind, year=year)
        version = (
            RankingState.objects.filter(pk=federation.pk).values_list("data_version", flat=True).first() or 0
        )
        licence_year = timezone.localdate().year if needs_licence(federation, kind, year) else None
        if not force and not stamp.is_stale and stamp.licence_year == licence_year:
            return False
        started = time.perf_counter()
        stamp.counts = rebuild_list(federation, kind, year, version)
        stamp.rows = stamp.counts["all"]
        stamp.data_version = version
        stamp.licence_year = licence_year
        stamp.computed_at = timezone.now()
        stamp.save()
        page_cache.bump(page_cache.rankings_scope(federation.code))
        log.info(
            "list %s %s %s: %s rows in %.2fs",
            federation.code,
            kind,
            year,
            stamp.rows,
            time.perf_counter() - started,
        )
    return True


def recompute_stale_lists(federation_id: int) -> int:
    federation = Federation.objects.get(pk=federation_id)
    stale = ListStamp.objects.filter(federation=federation, data_version__lt=F("needs_version"))
    done = 0
    for kind, year in list(stale.values_list("kind", "year")):
        done += recompute_list(federation, kind, year)
    if done:
        vacuum_lists()
    return done


def recompute_all_lists(federation: Federation) -> int:
    """Every list of a federation, stale or not: each year's annual list, all-time and rating."""
    years = sorted(
        set(
            Award.objects.filter(federation=federation, is_current=True)
            .values_list("year", flat=True)
            .distinct()
        )
        | set(
            ListStamp.objects.filter(federation=federation, kind=ListKind.ANNUAL).values_list(
                "year", flat=True
            )
        )
    )
    done = 0
    for year in years:
        done += recompute_list(federation, ListKind.ANNUAL, year, force=True)
    done += recompute_list(federation, ListKind.ALLTIME, 0, force=True)
    if federation.game == Federation.ULTI:
        done += recompute_list(federation, ListKind.RATING, 0, force=True)
    vacuum_lists()
    return done


def refresh_current_lists() -> int:
    """Daily: the current lists follow licences, clubs, names and the new year even without new results."""
    done = 0
    year = timezone.localdate().year
    for federation in Federation.objects.all():
        lists = [(ListKind.ANNUAL, year), (ListKind.ALLTIME, 0)]
        if federation.game == Federation.ULTI:
            lists.append((ListKind.RATING, 0))
        for kind, y in lists:
            done += recompute_list(federation, kind, y, force=True)
    vacuum_lists()
    return done


def list_stamp(federation: Federation, kind: str, year: int) -> ListStamp | None:
    return ListStamp.objects.filter(federation=federation, kind=kind, year=year).first()


def list_years(federation: Federation) -> list[int]:
    years = set(
        ListStamp.objects.filter(federation=federation, kind=ListKind.ANNUAL, rows__gt=0).values_list(
            "year", flat=True
        )
    )
    years.add(timezone.localdate().year)
    return sorted(years, reverse=True)


# --- Player history ---------------------------------------------------------------------------------------


def award_history(person: Person, federation: Federation):
    """Current ledger rows with the running total, oldest first."""
    rows = list(
        Award.objects.filter(person=person, federation=federation, is_current=True)
        .select_related("event", "version")
        .order_by("date", "event_id")
    )
    running = Decimal(0)
    for row in rows:
        running += row.amount
        row.running_total = running
    return rows


def superseded_awards(person: Person, federation: Federation):
    return (
        Award.objects.filter(person=person, federation=federation, is_current=False)
        .select_related("event", "version")
        .order_by("-date", "event_id", "-version__version")
    )


def rating_history(person: Person, federation: Federation):
    return (
        RatingHistory.objects.filter(person=person, federation=federation)
        .select_related("event")
        .order_by("date", "event_id")
    )


# --- NUB season -------------------------------------------------------------------------------------------


def _player_regions(federation: Federation, person_ids) -> dict[int, int | None]:
    result = {}
    for m in Membership.objects.filter(federation=federation, person_id__in=person_ids).select_related(
        "club"
    ):
        result[m.person_id] = m.region_id or (m.club.region_id if m.club_id else None)
    return result


def _season_versions(season: Season, event_class: str):
    return list(
        AwardVersion.objects.filter(
            federation=season.federation, is_current=True, season=season.year, event_class=event_class
        )
        .select_related("event", "region")
        .order_by("date", "series_number", "event_id")
    )


def _stage_rows(season: Season, stage: str, versions, lines, names, regions) -> list[SeasonEntry]:
    results_of: dict[int, list[dict]] = defaultdict(list)
    for v in versions:
        for p in v.snapshot["placings"]:
            for s in p["players"]:
                results_of[s["person_id"]].append(
                    {
                        "event_id": v.event_id,
                        "number": v.series_number,
                        "region": v.region.name if v.region else "",
                        "points": p["points"] or "0",
                        "forint": p["forint"] or 0,
                        "place": p["place"],
                        "counted": False,
                    }
                )
    rows = []
    for line in lines:
        results = results_of[line.person_id]
        for r in results:
            r["counted"] = r["event_id"] in line.counted
        rows.append(
            SeasonEntry(
                season=season,
                stage=stage,
                person_id=line.person_id,
                name=names.get(line.person_id, str(line.person_id)),
                region_id=regions.get(line.person_id),
                attended=line.attended,
                points=Decimal(str(line.points)),
                forint=line.forint,
                eligible=line.eligible,
                position=line.position,
                place_from=line.place_from,
                place_to=line.place_to,
                status=line.status,
                reserve_position=line.reserve_position,
                results=results,
            )
        )
    return rows


def _players_of(versions) -> dict[int, list[season_engine.EventScore]]:
    scores: dict[int, list[season_engine.EventScore]] = defaultdict(list)
    for v in versions:
        for p in v.snapshot["placings"]:
            points = Decimal(p["points"] or "0")
            for s in p["players"]:
                scores[s["person_id"]].append(season_engine.EventScore(v.event_id, points, p["forint"] or 0))
    return scores


def recompute_season(season_id: int) -> Season:
    """Rebuild the season's tables (qualifiers, semifinal, team final, sport ulti invitations)."""
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("federation").get(pk=season_id)
        federation = season.federation
        qualifiers = _season_versions(season, "nub_qualifier")
        semifinals = _season_versions(season, "nub_semifinal")
        q_scores, s_scores = _players_of(qualifiers), _players_of(semifinals)
        ids = set(q_scores) | set(s_scores)
        people = {p.pk: p for p in Person.objects.filter(pk__in=ids)}
        names = {pid: str(p) for pid, p in people.items()}
        regions = _player_regions(federation, ids)

        def order_key(pid):
            p = people.get(pid)
            return (p.last_name, p.first_name) if p else ("", "")

        q_lines = season_engine.qualifier_table(
            [season_engine.PlayerResults(pid, tuple(r), order_key(pid)) for pid, r in q_scores.items()],
            best=season.best_of,
            min_attended=season.min_attended,
            places=season.semifinal_places,
        )
        s_lines = season_engine.stage_table(
            [season_engine.PlayerResults(pid, tuple(r), order_key(pid)) for pid, r in s_scores.items()],
            places=season.final_places,
        )
        SeasonEntry.objects.filter(season=season).delete()
        SeasonEntry.objects.bulk_create(
            _stage_rows(season, Stage.QUALIFIER, qualifiers, q_lines, names, regions)
            + _stage_rows(season, Stage.SEMIFINAL, semifinals, s_lines, names, regions)
            + _sport_ulti_rows(season, regions)
        )
        _team_rows(season)
        season.computed_at = timezone.now()
        season.computed_version = (
            RankingState.objects.filter(pk=federation.pk).values_list("data_version", flat=True).first() or 0
        )
        season.save(update_fields=["computed_at", "computed_version"])
    return season


def _team_rows(season: Season) -> None:
    versions = _season_versions(season, "team_regional")
    best: dict[str, tuple] = {}
    for v in versions:
        region = v.region.code if v.region else ""
        for p in v.snapshot["placings"]:
            key = p["entry_key"]
            score = (Decimal(p["points"] or "0"), p["forint"] or 0)
            if key not in best or score > best[key][0]:
                best[key] = (score, region, v.region, p)
    result = team_engine.team_final(
        [team_engine.TeamResult(k, b[1], b[0][0], b[0][1]) for k, b in best.items()],
        places=season.team_final_places,
        per_region=season.team_per_region,
    )
    ids = {s["person_id"] for b in best.values() for s in b[3]["players"]}
    names = {p.pk: str(p) for p in Person.objects.filter(pk__in=ids)}
    SeasonTeamEntry.objects.filter(season=season).delete()
    SeasonTeamEntry.objects.bulk_create(
        SeasonTeamEntry(
            season=season,
            region=best[line.key][2],
            region_name=best[line.key][2].name if best[line.key][2] else "",
            entry_key=line.key,
            name=best[line.key][3]["name"] or line.key,
            players=", ".join(names.get(s["person_id"], "") for s in best[line.key][3]["players"]),
            points=line.points,
            forint=line.forint,
            region_place_from=line.region_place_from,
            region_place_to=line.region_place_to,
            status=line.status,
            via=line.via,
            reserve_position=line.reserve_position,
        )
        for line in result.lines
    )


def _sport_ulti_rows(season: Season, regions) -> list[SeasonEntry]:
    federation = season.federation
    previous = list(
        Award.objects.filter(
            federation=federation, is_current=True, year=season.year - 1, event_class="sport_ulti"
        )
        .values("person_id")
        .annotate(total=Sum("amount"))
        .order_by("-total", "person__last_name", "person__first_name", "person_id")
        .values_list("person_id", flat=True)
    )
    finals = _season_versions(season, "nub_final")
    if finals:
        final_players = [s["person_id"] for v in finals for p in v.snapshot["placings"] for s in p["players"]]
    else:
        final_players = list(
            Qualification.objects.filter(season=season, stage=Stage.FINAL, status=Qualification.CONFIRMED)
            .order_by("rank")
            .values_list("person_id", flat=True)
        )
    invited = season_engine.sport_ulti_invitations(
        previous, final_players, from_list=season.sport_ulti_from_list
    )
    people = {p.pk: p for p in Person.objects.filter(pk__in=[pid for pid, _ in invited])}
    return [
        SeasonEntry(
            season=season,
            stage=Stage.SPORT_ULTI,
            person_id=pid,
            name=str(people[pid]),
            region_id=regions.get(pid),
            position=i + 1,
            status=SeasonEntry.INVITED,
            note=why,
        )
        for i, (pid, why) in enumerate(invited)
        if pid in people
    ]


STAGE_SOURCE = {Stage.SEMIFINAL: Stage.QUALIFIER, Stage.FINAL: Stage.SEMIFINAL}


def _notify_invitation(q: Qualification, replacement: bool) -> None:
    with translation.override("hu"):
        stage = Stage(q.stage).label
        subject = _("NUB %(year)s: you qualified for the %(stage)s") % {"year": q.season.year, "stage": stage}
        if replacement:
            subject = _("NUB %(year)s: a place in the %(stage)s from the reserve list") % {
                "year": q.season.year,
                "stage": stage,
            }
        body = _(
            "Dear %(name)s,\n\nyou have a place in the %(stage)s of the National Ulti Championship %(year)s. "
            "Please confirm it on the portal by %(deadline)s, otherwise the next player on the reserve list "
            "takes it.\n"
        ) % {
            "name": q.person,
            "stage": stage,
            "year": q.season.year,
            "deadline": timezone.localtime(q.deadline).strftime("%Y-%m-%d %H:%M"),
        }
    season_url = absolute_url("rankings_season", code=q.season.federation.code, year=q.season.year)
    notify([address_of(q.person)], subject, body + season_url, federation=q.season.federation_id)


def open_confirmations(season: Season, stage: str, deadline: datetime.datetime) -> list[Qualification]:
    """Invite the qualified players of the stage's source table; each must confirm by ``deadline``."""
    source = STAGE_SOURCE[stage]
    created = []
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        setattr(season, "semifinal_deadline" if stage == Stage.SEMIFINAL else "final_deadline", deadline)
        season.save()
        rows = SeasonEntry.objects.filter(season=season, stage=source, status=SeasonEntry.QUALIFIED)
        invited = set(
            Qualification.objects.filter(season=season, stage=stage).values_list("person_id", flat=True)
        )
        for row in rows.select_related("person").order_by("position"):
            if row.person_id in invited:
                continue
            q = Qualification.objects.create(
                season=season, stage=stage, person=row.person, rank=row.position, deadline=deadline
            )
            _notify_invitation(q, replacement=False)
            created.append(q)
    return created


def respond(qualification: Qualification, accept: bool, now=None) -> Qualification:
    """The player confirms (or gives up) his place; a late answer after expiry changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        q = Qualification.objects.select_for_update().get(pk=qualification.pk)
        if q.status != Qualification.INVITED or q.deadline < now:
            return q
        q.status = Qualification.CONFIRMED if accept else Qualification.DECLINED
        q.responded_at = now
        q.save(update_fields=["status", "responded_at"])
    if not accept:
        process_deadlines(now, season=q.season)
    return q


def process_deadlines(now=None, season: Season | None = None) -> int:
    """Replace every qualified player who missed his deadline (or declined) from the reserve list in
    order, and notify the replacement. Idempotent; run periodically by Celery beat."""
    now = now or timezone.now()
    seasons = (
        [season] if season is not None else Season.objects.filter(qualifications__isnull=False).distinct()
    )
    replaced = 0
    for s in seasons:
        for stage in (Stage.SEMIFINAL, Stage.FINAL):
            replaced += _replace_stage(s.pk, stage, now)
    return replaced


def _replace_stage(season_id: int, stage: str, now) -> int:
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season_id)
        invitations = list(
            Qualification.objects.filter(season=season, stage=stage)
            .select_related("person")
            .order_by("invited_at", "rank", "pk")
        )
        if not invitations:
            return 0
        replaced_ids = set(
            Qualification.objects.filter(season=season, stage=stage, replaces__isnull=False).values_list(
                "replaces_id", flat=True
            )
        )
        reserve_rows = list(
            SeasonEntry.objects.filter(season=season, stage=STAGE_SOURCE[stage], status=SeasonEntry.RESERVE)
            .select_related("person")
            .order_by("reserve_position")
        )
        plan = season_engine.replacements(
            [
                season_engine.Invitation(q.person_id, q.status, q.deadline, replaced=q.pk in replaced_ids)
                for q in invitations
            ],
            [row.person_id for row in reserve_rows],
            now,
        )
        by_person = {q.person_id: q for q in invitations}
        reserve_of = {row.person_id: row for row in reserve_rows}
        for step in plan:
            old = by_person[step.vacated_by]
            if step.expired:
                old.status = Qualification.EXPIRED
                old.save(update_fields=["status"])
            if step.replacement is None:
                continue
            row = reserve_of[step.replacement]
            new = Qualification.objects.create(
                season=season,
                stage=stage,
                person=row.person,
                rank=row.position,
                via=Qualification.RESERVE,
                deadline=now + datetime.timedelta(days=season.replacement_days),
                invited_at=now,
                replaces=old,
            )
            _notify_invitation(new, replacement=True)
        return sum(1 for step in plan if step.replacement is not None)


def licences_changed(federation_id: int) -> int:
    federation = Federation.objects.filter(pk=federation_id).first()
    if federation is None or not licence_lists(federation):
        return 0
    with transaction.atomic():
        return data_changed(federation.pk, licence_lists(federation))
