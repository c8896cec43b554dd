"""The stored ranking lists (annual, all-time, rating): rebuilt in SQL when their data version moved."""

from __future__ import annotations

import datetime
import logging
import time

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from federation.engine import age
from federation.models import Federation
from results import page_cache

from ..models import Award, ListKind, ListStamp, RankingState
from ..text import fold_sql
from .schemes import current_scheme
from .state import data_changed, licence_lists, needs_licence

log = logging.getLogger(__name__)


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
            "AND l.federation_id = %(fed)s AND l.year = %(licence_year)s AND l.revoked_at IS NULL)"
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


def licences_changed(federation_id: int) -> int:
    federation = Federation.objects.filter(pk=federation_id).first()
    if federation is None or not licence_lists(federation):
        return 0
    with transaction.atomic():
        return data_changed(federation.pk, licence_lists(federation))
