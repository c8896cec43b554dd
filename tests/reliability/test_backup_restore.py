"""Backup and restore, performed: pg_dump -Fc the database, pg_restore it into a fresh one, compare.

PostgreSQL only (skipped elsewhere; CI runs the suite on PostgreSQL). The test writes a small but real
world (federation, club, people, an approved event with entries, a scored bridge session with its result
version and board results), dumps the test database in the custom format exactly as production does
(`pg_dump -Fc`), creates a scratch database, restores into it with `pg_restore`, and checks that every table
has the same number of rows and that a few key tables have the same checksum. The scratch database is
dropped at the end, whatever happens.

Production (docker-compose), as documented in docs/reliability.md:

    docker-compose exec -T db pg_dump -U portal -Fc portal > backup.dump
    docker-compose exec -T db createdb -U portal portal_restore
    docker-compose exec -T db pg_restore -U portal --no-owner --exit-on-error -d portal_restore < backup.dump
"""

import os
import random
import shutil
import subprocess
import uuid

import pytest
from django.conf import settings
from django.db import connection

from bridge.models import BoardResult, ResultVersion
from bridge.services import setup, upload_readers, uploads
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload

KEY_TABLES = (
    "federation_federation",
    "federation_club",
    "federation_person",
    "federation_membership",
    "tournaments_event",
    "tournaments_entry",
    "bridge_resultversion",
    "bridge_boardresult",
)


def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("backup and restore are PostgreSQL's pg_dump / pg_restore")
    for tool in ("pg_dump", "pg_restore", "psql"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")


def _libpq(settings_dict: dict) -> tuple[list[str], dict]:
    """Connection arguments and environment for the PostgreSQL client tools."""
    args = []
    if settings_dict.get("HOST"):
        args += ["-h", settings_dict["HOST"]]
    if settings_dict.get("PORT"):
        args += ["-p", str(settings_dict["PORT"])]
    if settings_dict.get("USER"):
        args += ["-U", settings_dict["USER"]]
    env = dict(os.environ)
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = settings_dict["PASSWORD"]
    return args, env


def _run(command: list[str], env: dict) -> str:
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stderr}"
    return done.stdout


def _psql(args, env, database: str, sql: str) -> str:
    return _run(
        ["psql", *args, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-d", database, "-c", sql], env
    )


def _tables(args, env, database: str) -> list[str]:
    sql = (
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
    )
    return [line for line in _psql(args, env, database, sql).splitlines() if line]


def _counts(args, env, database: str, tables: list[str]) -> dict[str, int]:
    sql = " UNION ALL ".join(f"SELECT '{t}', count(*) FROM \"{t}\"" for t in tables)
    out = {}
    for line in _psql(args, env, database, sql).splitlines():
        name, count = line.rsplit("|", 1)
        out[name] = int(count)
    return out


def _checksum(args, env, database: str, table: str) -> str:
    sql = f"SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t.id), '')) FROM \"{table}\" t"
    return _psql(args, env, database, sql).strip()


@pytest.fixture
def world(transactional_db, mbsz, bridge_club, make_user):
    """Committed data (transactional_db: pg_dump sees it): people, an event with entries, a scored session."""
    import datetime

    from django.utils import timezone

    start = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
    event = sample.event_with_pairs(
        mbsz, pairs=8, title="Mentés és visszaállítás", start=start, club=bridge_club
    )
    director = make_user("backup-td@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(5))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    return event


@pytest.mark.postgres
@pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="backup and restore are PostgreSQL's pg_dump / pg_restore",
)
def test_pg_dump_and_pg_restore_give_the_same_rows(world, tmp_path):
    _postgres_only()
    assert ResultVersion.objects.count() == 1 and BoardResult.objects.count() > 0
    source = connection.settings_dict["NAME"]
    args, env = _libpq(connection.settings_dict)
    dump = tmp_path / "backup.dump"
    scratch = f"restore_check_{uuid.uuid4().hex[:12]}"

    # The backup: custom format, compressed, restorable table by table.
    _run(["pg_dump", *args, "-Fc", "--no-owner", "-f", str(dump), source], env)
    assert dump.stat().st_size > 0

    _run(["createdb", *args, scratch], env)
    try:
        _run(["pg_restore", *args, "--no-owner", "--exit-on-error", "-d", scratch, str(dump)], env)

        tables = _tables(args, env, source)
        assert tables == _tables(args, env, scratch)
        assert set(KEY_TABLES) <= set(tables)
        before, after = _counts(args, env, source, tables), _counts(args, env, scratch, tables)
        assert after == before
        assert before["bridge_boardresult"] == BoardResult.objects.count() > 0
        assert before["tournaments_entry"] >= 8 and before["django_migrations"] > 0
        for table in KEY_TABLES:
            assert _checksum(args, env, scratch, table) == _checksum(args, env, source, table), table
        # The restored sequences continue after the restored rows (a new row would not collide).
        sql = "SELECT last_value >= (SELECT max(id) FROM bridge_boardresult) FROM bridge_boardresult_id_seq"
        assert _psql(args, env, scratch, sql).strip() == "t"
    finally:
        _run(["dropdb", *args, "--if-exists", scratch], env)
    assert scratch not in _psql(args, env, "postgres", "SELECT datname FROM pg_database")
