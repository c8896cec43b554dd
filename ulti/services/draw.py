"""Drawing rounds: Swiss pairing round by round, an all-play-all schedule at once, hand edits, publishing.

A drawn round is a draft until the director publishes it; a draft is drawn again freely, a round with
results is never redrawn. The pairing engine gets the group's standings from the latest results (not the
stored standings, which may still be processing), the byes every person had in the whole event (one bye
per person per event, MAUSZ II. 10. (2)) and the pairs that already met in this stage.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.engine import notes as engine_notes
from tournaments.models import Event
from ulti.engine.pairing.swiss import PULLED_UP, SECOND_BYE, Player, pair_round
from ulti.engine.schedule import ScheduleError, count_meetings, round_robin
from ulti.engine.standings import RoundResult, compute_standings

from ..models import Bye, Participant, Round, RoundUpload, Seat, Stage, Table, TableEntry
from . import UltiError, loading, setup


def _lock(event_id: int) -> None:
    # Draws and uploads of one event queue behind each other.
    Event.objects.select_for_update().filter(pk=event_id).first()


def engine_rounds(group_or_stage, before: int | None = None) -> list[RoundResult]:
    """Scored rounds (latest versions) of a group or a whole stage, as the standings engine takes them."""
    if isinstance(group_or_stage, Stage):
        rounds = Round.objects.filter(group__stage=group_or_stage)
    else:
        rounds = Round.objects.filter(group=group_or_stage)
    rounds = list(rounds.filter(status=Round.Status.PUBLISHED).select_related("group").order_by("number"))
    if before is not None:
        rounds = [r for r in rounds if r.number < before]
    uploads = loading.latest_uploads(rounds)
    results = loading.results_of(uploads.values())
    seats = loading.seats_of(rounds)
    byes = loading.byes_of(rounds)
    tables_of: dict[int, list[tuple[int, int]]] = {}
    for pk, round_id, number in (
        Table.objects.filter(round__in=rounds).order_by("number").values_list("pk", "round_id", "number")
    ):
        tables_of.setdefault(round_id, []).append((pk, number))
    return loading.round_results(
        [(r.pk, r.number, r.group_id) for r in rounds],
        set(uploads),
        results,
        {table_id: [s.participant_id for s in table_seats] for table_id, table_seats in seats.items()},
        byes,
        tables_of,
    )


def meetings(group, before: int) -> list[tuple[str, str]]:
    """Pairs that sat at one table in the group's earlier rounds (drafts excluded), once per meeting."""
    seats = Seat.objects.filter(
        table__round__group=group,
        table__round__number__lt=before,
        table__round__status=Round.Status.PUBLISHED,
    ).values_list("table_id", "participant_id")
    by_table: dict[int, list[int]] = {}
    for table_id, pid in seats:
        by_table.setdefault(table_id, []).append(pid)
    return [(str(a), str(b)) for ps in by_table.values() for a, b in combinations(sorted(ps), 2)]


def byes_so_far(event_id: int, exclude_round=None) -> Counter:
    """person id -> byes in published rounds of the whole event."""
    qs = Bye.objects.filter(round__group__stage__event_id=event_id, round__status=Round.Status.PUBLISHED)
    if exclude_round is not None:
        qs = qs.exclude(round=exclude_round)
    return Counter(qs.values_list("participant__person_id", flat=True))


def _check_previous(group, number: int) -> None:
    earlier = list(group.rounds.filter(number__lt=number).order_by("number"))
    if len(earlier) != number - 1:
        raise UltiError(_("Round %(n)s cannot be drawn before the rounds in front of it.") % {"n": number})
    uploads = loading.latest_uploads(earlier)
    results = loading.results_of(uploads.values())
    for r in earlier:
        if not r.is_published:
            raise UltiError(_("Publish round %(n)s first.") % {"n": r.number})
        missing = [t.number for t in r.tables.all() if t.pk not in results]
        if missing:
            raise UltiError(
                _("Round %(n)s has no result yet at table(s) %(tables)s.")
                % {"n": r.number, "tables": ", ".join(map(str, missing))}
            )


def _replace_draft(group, number: int) -> None:
    draft = group.rounds.filter(number=number).first()
    if draft is None:
        return
    if draft.is_published or RoundUpload.objects.filter(round=draft).exists():
        raise UltiError(_("Round %(n)s is already published; edit its tables instead.") % {"n": number})
    Seat.objects.filter(table__round=draft).delete()
    Bye.objects.filter(round=draft).delete()
    draft.tables.all().delete()
    draft.delete()


def next_round_number(group) -> int:
    last = group.rounds.order_by("-number").first()
    if last is None:
        return 1
    return last.number if not last.is_published else last.number + 1


@transaction.atomic
def generate_round(group, user=None) -> Round:
    """Draw the group's next round by Swiss pairing (a draft); redraws an unpublished draft."""
    stage = group.stage
    _lock(stage.event_id)
    if stage.system != Stage.System.SWISS:
        raise UltiError(_("An all-play-all stage is drawn as a whole schedule."))
    number = next_round_number(group)
    if number > stage.rounds:
        raise UltiError(_("All %(n)s rounds of this stage are drawn.") % {"n": stage.rounds})
    _check_previous(group, number)
    _replace_draft(group, number)
    participants = list(group.participants.select_related("person"))
    if len(participants) < 3:
        raise UltiError(_("A group needs at least three players."))
    ruleset = setup.ensure_settings(stage.event).ruleset
    if number == 1:
        # The first-round draw uses the live ratings of the moment (MAUSZ III. 8. (3)).
        ratings = setup.live_ratings([p.person_id for p in participants], stage.event.federation)
        for p in participants:
            fresh = ratings.get(p.person_id, setup.NEUTRAL_RATING)
            if fresh != p.rating:
                p.rating = fresh
                p.save(update_fields=["rating"])
    standings = {}
    if number > 1:
        rows = compute_standings(
            engine_rounds(group, before=number), ruleset, players=[p.key for p in participants]
        )
        standings = {s.player: s for s in rows}
    had_bye = byes_so_far(stage.event_id)
    # The engine knows players as "p<id>" so its notes can be given names without touching other numbers.
    players = [
        Player(
            id=f"p{p.pk}",
            points=standings[p.key].points if p.key in standings else 0,
            forint=standings[p.key].forint if p.key in standings else 0,
            # The start number breaks rating ties the way the start list prints them.
            rating=p.rating - p.number / 1000,
            byes=had_bye.get(p.person_id, 0),
        )
        for p in participants
    ]
    met = [(f"p{a}", f"p{b}") for a, b in meetings(group, number)]
    pairing = pair_round(players, met, round_no=number)
    by_key = {f"p{p.pk}": p for p in participants}
    notes = _notes(pairing, by_key, number)
    rnd = Round.objects.create(
        group=group,
        number=number,
        method=Round.Method.SWISS,
        notes=notes,
        repeats=pairing.repeats,
        generated_by=user if user is not None and user.is_authenticated else None,
    )
    _write_tables(
        rnd, [[by_key[k] for k in t.players] for t in pairing.tables], [by_key[k] for k in pairing.byes]
    )
    return rnd


def _name(p: Participant) -> str:
    return f"{p.number}. {p.person}"


def _notes(pairing, by_key, number) -> list[dict]:
    """Explanations as data, translated when shown: what the director must know about this draw."""
    notes = []
    if number == 1:
        notes.append({"kind": "seeded"})
    for key in pairing.byes:
        notes.append({"kind": "bye", "player": _name(by_key[key])})
    for note in pairing.notes:
        if getattr(note, "msgid", None) == SECOND_BYE:
            notes.append({"kind": "second_bye", "player": _name(by_key[note.params["player"].id])})
    for table in pairing.tables:
        for a, b in table.repeats:
            notes.append(
                {"kind": "repeat", "table": table.number, "a": _name(by_key[a]), "b": _name(by_key[b])}
            )
        for note in table.notes:
            if getattr(note, "msgid", None) == PULLED_UP:
                player = by_key[note.params["player"].id]
                notes.append({"kind": "pulled", "table": table.number, "player": _name(player)})

    def name_of(key):
        return _name(by_key[key]) if key in by_key else str(key)

    # The engine's own notes, with names for ids, for whoever wants the detail.
    for note in list(pairing.notes) + [n for t in pairing.tables for n in t.notes]:
        notes.append({"kind": "engine", **engine_notes.as_data(note, name_of)})
    return notes


def _write_tables(rnd: Round, tables: list[list[Participant]], byes: list[Participant]) -> None:
    for number, players in enumerate(tables, start=1):
        table = Table.objects.create(round=rnd, number=number)
        Seat.objects.bulk_create(
            Seat(table=table, participant=p, position=i) for i, p in enumerate(players, start=1)
        )
    Bye.objects.bulk_create(Bye(round=rnd, participant=p) for p in byes)


@transaction.atomic
def generate_schedule(group, user=None) -> list[Round]:
    """All rounds of an all-play-all group at once (drafts), verified: with 21 players (n = 3 mod 6) a
    Kirkman schedule where every pair meets exactly once."""
    stage = group.stage
    _lock(stage.event_id)
    if stage.system != Stage.System.ALL_PLAY_ALL:
        raise UltiError(_("Only an all-play-all stage has a schedule; draw Swiss rounds one by one."))
    existing = list(group.rounds.all())
    if any(r.is_published or RoundUpload.objects.filter(round=r).exists() for r in existing):
        raise UltiError(_("Rounds of this group are already published; the schedule cannot be redrawn."))
    for r in existing:
        _replace_draft(group, r.number)
    participants = list(group.participants.select_related("person").order_by("number"))
    keys = [p.key for p in participants]
    try:
        schedule = round_robin(keys)
    except ScheduleError as error:
        raise UltiError(_("No schedule for this group: %(why)s") % {"why": error})
    repeats, missing = count_meetings(schedule.rounds, keys)
    if schedule.kirkman and (repeats or missing):
        raise UltiError(_("The schedule failed its check; nothing was saved."))
    by_key = {p.key: p for p in participants}
    summary = {"kind": "kirkman", "players": len(keys)} if schedule.kirkman else None
    if summary is None:
        summary = {"kind": "schedule", "repeats": repeats, "missing": missing, "players": len(keys)}
    rounds = []
    for number, (tables, byes) in enumerate(zip(schedule.rounds, schedule.byes, strict=True), start=1):
        rnd = Round.objects.create(
            group=group,
            number=number,
            method=Round.Method.SCHEDULE,
            notes=[summary],
            generated_by=user if user is not None and user.is_authenticated else None,
        )
        _write_tables(rnd, [[by_key[k] for k in t] for t in tables], [by_key[k] for k in byes])
        rounds.append(rnd)
    if stage.rounds != len(rounds):
        stage.rounds = len(rounds)
        stage.save(update_fields=["rounds"])
    return rounds


@transaction.atomic
def publish_round(rnd: Round, user=None) -> Round:
    _lock(rnd.event_id)
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.is_published:
        return rnd
    earlier = rnd.group.rounds.filter(number__lt=rnd.number, status=Round.Status.DRAFT)
    if earlier.exists():
        raise UltiError(_("Publish the earlier rounds first."))
    rnd.status = Round.Status.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    return rnd


def check_tables(rnd: Round, tables: list[list[int]], byes: list[int]) -> tuple[list[str], list[str], int]:
    """(errors, warnings, repeat meetings) of a hand-made seating; participant ids in, translated text out."""
    errors, warnings, repeats = [], [], 0
    participants = {p.pk: p for p in rnd.group.participants.select_related("person")}
    placed = Counter(pid for t in tables for pid in t) + Counter(byes)
    for number, table in enumerate(tables, start=1):
        if len(table) != 3:
            errors.append(_("Table %(n)s: a table seats exactly three players.") % {"n": number})
    unknown = [pid for pid in placed if pid not in participants]
    if unknown:
        errors.append(_("A player is not in this group."))
    for pid, count in placed.items():
        if count > 1 and pid in participants:
            errors.append(_("%(name)s is seated more than once.") % {"name": _name(participants[pid])})
    for pid, p in participants.items():
        if pid not in placed:
            errors.append(_("%(name)s has neither a table nor a bye.") % {"name": _name(p)})
    if errors:
        return errors, warnings, repeats
    met = Counter(frozenset(map(int, pair)) for pair in meetings(rnd.group, rnd.number))
    for number, table in enumerate(tables, start=1):
        for a, b in combinations(table, 2):
            if met.get(frozenset((a, b))):
                repeats += 1
                warnings.append(
                    _("Table %(n)s: %(a)s and %(b)s have met before in this stage.")
                    % {"n": number, "a": _name(participants[a]), "b": _name(participants[b])}
                )
    had = byes_so_far(rnd.event_id, exclude_round=rnd)
    for pid in byes:
        if had.get(participants[pid].person_id):
            warnings.append(
                _("%(name)s has already had a bye in this event (one per person).")
                % {"name": _name(participants[pid])}
            )
    return errors, warnings, repeats


@transaction.atomic
def edit_round(
    rnd: Round, tables: list[list[int]], byes: list[int], *, user=None, confirm=False
) -> list[str]:
    """Seat a round by hand. Returns the warnings; with warnings and no ``confirm`` nothing is saved."""
    _lock(rnd.event_id)
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if RoundUpload.objects.filter(round=rnd).exists():
        raise UltiError(_("Round %(n)s has results; its tables can no longer change.") % {"n": rnd.number})
    if TableEntry.objects.filter(code__table__round=rnd).exists():
        raise UltiError(
            _("Round %(n)s: the tables' phones have entered deals; its tables can no longer change.")
            % {"n": rnd.number}
        )
    errors, warnings, repeats = check_tables(rnd, tables, byes)
    if errors:
        raise UltiError(errors)
    if warnings and not confirm:
        return warnings
    Seat.objects.filter(table__round=rnd).delete()
    Bye.objects.filter(round=rnd).delete()
    rnd.tables.all().delete()
    participants = {p.pk: p for p in rnd.group.participants.all()}
    _write_tables(
        rnd, [[participants[pid] for pid in t] for t in tables], [participants[pid] for pid in byes]
    )
    rnd.method = Round.Method.MANUAL
    rnd.repeats = repeats
    rnd.notes = list(rnd.notes) + [{"kind": "manual", "warnings": warnings}]
    rnd.edited_at = timezone.now()
    rnd.edited_by = user if user is not None and user.is_authenticated else None
    rnd.save(update_fields=["method", "repeats", "notes", "edited_at", "edited_by"])
    return warnings
