"""What the result pages read: stored rows grouped for display. Nothing here scores or parses."""

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _

from bridge.engine import movements, session_days
from bridge.engine.dealing import parse_pbn_deal
from results.services import state_of

from ..models import BoardScore, EventStanding, HandRecord, PairSession, SessionPair, SessionStanding
from . import SCOPE, exports, notation, versions


def processing(event_id: int) -> bool:
    state = state_of(event_id, SCOPE)
    return bool(state and state.processing)


def recompute_error(event_id: int) -> str:
    state = state_of(event_id, SCOPE)
    return state.error if state else ""


def standings_by_field(session: PairSession) -> list[tuple[str, list[SessionStanding]]]:
    rows = SessionStanding.objects.filter(session=session).select_related(
        "pair__section", "pair__pair__player1", "pair__pair__player2"
    )
    fields: dict[str, list] = defaultdict(list)
    for row in rows.order_by("field", "order"):
        fields[row.field].append(row)
    return sorted(
        fields.items(), key=lambda item: ("NS", "EW", "").index(item[0]) if item[0] in ("NS", "EW", "") else 9
    )


def event_standings_by_field(event) -> list[tuple[str, list[EventStanding]]]:
    rows = EventStanding.objects.filter(event=event).select_related("pair__player1", "pair__player2")
    fields: dict[str, list] = defaultdict(list)
    for row in rows.order_by("field", "order"):
        fields[row.field].append(row)
    return sorted(
        fields.items(), key=lambda item: ("NS", "EW", "").index(item[0]) if item[0] in ("NS", "EW", "") else 9
    )


@dataclass
class FrequencyBoard:
    board: int
    hand: HandRecord | None
    rows: list[BoardScore]


def frequency_sheets(
    session: PairSession, board: int | None = None, only: set[int] | None = None
) -> list[FrequencyBoard]:
    """The session's frequency sheets (of `board`; of the boards in `only`: a live page's visible ones)."""
    scores = BoardScore.objects.filter(session=session).select_related("ns__section", "ew__section")
    hands = HandRecord.objects.filter(session=session)
    if board is not None:
        scores, hands = scores.filter(board=board), hands.filter(board=board)
    if only is not None:
        scores, hands = scores.filter(board__in=sorted(only)), hands.filter(board__in=sorted(only))
    hands = {h.board: h for h in hands}
    boards: dict[int, list[BoardScore]] = defaultdict(list)
    for row in scores:
        boards[row.board].append(row)
    out = []
    for number in sorted(boards):
        rows = decorate(
            sorted(boards[number], key=lambda r: (r.score is None, -(r.score or 0), r.table or 0, r.pk))
        )
        hand = hands.get(number)
        if hand is not None:
            hand.diagram = hand_diagram(hand.deal)
            hand.dd = dd_rows(hand.tricks)
            hand.vul_display = vulnerability_display(hand.vulnerability)
        out.append(FrequencyBoard(number, hand, rows))
    return out


@dataclass
class CardLine:
    board: int
    direction: str
    opponent: SessionPair | None
    row: BoardScore
    score: int | None  # from this pair's side
    mp: object
    pct: object
    penalty: object
    award: str


def score_card(session: PairSession, seat: SessionPair) -> list[CardLine]:
    rows = (
        BoardScore.objects.filter(session=session).filter(Q(ns=seat) | Q(ew=seat)).select_related("ns", "ew")
    )
    out = []
    for row in decorate(rows.order_by("board")):
        ns_side = row.ns_id == seat.pk
        award = ""
        if row.artificial:
            parts = row.artificial.split("/")
            award = parts[0] if ns_side else parts[-1]
        out.append(
            CardLine(
                row.board,
                "NS" if ns_side else "EW",
                row.ew if ns_side else row.ns,
                row,
                None if row.score is None else (row.score if ns_side else -row.score),
                _points(row.mp_ns, row.imp_ns) if ns_side else _points(row.mp_ew, row.imp_ew),
                row.pct_ns if ns_side else row.pct_ew,
                row.penalty_ns if ns_side else row.penalty_ew,
                award,
            )
        )
    return out


def _points(mp, imp):
    """Matchpoints, or for IMP and total-points scoring (Law 78B-C) what the row earned in those."""
    return mp if mp is not None else imp


def labels(session: PairSession) -> dict[int, str]:
    return exports.pair_labels(session)


def hand_records(session: PairSession) -> list[HandRecord]:
    hands = list(HandRecord.objects.filter(session=session).order_by("board"))
    for hand in hands:
        hand.diagram = hand_diagram(hand.deal)
        hand.dd = dd_rows(hand.tricks)
        hand.vul_display = vulnerability_display(hand.vulnerability)
    return hands


# --- display helpers (the app keeps no template tags: values are prepared here) -------------------------


def contract_display(contract: str, declarer: str = ""):
    """'4HX', 'N' -> '4♥X É' (the page's notation, bridge.services.notation)."""
    return notation.contract(contract, declarer)


def lead_display(lead: str):
    return notation.lead(lead)


def decorate(rows):
    """Give score rows their display values (contract with suit symbols, lead)."""
    for row in rows:
        row.contract_display = contract_display(row.contract, row.declarer)
        row.lead_display = lead_display(row.lead)
    return rows


def hand_diagram(deal: str) -> dict[str, list]:
    """Seat -> [(suit symbol html, holding)] from a PBN deal."""
    hands = parse_pbn_deal(deal)
    return {
        seat: [
            (notation.suit(s), holding.replace("T", "10") or "—")
            for s, holding in zip("SHDC", suits, strict=True)
        ]
        for seat, suits in hands.items()
    }


def vulnerability_display(vulnerability: str) -> str:
    return {
        "None": _("nobody vulnerable"),
        "NS": _("N-S vulnerable"),
        "EW": _("E-W vulnerable"),
        "All": _("all vulnerable"),
    }.get(vulnerability, vulnerability)


def dd_rows(tricks: dict) -> list[tuple[str, list[int]]]:
    """Double-dummy tricks as rows per declarer in the order NT, S, H, D, C."""
    return [
        (seat, [tricks.get(seat, {}).get(strain) for strain in ("NT", "S", "H", "D", "C")]) for seat in "NSEW"
    ]


def movement_note(section, plan) -> str:
    """How the movement moves, in the reader's language (the engine's note is English)."""
    if plan is None:
        return ""
    if plan.kind == "howell":
        return _("complete Howell: every pair meets every other pair once")
    if plan.tables % 2:
        return _("odd number of tables: E-W pairs move up one table, boards down one table")
    if section.even_method == "relay":
        return _(
            "even number of tables: tables 1 and %(last)s share boards, bye-stand between tables %(half)s and %(next)s"
        ) % {
            "last": plan.tables,
            "half": plan.tables // 2,
            "next": plan.tables // 2 + 1,
        }
    return _("even number of tables: E-W pairs skip a table after round %(round)s") % {
        "round": plan.tables // 2
    }


def _pairs(numbers) -> str:
    return ", ".join(str(n) for n in numbers)


def movement_findings(plan, played=None) -> list[dict]:
    """The VSz 24 findings of a section's movement (``movements.check_vsz24``), worded for the director;
    without a generated plan, of the movement the uploaded results define (``played``: (board, N-S pair
    number, E-W pair number) rows, ``movements.check_played``)."""
    if plan is None and not played:
        return []
    texts = {
        "unequal_plays": lambda p: (
            _(
                "VSz 24: the boards are not played equally often (%(fewest)s to %(most)s times; sets %(sets)s), "
                "so the top is not the same on every board."
            )
            % {"fewest": p["fewest"], "most": p["most"], "sets": _pairs(p["sets"])}
        ),
        "repeated_sets": lambda p: (
            _("Pairs %(pairs)s play a board set more than once.") % {"pairs": _pairs(p["pairs"])}
        ),
        "repeated_meetings": lambda p: (
            _("Some pairs meet more than once (%(n)s meetings).") % {"n": len(p["meetings"])}
        ),
        "few_opponents": lambda p: (
            _(
                "VSz 24: pairs %(pairs)s meet fewer than %(minimum)s%% of the other pairs (lowest %(lowest)s%%)."
            )
            % {"pairs": _pairs(p["pairs"]), "minimum": p["minimum"], "lowest": _decimal(p["lowest"])}
        ),
        "few_boards": lambda p: (
            _(
                "VSz 24: pairs %(pairs)s play fewer than %(minimum)s%% of the boards in play (lowest %(lowest)s%%)."
            )
            % {"pairs": _pairs(p["pairs"]), "minimum": p["minimum"], "lowest": _decimal(p["lowest"])}
        ),
        "two_table_mitchell": lambda p: (
            _(
                "A Mitchell on 2 tables: each pair meets only the other line's two pairs; a Howell suits "
                "%(pairs)s pairs better (VSz 24)."
            )
            % {"pairs": p["pairs"]}
        ),
    }
    found = movements.check_vsz24(plan) if plan is not None else movements.check_played(played)
    return [{"code": f.code, "severity": f.severity, "text": texts[f.code](f.params)} for f in found]


def played_rows(section) -> list[tuple[int, int, int]]:
    """(board, N-S pair number, E-W pair number) of the section's results in the session's latest version:
    the movement an upload without a generated plan defines."""
    numbers = dict(SessionPair.objects.filter(section=section).values_list("pk", "number"))
    rows = versions.rows_of(versions.latest_version(section.session))
    return [
        (r["board"], numbers[r["ns_id"]], numbers[r["ew_id"]])
        for r in rows
        if r["ns_id"] in numbers and r["ew_id"] in numbers
    ]


def _decimal(value: float) -> str:
    """One decimal in the page's language (a decimal comma in Hungarian)."""
    return number_format(value, 1)


def session_day_findings(event) -> list[dict]:
    """VSz 24 c over the event's announced sessions: two a day at most, an hour's break between them (the
    length of a session with a movement from its rounds and the VSz 31 time limits)."""
    lengths = {}
    for pair_session in PairSession.objects.filter(event=event, announced__isnull=False).prefetch_related(
        "sections"
    ):
        plans = [p for p in (section.plan() for section in pair_session.sections.all()) if p is not None]
        if plans:
            lengths[pair_session.announced_id] = max(
                session_days.expected_minutes(p.rounds, p.boards_per_round) for p in plans
            )
    planned = [
        session_days.PlannedSession(
            str(s), timezone.localtime(s.starts_at).replace(tzinfo=None), lengths.get(s.pk)
        )
        for s in event.sessions.all()
    ]
    out = []
    for f in session_days.check(planned):
        p = f.params
        if f.code == "too_many_sessions":
            text = _(
                "VSz 24: %(count)s sessions on %(day)s (%(sessions)s); at most two may be played a day."
            ) % {
                "count": p["count"],
                "day": date_format(p["day"], "Y. m. d."),
                "sessions": ", ".join(p["sessions"]),
            }
        elif p["known_length"]:
            text = (
                _(
                    "VSz 24: only %(minutes)s minutes between the expected end of %(first)s and the start of "
                    "%(second)s; at least an hour's break is needed."
                )
                % p
            )
        else:
            text = (
                _(
                    "VSz 24: %(second)s starts %(minutes)s minutes after %(first)s starts; at least an hour's break "
                    "is needed between two sessions."
                )
                % p
            )
        out.append({"code": f.code, "severity": "warning", "text": text})
    return out
