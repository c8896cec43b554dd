"""Laying out a pair event: settings, pairs from the entries, sessions with sections and movements."""

import math

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bridge.engine import movements
from rankings.services import results_changed
from tournaments.models import Entry

from ..models import Pair, PairEvent, PairSession, Section, SessionPair
from . import versions


class SetupError(ValueError):
    pass


def pair_event(event) -> PairEvent:
    settings, _created = PairEvent.objects.get_or_create(event=event)
    return settings


def change_tie_break(event, tie_break: str) -> PairEvent:
    """Set the tie-break the organiser announced (VSz 26); standings already computed are recomputed."""
    with transaction.atomic():
        settings = PairEvent.objects.select_for_update().get(pk=pair_event(event).pk)
        if settings.tie_break != tie_break:
            settings.tie_break = PairEvent.TieBreak(tie_break)
            settings.save(update_fields=["tie_break"])
            if PairSession.objects.filter(event=event, versions__isnull=False).exists():
                versions.mark_changed(event.pk)
    return settings


def pairs_from_entries(event) -> list[Pair]:
    """One event pair per active entry that showed up (made once; existing ones are kept)."""
    entries = (
        event.entries.filter(status=Entry.Status.ACTIVE, no_show=False)
        .prefetch_related("members")
        .order_by("entered_at", "pk")
    )
    existing = {p.entry_id: p for p in Pair.objects.filter(event=event, entry__isnull=False)}
    out = []
    for entry in entries:
        pair = existing.get(entry.pk)
        if pair is None:
            members = sorted(entry.members.all(), key=lambda m: m.position)
            pair = Pair.objects.create(
                event=event,
                entry=entry,
                player1_id=members[0].person_id if members else None,
                player2_id=members[1].person_id if len(members) > 1 else None,
            )
        out.append(pair)
    return out


def parse_rounds(text: str) -> list[int]:
    rounds = []
    for part in (text or "").replace(";", ",").split(","):
        part = part.strip()
        if part:
            if not part.isdigit():
                raise SetupError(_("%(part)s is not a round number") % {"part": part})
            rounds.append(int(part))
    return sorted(set(rounds))


def create_session(
    event,
    *,
    movement: str,
    pairs: list[Pair] | None = None,
    announced=None,
    sections: int = 1,
    boards_per_round: int = 2,
    rounds: int | None = None,
    even_method: str = "skip",
    arrow_switch_rounds: list[int] = (),
) -> PairSession:
    """A new session; with `pairs` (seating order) and a generated movement the pairs get their numbers.

    Mitchell: in each section the first half sit North-South 1..t, the rest East-West t+1..2t (an odd
    section leaves the last East-West place empty: the pair that would face it sits out). Howell: 1..n.
    """
    if pairs is not None and not list(pairs):
        # Seating the entries was asked for and nobody is entered (or all withdrew or did not show).
        raise SetupError(_("No pairs to seat: nobody has an active entry, so the session cannot start."))
    pairs = list(pairs or [])
    if movement not in Section.Movement.values:
        raise SetupError(_("unknown movement"))
    if sections < 1 or (pairs and len(pairs) < 3 * sections and movement != Section.Movement.UPLOADED):
        raise SetupError(_("every section needs at least three pairs"))
    groups = [pairs[i::sections] for i in range(sections)] if pairs else [[] for _ in range(sections)]
    plans = []
    for group in groups:
        if movement == Section.Movement.MITCHELL:
            tables = max(2, math.ceil(len(group) / 2))
            try:
                plan = movements.mitchell(tables, boards_per_round, rounds, even_method, arrow_switch_rounds)
            except ValueError as error:
                raise SetupError(str(error))
        elif movement == Section.Movement.HOWELL:
            try:
                plan = movements.howell(max(3, len(group)), boards_per_round)
            except ValueError as error:
                raise SetupError(str(error))
        else:
            plan = None
        plans.append(plan)
    with transaction.atomic():
        pair_event(event)
        number = (
            PairSession.objects.filter(event=event)
            .order_by("-number")
            .values_list("number", flat=True)
            .first()
            or 0
        ) + 1
        boards = max((p.board_sets * p.boards_per_round for p in plans if p), default=0)
        session = PairSession.objects.create(event=event, number=number, announced=announced, boards=boards)
        for index, (group, plan) in enumerate(zip(groups, plans, strict=True)):
            section = Section.objects.create(
                session=session,
                letter=section_letter(index),
                movement=movement,
                tables=plan.tables if plan else 0,
                boards_per_round=boards_per_round,
                rounds=rounds if movement == Section.Movement.MITCHELL else None,
                even_method=even_method,
                arrow_switch_rounds=list(arrow_switch_rounds)
                if movement == Section.Movement.MITCHELL
                else [],
                howell_pairs=len(group) if movement == Section.Movement.HOWELL else None,
            )
            _seat(section, group, plan)
    return session


def section_letter(index: int) -> str:
    """A, B, ..., Z, then AA, AB, ...: a big field has more than 26 sections."""
    if index < 26:
        return chr(ord("A") + index)
    return chr(ord("A") + index // 26 - 1) + chr(ord("A") + index % 26)


def _seat(section: Section, group: list[Pair], plan) -> None:
    if plan is None or not group:
        return
    if plan.kind == "mitchell":
        t = plan.tables
        seats = [(i + 1, SessionPair.Direction.NS) for i in range(t)] + [
            (t + i + 1, SessionPair.Direction.EW) for i in range(t)
        ]
    else:
        seats = [(i + 1, SessionPair.Direction.NONE) for i in range(len(group))]
    SessionPair.objects.bulk_create(
        [
            SessionPair(section=section, pair=pair, number=number, direction=direction)
            for pair, (number, direction) in zip(group, seats, strict=False)
        ]
    )


def publish(session: PairSession, user) -> PairSession:
    """Publish the session's results (frequency sheets): the VSz 12 correction window starts now. The
    director's action is `live.publish`, which also mails the players (issue #18)."""
    with transaction.atomic():
        session = PairSession.objects.select_for_update().get(pk=session.pk)
        if session.published_at is not None:
            return session
        if versions.latest_version(session) is None:
            raise SetupError(_("there are no results to publish"))
        session.published_at = timezone.now()
        session.published_by = user
        session.save(update_fields=["published_at", "published_by"])
        # The event may now be final: the rankings ask the masterpoint source again.
        results_changed(session.event_id)
    return session
