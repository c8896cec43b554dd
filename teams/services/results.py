"""Match results and line-ups: each upload is a new version, validated whole before anything is written."""

import hashlib
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from bridge.teams.pairing.knockout import plan_match
from config.celery import enqueue_on_commit
from results.models import VersionedUpload
from results.services import mark_uploaded, next_version_number

from ..models import SCOPE, LineUp, LineUpSeat, Match, MatchUpload, Round, UploadedBoard, minimum_refusal
from ..parsed import ParsedResult, UploadError
from .setup import rosters, setup_of

Source = VersionedUpload.Source


def plan_of(match: Match, boards: int | None = None, setup=None):
    """The match's halves / stages; ValueError (the engine's message) below the VSz 33 minimum."""
    setup = setup or setup_of(match.round.event)
    return plan_match(
        boards or match.round.boards, setup.plan_options(main_draw=match.bracket == Match.Bracket.MAIN)
    )


def segment_of_boards(numbers, plan) -> dict[int, int]:
    """Board number -> segment: the lowest numbers are played in the first half, and so on."""
    out, ordered = {}, sorted(numbers)
    start = 0
    for segment, size in enumerate(plan.segments, start=1):
        for board in ordered[start : start + size]:
            out[board] = segment
        start += size
    return out


def _check(match: Match, parsed: ParsedResult):
    if not Round.objects.filter(pk=match.round_id, status=Round.Status.PUBLISHED).exists():
        raise UploadError(_("The round is not published yet."))
    if match.is_bye:
        raise UploadError(_("A bye has no result to upload."))
    if parsed.imps_only:
        boards = parsed.boards_played or match.round.boards
        try:
            plan_of(match, boards)
        except ValueError as error:
            raise UploadError(minimum_refusal(error))
        if any(v < 0 for v in parsed.imps):
            raise UploadError(_("IMP totals cannot be negative."))
        return
    expected = match.round.boards
    if len(parsed.boards) != expected:
        numbers = ", ".join(str(b.board) for b in parsed.boards)
        raise UploadError(
            _("The match has %(expected)s boards; the upload has %(found)s (boards %(numbers)s).")
            % {"expected": expected, "found": len(parsed.boards), "numbers": numbers}
        )


def upload_result(
    match: Match, user, parsed: ParsedResult, *, source=Source.FORM, content=b"", file_name="", note=""
):
    """Write a new version of the match's result and queue the recompute (after the commit)."""
    from .. import tasks

    _check(match, parsed)
    with transaction.atomic():
        mark_uploaded(match.round.event_id, SCOPE)  # also locks: versions of one event are numbered in turn
        upload = MatchUpload.objects.create(
            match=match,
            number=next_version_number(MatchUpload, match=match),
            source=source,
            uploaded_by=user,
            note=note[:500],
            file_name=file_name[:200],
            sha256=hashlib.sha256(content).hexdigest() if content else "",
            imps_only=parsed.imps_only,
            home_imps=parsed.imps[0] if parsed.imps_only else None,
            away_imps=parsed.imps[1] if parsed.imps_only else None,
            boards_played=(parsed.boards_played or match.round.boards)
            if parsed.imps_only
            else len(parsed.boards),
        )
        UploadedBoard.objects.bulk_create(
            UploadedBoard(
                upload=upload,
                board=b.board,
                open_ns=b.open_ns,
                closed_ns=b.closed_ns,
                open_contract=b.open_contract,
                closed_contract=b.closed_contract,
                adjusted_imps=b.adjusted_imps,
            )
            for b in parsed.boards
        )
        enqueue_on_commit(tasks.recompute_event, match.round.event_id)
    return upload


def imps_result(home, away, boards=None) -> ParsedResult:
    return ParsedResult(imps=(Decimal(home), Decimal(away)), boards_played=boards)


def set_lineup(match: Match, user, seats, *, note=""):
    """Record who sat where: `seats` is [(segment, team id, room, person id), ...] for the whole match.

    Every segment needs each team's two players in each room; a player sits once per segment.
    """
    from .. import tasks

    if match.is_bye:
        raise UploadError(_("A bye has no line-up."))
    if not Round.objects.filter(pk=match.round_id, status=Round.Status.PUBLISHED).exists():
        raise UploadError(_("The round is not published yet."))
    try:
        segments = len(plan_of(match).segments)
    except ValueError as error:
        raise UploadError(minimum_refusal(error))
    roster = rosters(match.round.event)
    errors = []
    count: dict[tuple, int] = {}
    seated: set[tuple] = set()
    for segment, team, room, person in seats:
        if team not in match.team_ids:
            errors.append(_("That team does not play this match."))
            continue
        if person not in roster.get(team, ()):
            errors.append(
                _("Segment %(segment)s: a player is not on the team's roster.") % {"segment": segment}
            )
        if not 1 <= segment <= segments:
            errors.append(_("The match has %(n)s segments.") % {"n": segments})
        if (segment, person) in seated:
            errors.append(_("Segment %(segment)s: a player sits twice.") % {"segment": segment})
        seated.add((segment, person))
        count[(segment, team, room)] = count.get((segment, team, room), 0) + 1
    for segment in range(1, segments + 1):
        for team in match.team_ids:
            for room in ("open", "closed"):
                if count.get((segment, team, room), 0) != 2:
                    errors.append(
                        _("Segment %(segment)s: each team seats two players in each room.")
                        % {"segment": segment}
                    )
    if errors:
        raise UploadError(sorted(set(errors)))
    with transaction.atomic():
        mark_uploaded(match.round.event_id, SCOPE)
        lineup = LineUp.objects.create(
            match=match,
            number=next_version_number(LineUp, match=match),
            source=Source.FORM,
            uploaded_by=user,
            note=note[:500],
        )
        LineUpSeat.objects.bulk_create(
            LineUpSeat(lineup=lineup, segment=s, team_id=t, room=r, person_id=p) for s, t, r, p in seats
        )
        enqueue_on_commit(tasks.recompute_event, match.round.event_id)
    return lineup
