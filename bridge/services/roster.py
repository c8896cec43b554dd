"""Substitutes and withdrawals (VSz 25): who keeps the rights, whose results stand; exclusions (VSz 23).

The two rules are plain functions (`player_rights`, `sessions_that_stand`) so they are tested alone; the
recompute applies them. Recording a substitute or a withdrawal is a director's act that raises the
event's version and queues the recompute like any upload.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from results.models import VersionedUpload

from .. import exclusion_reports
from ..engine.scoring import exclusion as exclusion_rule
from ..models import Exclusion, Pair, PairSession, Substitution, Withdrawal
from . import versions


@dataclass(frozen=True)
class PlayerRight:
    person_id: int
    boards: int
    has_rights: bool
    substitute_for: int | None = None


def player_rights(
    pair_boards: int, originals: Sequence[int], substitutions: Iterable[tuple[int, int, int]]
) -> list[PlayerRight]:
    """Rights of a pair's players given `(original, substitute, boards the substitute played)`.

    A player who played fewer than half of the pair's boards has no right to masterpoints or prizes;
    between a substitute and the player he replaced, the one who played more boards has them, the
    original entrant when equal.
    """
    replaced: dict[int, int] = {}
    played_by_sub: dict[tuple[int, int], int] = {}
    for original, substitute, boards in substitutions:
        replaced[original] = replaced.get(original, 0) + boards
        played_by_sub[(original, substitute)] = played_by_sub.get((original, substitute), 0) + boards
    played = {person: max(pair_boards - replaced.get(person, 0), 0) for person in originals}

    def enough(boards: int) -> bool:
        return pair_boards > 0 and 2 * boards >= pair_boards

    out = []
    for person in originals:
        best_sub = max((b for (o, _s), b in played_by_sub.items() if o == person), default=-1)
        out.append(PlayerRight(person, played[person], enough(played[person]) and played[person] >= best_sub))
    for (original, substitute), boards in played_by_sub.items():
        out.append(
            PlayerRight(substitute, boards, enough(boards) and boards > played.get(original, 0), original)
        )
    return out


@dataclass(frozen=True)
class SessionPlay:
    """A withdrawn pair in one session: boards its movement gave it, boards it has results on."""

    session: int
    scheduled: int
    played: int

    @property
    def full(self) -> bool:
        return self.scheduled > 0 and self.played >= self.scheduled

    @property
    def half(self) -> bool:
        return self.scheduled > 0 and 2 * self.played >= self.scheduled


def sessions_that_stand(plays: Sequence[SessionPlay], multi_session: bool) -> set[int]:
    """The sessions whose results of a withdrawn pair stand; the others' are deleted.

    One session: they stand if the pair played at least half of its boards. Several: only if it played at
    least one full session; then an unfinished session stands if half of it was played.
    """
    if not multi_session:
        return {p.session for p in plays if p.half}
    if not any(p.full for p in plays):
        return set()
    return {p.session for p in plays if p.half}


# --- the director's acts --------------------------------------------------------------------------------


def parse_boards(text: str) -> list[int]:
    """'1-9, 13' -> [1, ..., 9, 13]; ValueError for anything else."""
    boards: set[int] = set()
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        first, _sep, last = part.partition("-")
        if not first.strip().isdigit() or (last and not last.strip().isdigit()):
            raise ValueError(_("%(part)s is not a board or a range of boards like 1-9") % {"part": part})
        low, high = int(first), int(last or first)
        if low < 1 or high < low:
            raise ValueError(_("%(part)s is not a board or a range of boards like 1-9") % {"part": part})
        boards.update(range(low, high + 1))
    if not boards:
        raise ValueError(_("no boards given"))
    return sorted(boards)


def record_substitution(session: PairSession, pair, original, substitute, boards: list[int], user, note=""):
    if original.pk not in pair.player_ids:
        raise ValueError(_("%(person)s is not a player of this pair") % {"person": original})
    if substitute.pk in pair.player_ids:
        raise ValueError(_("a player of the pair cannot substitute for his partner"))
    boards = sorted(set(boards))
    with transaction.atomic():
        versions.lock_event(session.event_id)
        _check_substitute(session, pair, substitute, boards)
        sub = Substitution.objects.create(
            session=session,
            pair=pair,
            original=original,
            substitute=substitute,
            boards=boards,
            recorded_by=user,
            note=note,
        )
        versions.mark_changed(session.event_id)
    return sub


def _check_substitute(session: PairSession, pair, substitute, boards: list[int]):
    """VSz 25: nobody substitutes in an event he plays in, or in a session he played already (for another
    pair); and a pair never has two substitutes at the table (both its players replaced on one board)."""
    plays = Pair.objects.filter(event_id=session.event_id).filter(
        Q(player1=substitute) | Q(player2=substitute)
    )
    if plays.exists():
        raise ValueError(
            _("%(person)s plays in this event and cannot be a substitute in it (VSz 25)")
            % {"person": substitute}
        )
    if Substitution.objects.filter(session=session, substitute=substitute).exclude(pair=pair).exists():
        raise ValueError(
            _("%(person)s already substituted for another pair in this session (VSz 25)")
            % {"person": substitute}
        )
    for other in Substitution.objects.filter(session=session, pair=pair).select_related("substitute"):
        shared = sorted(set(other.boards) & set(boards))
        if shared and other.substitute_id != substitute.pk:
            raise ValueError(
                _(
                    "%(pair)s already has a substitute (%(other)s) on boards %(boards)s: a pair may not play "
                    "with two substitutes (VSz 25)"
                )
                % {"pair": pair, "other": other.substitute, "boards": ", ".join(map(str, shared))}
            )


def record_withdrawal(session: PairSession, pair, user, reason=""):
    """The pair plays no further board; every session with results gets a new version whose computation
    keeps or deletes its results by `sessions_that_stand` and gives its missing opponents average-plus."""
    with transaction.atomic():
        versions.lock_event(session.event_id)
        if Withdrawal.objects.filter(pair=pair).exists():
            raise ValueError(_("this pair has already withdrawn"))
        withdrawal = Withdrawal.objects.create(pair=pair, session=session, reason=reason, recorded_by=user)
        note = _("withdrawal of %(pair)s") % {"pair": pair}
        for each in PairSession.objects.filter(event_id=session.event_id).order_by("number"):
            base = versions.latest_version(each)
            if base is None:
                continue
            versions.write_version(
                each,
                versions.rows_of(base),
                versions.penalties_of(base),
                source=VersionedUpload.Source.ADJUSTMENT,
                user=user,
                note=note,
                deals=base.deals,
                base=base,
            )
        versions.mark_changed(session.event_id)
    return withdrawal


EXCLUSION_REFUSALS = {
    "unknown_scope": _("Choose what the pair is excluded from."),
    "needs_committee": _(
        "Excluding a pair from the whole event needs the consent of the Appeals Committee (VSz 23): record it."
    ),
    "boards_with_event": _("Boards are named only for an exclusion from a part of the session."),
    "bad_board": _("Board numbers start at 1."),
}


def record_exclusion(session: PairSession, pair, user, scope, boards, reason, committee_consent=""):
    """The director's VSz 23 measure: recorded, then every session with results gets a decision version
    (the layer a re-upload carries) and the recompute takes the excluded results out
    (`engine.scoring.exclusion`). An exclusion from the whole event is reported to the Disciplinary Committee
    (`exclusion_reports`: the case opened and the mails, by the appeals app); `exclusion.reports` holds what
    the hooks returned."""
    reason, committee_consent = (reason or "").strip(), (committee_consent or "").strip()
    if not reason:
        raise ValueError(_("Give the reason of the exclusion."))
    boards = sorted(set(boards or ()))
    problem = exclusion_rule.refusal(scope, boards, bool(committee_consent))
    if problem:
        raise ValueError(EXCLUSION_REFUSALS[problem])
    if not Pair.objects.filter(pk=pair.pk, seats__section__session=session).exists():
        raise ValueError(_("%(pair)s does not play in this session") % {"pair": pair})
    with transaction.atomic():
        versions.lock_event(session.event_id)
        if Exclusion.objects.filter(pair=pair, scope=Exclusion.EVENT).exists():
            raise ValueError(_("this pair is already excluded from the event"))
        exclusion = Exclusion.objects.create(
            pair=pair,
            session=session,
            scope=scope,
            boards=boards,
            reason=reason,
            committee_consent=committee_consent,
            recorded_by=user,
        )
        note = _("exclusion of %(pair)s (VSz 23): %(reason)s") % {"pair": pair, "reason": reason}
        written = []
        for each in PairSession.objects.filter(event_id=session.event_id).order_by("number"):
            base = versions.latest_version(each)
            if base is None:
                continue
            written.append(
                versions.write_version(
                    each,
                    versions.rows_of(base),
                    versions.penalties_of(base),
                    source=VersionedUpload.Source.ADJUSTMENT,
                    user=user,
                    note=note[:500],
                    deals=base.deals,
                    base=base,
                )
            )
        exclusion.versions.set(written)
        versions.mark_changed(session.event_id)
        if scope == Exclusion.EVENT:
            # VSz 23: reported to the Disciplinary Committee, the players and officials mailed (appeals).
            exclusion.reports = exclusion_reports.event_exclusion_recorded(exclusion, user)
    return exclusion


def exclusions_of(event_id) -> list[exclusion_rule.Exclusion]:
    """The event's measures as the engine reads them (event pair ids, session numbers)."""
    return exclusions_from(exclusion_queryset(event_id))


def exclusion_queryset(event_id):
    """The rows `exclusions_from` reads (for a recompute that reads them with others in one round trip)."""
    return (
        Exclusion.objects.filter(pair__event_id=event_id)
        .order_by("pk")
        .values_list("pair_id", "scope", "session__number", "boards")
    )


def exclusions_from(rows) -> list[exclusion_rule.Exclusion]:
    return [
        exclusion_rule.Exclusion(pair_id, scope, number, frozenset(boards))
        for pair_id, scope, number, boards in rows
    ]
