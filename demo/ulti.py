"""Demo play of ulti events, through the services and the (eager) recompute task; deterministic, idempotent.

- the largest NUB qualifier of this year that has byes: 10 Swiss rounds under MAUSZ rules, plausible
  zero-sum forint results; table 1 of round 1 is entered deal by deal (12 deals) and its totals are that
  table's round result;
- the NUB final: the all-play-all schedule button (Kirkman, 21 players, 10 rounds), all rounds played;
- the sport ulti championship: the day-one groups, then the top 21 in an all-play-all final;
- a team championship event, its first four rounds (lines A, B, C; team standings).

Each step runs only when its result is missing, so running it again adds nothing.
"""

from __future__ import annotations

import random
import zlib

from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments.models import Entry, EntryMember, Event
from ulti import tasks
from ulti.models import Round, RoundUpload, ScoreSheet, Stage
from ulti.services import UltiError, draw, loading, setup, sheets, uploads


def seed(out=None):
    user = _user()
    if user is None:
        return
    approved = Event.objects.filter(status=Event.Status.APPROVED)
    final = approved.filter(event_class=Event.EventClass.NUB_FINAL, format=Event.Format.ULTI_INDIVIDUAL)
    sport = approved.filter(format=Event.Format.SPORT_ULTI)
    team = approved.filter(format=Event.Format.ULTI_TEAM)
    plan = [
        (_qualifier(), {"sheet_round": 1}),
        (final.order_by("-start_date").first(), {}),
        (sport.order_by("-start_date").first(), {"final": True}),
        (team.order_by("start_date").first(), {"limit": 4}),
    ]
    played = []
    for event, options in plan:
        if event is None:
            continue
        try:
            _play(event, user, **options)
        except UltiError as error:
            if out:
                out.write(f"ulti: {event} not played: {error}")
            continue
        played.append(event)
    if out:
        rounds = Round.objects.filter(group__stage__event__in=played).count()
        out.write(
            f"ulti: {len(played)} events played, {rounds} rounds, "
            f"{RoundUpload.objects.count()} result versions, {ScoreSheet.objects.count()} score sheet(s)"
        )


def _user():
    users = get_user_model().objects
    return users.filter(username="staff.mausz@demo.hu").first() or users.filter(is_superuser=True).first()


def _players(event) -> int:
    return EntryMember.objects.filter(
        entry__event=event, entry__status=Entry.Status.ACTIVE, entry__no_show=False
    ).count()


def _qualifier():
    events = Event.objects.filter(
        event_class=Event.EventClass.NUB_QUALIFIER,
        status=Event.Status.APPROVED,
        format=Event.Format.ULTI_INDIVIDUAL,
    ).order_by("start_date", "pk")
    # One already played stays the demo; otherwise the biggest field that needs byes.
    for event in events:
        if Stage.objects.filter(event=event).exists():
            return event
    sized = [(_players(e) % 3 != 0, _players(e), -e.pk, e) for e in events]
    sized = [s for s in sized if s[1] >= 12]
    return max(sized, key=lambda s: s[:3])[3] if sized else None


def _rng(event, *parts) -> random.Random:
    return random.Random(zlib.crc32(f"{event.title}|{event.start_date}|{parts}".encode()))


def _play(event, user, *, limit=None, sheet_round=None, final=False):
    if not Stage.objects.filter(event=event).exists():
        if _players(event) < 3:
            return
        setup.ensure_settings(event, unit_forints=10)
        setup.start_event(event, user)
    # One transaction per stage of play: the recompute queued by each upload runs once, at the commit.
    with transaction.atomic():
        _play_stages(event, user, limit=limit, sheet_round=sheet_round)
    # The recompute runs here too, so the demo is complete even where the commit hooks do not fire.
    tasks.recompute_ulti_event.apply(args=[event.pk])
    first = Stage.objects.filter(event=event, number=1).first()
    if (
        final
        and first.kind == Stage.Kind.QUALIFIER
        and not Stage.objects.filter(event=event, number=2).exists()
    ):
        field = first.participants.count()
        setup.start_next_stage(first, size=21 if field > 21 else 15, user=user)
        with transaction.atomic():
            _play_stages(event, user)
        tasks.recompute_ulti_event.apply(args=[event.pk])


def _play_stages(event, user, *, limit=None, sheet_round=None):
    for stage in Stage.objects.filter(event=event).order_by("number"):
        for group in stage.groups.all():
            if stage.system == Stage.System.ALL_PLAY_ALL and not group.rounds.exists():
                draw.generate_schedule(group, user)
            for number in range(1, (limit or stage.rounds) + 1):
                rnd = group.rounds.filter(number=number).first()
                if rnd is None:
                    rnd = draw.generate_round(group, user)
                if not rnd.is_published:
                    rnd = draw.publish_round(rnd, user)
                if not RoundUpload.objects.filter(round=rnd).exists():
                    _results(event, rnd, user, with_sheet=(number == sheet_round and group.order == 0))


def _results(event, rnd, user, with_sheet=False):
    """Plausible forints: the better-rated tend to win; multiples of the unit, zero-sum at every table."""
    rng = _rng(event, rnd.group.stage.number, rnd.group.name, rnd.number)
    unit = loading.settings_of(event).unit_forints
    results, sheet_rows, first = {}, None, None
    for table in rnd.tables.order_by("number"):
        seats = list(table.seats.select_related("participant").order_by("position"))
        if with_sheet and first is None:
            first = table
            sheet_rows = _sheet_deals([str(s.participant_id) for s in seats])
            totals = sheets.settle_records(table, sheet_rows).totals
            results[table.number] = {int(k): v for k, v in totals.items()}
            continue
        form = [rng.gauss(s.participant.rating / 400, 1.0) for s in seats]
        mean = sum(form) / 3
        units = [round((f - mean) * rng.uniform(12, 30)) for f in form]
        units[2] = -units[0] - units[1]
        results[table.number] = {s.participant_id: u * unit for s, u in zip(seats, units, strict=True)}
    uploads.upload_round(rnd, results, user=user, note="demo")
    if first is not None:
        sheets.save(first, sheet_rows, user=user, note="demo")


def _sheet_deals(keys: list[str]) -> list[tuple[int, dict]]:
    """Twelve deals of one table as a director records them (dealer passes to the left)."""
    a, b, c = keys

    def deal(n, declarer, bid, results, kontra=None, silent=None, revoke=None):
        return (
            n,
            {
                "dealer": keys[(n - 1) % 3],
                "declarer": declarer,
                "bid": bid,
                "results": results,
                "kontra": kontra or {},
                "silent": silent or {},
                "impossible_doubled": False,
                "revoke": revoke,
            },
        )

    return [
        deal(1, a, "passz", {"parti": "won"}),
        deal(2, b, "40-100", {"hundred": "won"}, kontra={"hundred": {c: 1}}),
        deal(3, c, "ulti", {"ulti": "lost", "parti": "won"}),
        deal(4, a, "betli", {"betli": "won"}),
        deal(5, b, "red passz", {"parti": "lost"}, silent={"100": "defenders"}),
        deal(6, c, "durchmars", {"durchmars": "won"}),
        deal(7, a, "40-100 ulti", {"hundred": "won", "ulti": "won"}, kontra={"ulti": {b: 1}}),
        deal(8, b, "passz", {"parti": "won"}, silent={"aces": "declarer"}),
        deal(9, c, "red ulti", {"ulti": "won", "parti": "lost"}),
        deal(10, a, "rebetli", {"betli": "lost"}),
        deal(11, b, "20-100", {"hundred": "won"}),
        deal(
            12, c, "passz", {}, kontra={"parti": {a: 1}}, revoke={"player": a, "phase": "play", "offence": ""}
        ),
    ]
