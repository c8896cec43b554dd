"""Match results and line-ups: each upload is a new version, validated whole before anything is written."""

import hashlib
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from results.models import VersionedUpload
from results.services import lock_state, mark_uploaded, next_version_number
from results.tasks import request_recompute
from results.upload_decisions import DECISION_SOURCES, Action, DecisionsPending, ResolutionError, resolve
from teams.engine.pairing.knockout import plan_match

from ..engine.parsed import ParsedResult, UploadError
from ..models import SCOPE, LineUp, LineUpSeat, Match, MatchUpload, Round, UploadedBoard, minimum_refusal
from . import decisions as decision_layers
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
    match: Match,
    user,
    parsed: ParsedResult,
    *,
    source=Source.FORM,
    content=b"",
    file_name="",
    note="",
    sha256="",
    decisions=None,
    reasons=None,
    based_on=None,
):
    """Write a new version of the match's result and queue the recompute (after the commit).

    Decisions in force that the upload covers need the director's choice (``decisions``: id -> keep /
    reconfirm / set_aside, ``reasons``: id -> why): without it ``DecisionsPending`` is raised and nothing
    is written. ``based_on`` (the version the director saw) refuses the upload if the match changed since.
    """
    _check(match, parsed)
    sha = hashlib.sha256(content).hexdigest() if content else sha256
    with transaction.atomic():
        lock_state(match.round.event_id, SCOPE)  # versions of one event are numbered in turn
        latest_number = _latest_number(match)
        if based_on is not None and int(based_on) != latest_number:
            raise UploadError(
                _("The match's results changed meanwhile (now version %(n)s): check the upload again.")
                % {"n": latest_number}
            )
        body, layers, affected = _layers(match, parsed)
        try:
            chosen = resolve([d.pk for d, _delta in affected], decisions, reasons)
        except ResolutionError as error:
            raise UploadError(error.messages)
        if chosen is None:
            raise DecisionsPending(
                [decision_layers.describe(match, d, delta, body) for d, delta in affected], latest_number
            )
        actions = {d.pk: chosen.get(d.pk, (Action.CARRIED, "")) for d, _delta in layers}
        for decision, delta in affected:  # in order; one the upload does not cover stays as it is
            if actions[decision.pk][0] != Action.SET_ASIDE:
                decision_layers.reapply(body, decision, delta)
        return _write(match, user, body, actions, source=source, note=note, file_name=file_name, sha256=sha)


def _latest_number(match) -> int:
    latest = MatchUpload.objects.filter(match=match).order_by("-number").first()
    return latest.number if latest else 0


def _layers(match, parsed):
    body = decision_layers.Content.of_parsed(parsed, match.round.boards)
    layers = decision_layers.in_force(match)
    return body, layers, [(d, delta) for d, delta in layers if decision_layers.covers(body, delta)]


def pending_decisions(match: Match, parsed: ParsedResult) -> tuple[list[dict], int]:
    """What an upload would ask the director, without writing: (the affected decisions, the version)."""
    _check(match, parsed)
    body, _all, affected = _layers(match, parsed)
    return [decision_layers.describe(match, d, delta, body) for d, delta in affected], _latest_number(match)


def _write(match, user, body, actions, *, source, note="", file_name="", sha256=""):
    """The version itself, its boards and what it did with each decision in force; inside the lock."""
    mark_uploaded(match.round.event_id, SCOPE)
    upload = MatchUpload.objects.create(
        match=match,
        number=next_version_number(MatchUpload, match=match),
        source=source,
        uploaded_by=user,
        note=note[:500],
        file_name=file_name[:200],
        sha256=sha256,
        imps_only=body.imps_only,
        home_imps=body.home_imps if body.imps_only else None,
        away_imps=body.away_imps if body.imps_only else None,
        boards_played=body.boards_played if body.imps_only else len(body.boards),
    )
    UploadedBoard.objects.bulk_create(
        UploadedBoard(upload=upload, board=n, **row) for n, row in sorted(body.boards.items())
    )
    decision_layers.record(upload, actions, user)
    request_recompute(SCOPE, match.round.event_id)
    return upload


def rule_match(match: Match, user, *, boards=None, imps=None, reason: str, source=Source.ADJUSTMENT):
    """A decision on a match's result as its next version: the latest version with some boards changed
    (``boards``: board -> {open_ns, closed_ns, adjusted_imps}) or the match's IMP result set (``imps``:
    (home, away)). ``source``: correction, adjustment (the director) or appeal. Every other decision in
    force is carried; nothing is written for a refused ruling."""
    if source not in DECISION_SOURCES:
        raise UploadError(_("A decision's source is a correction, an adjusted score or an appeal decision."))
    if not (reason or "").strip():
        raise UploadError(_("A decision needs its reason."))
    if bool(boards) == (imps is not None):
        raise UploadError(_("Give the changed boards or the match's IMP result."))
    with transaction.atomic():
        lock_state(match.round.event_id, SCOPE)
        latest = (
            MatchUpload.objects.filter(match=match).order_by("-number").prefetch_related("boards").first()
        )
        if latest is None:
            raise UploadError(_("The match has no result yet: there is nothing for a decision to change."))
        body = decision_layers.Content.of_upload(latest)
        if imps is not None:
            home, away = (Decimal(str(v)) for v in imps)
            if home < 0 or away < 0:
                raise UploadError(_("IMP totals cannot be negative."))
            body.imps_only, body.home_imps, body.away_imps = True, home, away
            body.boards_played = body.boards_played or match.round.boards
        else:
            if body.imps_only and not body.boards:
                raise UploadError(_("The match's result is an IMP result only: it has no boards to change."))
            for number, changes in boards.items():
                if number not in body.boards:
                    raise UploadError(_("Board %(board)s is not in the match's result.") % {"board": number})
                unknown = set(changes) - {"open_ns", "closed_ns", "adjusted_imps"}
                if unknown:
                    raise UploadError(_("Board %(board)s: unknown field.") % {"board": number})
                row = body.boards[number]
                for key, value in changes.items():
                    row[key] = Decimal(str(value)) if key == "adjusted_imps" and value is not None else value
                    if key in ("open_ns", "closed_ns"):
                        row[key.replace("_ns", "_contract")] = ""
            body.imps_only = False
        actions = {d.pk: (Action.CARRIED, "") for d, _delta in decision_layers.in_force(match)}
        return _write(match, user, body, actions, source=source, note=reason)


def imps_result(home, away, boards=None) -> ParsedResult:
    return ParsedResult(imps=(Decimal(home), Decimal(away)), boards_played=boards)


def set_lineup(match: Match, user, seats, *, note=""):
    """Record who sat where: `seats` is [(segment, team id, room, person id), ...] for the whole match.

    Every segment needs each team's two players in each room; a player sits once per segment.
    """
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
        request_recompute(SCOPE, match.round.event_id)
    return lineup
