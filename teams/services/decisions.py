"""Decisions on a match's result as layers (see results.upload_decisions).

A decision is a version of the match with source correction, adjustment (an adjusted IMP score) or appeal.
Its delta is what it changed against the version before it: some boards, or the match's IMP result. A new
upload covers a decision when it gives the boards the decision changed, or the whole match (an IMP result);
the stored version is the upload with the kept decisions re-applied in order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from results.upload_decisions import DECISION_SOURCES, Action, described

from ..engine.parsed import ParsedResult, UploadError
from ..models import Match, MatchUpload, UploadDecision

BOARD_FIELDS = ("open_ns", "closed_ns", "open_contract", "closed_contract", "adjusted_imps")


@dataclass
class Content:
    """A version's result: the IMP totals (IMP-only) and/or the boards (board -> field values)."""

    imps_only: bool = False
    home_imps: Decimal | None = None
    away_imps: Decimal | None = None
    boards_played: int | None = None
    boards: dict[int, dict] = field(default_factory=dict)

    @classmethod
    def of_upload(cls, upload: MatchUpload | None) -> Content:
        if upload is None:
            return cls()
        return cls(
            upload.imps_only,
            upload.home_imps,
            upload.away_imps,
            upload.boards_played,
            {b.board: {f: getattr(b, f) for f in BOARD_FIELDS} for b in upload.boards.all()},
        )

    @classmethod
    def of_parsed(cls, parsed: ParsedResult, boards_default: int) -> Content:
        return cls(
            parsed.imps_only,
            parsed.imps[0] if parsed.imps_only else None,
            parsed.imps[1] if parsed.imps_only else None,
            (parsed.boards_played or boards_default) if parsed.imps_only else len(parsed.boards),
            {b.board: {f: getattr(b, f) for f in BOARD_FIELDS} for b in parsed.boards},
        )


@dataclass
class Delta:
    imps: tuple | None = None  # (home, away, boards played) when the decision set the match's IMP result
    boards: dict[int, dict] = field(default_factory=dict)

    def __bool__(self):
        return self.imps is not None or bool(self.boards)


def delta_of(decision: MatchUpload) -> Delta:
    before = (
        MatchUpload.objects.filter(match_id=decision.match_id, number=decision.number - 1)
        .prefetch_related("boards")
        .first()
    )
    new, old = Content.of_upload(decision), Content.of_upload(before)
    if new.imps_only:
        if old.imps_only and (old.home_imps, old.away_imps) == (new.home_imps, new.away_imps):
            return Delta()
        return Delta(imps=(new.home_imps, new.away_imps, new.boards_played))
    if old.imps_only:
        return Delta(boards=dict(new.boards))
    return Delta(boards={n: row for n, row in new.boards.items() if old.boards.get(n) != row})


def in_force(match: Match) -> list[tuple[MatchUpload, Delta]]:
    """The match's decisions not set aside, oldest first, with what each changed (empty deltas left out)."""
    versions = (
        MatchUpload.objects.filter(match=match, source__in=DECISION_SOURCES)
        .exclude(later_actions__action=Action.SET_ASIDE)
        .select_related("uploaded_by")
        .prefetch_related("boards")
        .order_by("number")
    )
    out = []
    for version in versions:
        delta = delta_of(version)
        if delta:
            out.append((version, delta))
    return out


def covers(content: Content, delta: Delta) -> bool:
    return content.imps_only or delta.imps is not None or bool(set(delta.boards) & set(content.boards))


def _number(value) -> str:
    value = Decimal(value)
    return number_format(value.to_integral() if value == value.to_integral() else value)


def _imps(home, away) -> str:
    return _("%(home)s – %(away)s IMPs") % {"home": _number(home), "away": _number(away)}


def _board(row: dict | None) -> str:
    if row is None:
        return "—"
    text = f"{row['open_contract'] or row['open_ns']} / {row['closed_contract'] or row['closed_ns']}"
    if row.get("adjusted_imps") is not None:
        text += " " + _("(adjusted: %(imps)s IMPs)") % {"imps": _number(row["adjusted_imps"])}
    return text


def describe(match: Match, decision: MatchUpload, delta: Delta, content: Content) -> dict:
    """One affected decision as the director is shown it (JSON-ready)."""
    out = described(decision)
    out["match"] = str(match)
    out["teams"] = [t.name for t in (match.home, match.away) if t is not None]
    changes = []
    if delta.imps is not None:
        upload = (
            _imps(content.home_imps, content.away_imps)
            if content.imps_only
            else _("%(n)s boards") % {"n": len(content.boards)}
        )
        changes.append(
            {"what": _("the match's IMP result"), "upload": upload, "decision": _imps(*delta.imps[:2])}
        )
    for board, row in sorted(delta.boards.items()):
        upload = (
            _imps(content.home_imps, content.away_imps)
            if content.imps_only
            else _board(content.boards.get(board))
        )
        changes.append(
            {"what": _("board %(board)s") % {"board": board}, "upload": upload, "decision": _board(row)}
        )
    out["changes"] = changes
    return out


def reapply(content: Content, decision: MatchUpload, delta: Delta) -> None:
    """Lay a kept decision on the upload's content (in place)."""
    if delta.imps is not None:
        content.imps_only = True
        content.home_imps, content.away_imps, content.boards_played = delta.imps
        return
    if content.imps_only:
        raise UploadError(
            _(
                "Version %(n)s (%(kind)s) changed single boards: it cannot be kept on an IMP-only result; "
                "upload the boards or set the decision aside."
            )
            % {"n": decision.number, "kind": decision.get_source_display()}
        )
    content.boards.update({n: dict(row) for n, row in delta.boards.items()})


def record(upload: MatchUpload, actions: dict[int, tuple[str, str]], user) -> None:
    UploadDecision.objects.bulk_create(
        UploadDecision(upload=upload, decision_id=pk, action=action, reason=reason, decided_by=user)
        for pk, (action, reason) in sorted(actions.items())
    )


def carried_by(upload: MatchUpload):
    """What a version did with the decisions in force when it was written (for the match page)."""
    return upload.decisions_recorded.select_related("decision__uploaded_by", "decided_by").order_by(
        "decision__number"
    )


def carried_label(action: str) -> str:
    return str(Action(action).label)
