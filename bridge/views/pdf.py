"""The session's pages on paper: standings, frequency sheets, a pair's score card, hand records (A4 PDFs
through federation.pdf). Each loads its session through the page's own `session_or_deny`."""

import html
from decimal import Decimal

from django.shortcuts import get_object_or_404
from django.utils.html import strip_tags
from django.utils.text import slugify
from django.utils.translation import gettext as _

from config.query import column_range, query_int
from federation import pdf
from rankings.services import earned as earned_masterpoints

from ..models import BoardResult, SessionPair
from ..services import notation, pages
from .common import event_or_deny, session_or_deny
from .dealing import refuse_if_sealed

STRAINS = ("NT", "S", "H", "D", "C")


def _plain(marked) -> str:
    """Notation made for a page (suit spans) as plain text."""
    return html.unescape(strip_tags(str(marked)))


def _pair_name(seat) -> str:
    pair = seat.pair
    names = [str(p) for p in (pair.player1, pair.player2) if p]
    return " – ".join(names) if names else pair.name


def _pair_no(seat, several_sections: bool) -> str:
    if seat is None:
        return "—"
    return str(seat.code if several_sections else seat.number)


def _subtitle(session, *more) -> str:
    event = session.event
    return pdf.line(event.title, str(session), event.start_date, event.club or event.federation, *more)


def _name(session, what: str) -> str:
    return f"{slugify(session.event.title)}-{session.number}-{what}"


def _field_title(field: str) -> str:
    return {"NS": _("N-S line"), "EW": _("E-W line")}.get(field, _("All pairs"))


def standings_pdf(request, pk):
    session = session_or_deny(request, pk)
    several = session.sections.count() > 1
    blocks = []
    for field, rows in pages.standings_by_field(session):
        blocks.append(
            pdf.Table(
                title=_field_title(field),
                headers=[
                    _("Place"),
                    _("Pair no."),
                    _("Players"),
                    _("Boards"),
                    _("Matchpoints"),
                    "%",
                    _("Penalty"),
                ],
                rows=[
                    (
                        row.place,
                        pdf.line(_pair_no(row.pair, several), notation.side(row.pair.direction)),
                        _pair_name(row.pair),
                        row.boards,
                        pdf.cell_text(row.total if row.total is None else round(row.total, 2)),
                        pdf.cell_text(row.percentage if row.percentage is None else round(row.percentage, 2)),
                        f"-{pdf.cell_text(row.penalty)}" if row.penalty else "",
                    )
                    for row in rows
                ],
                widths=(1.2, 1.8, 6.2, 1.8, 2, 1.6, 2),
                align="RLLRRRR",
            )
        )
    if not blocks:
        blocks.append(pdf.Paragraph(_("No standings yet.")))
    return pdf.pdf_response(_name(session, "eredmenyek"), _("Results"), _subtitle(session), blocks)


def _mp(value, imp=None):
    chosen = value if value is not None else imp
    return "" if chosen is None else pdf.cell_text(round(chosen, 2))


def frequencies_pdf(request, pk):
    session = session_or_deny(request, pk)
    board = query_int(request.GET, "board", *column_range(BoardResult._meta.get_field("board")))
    several = session.sections.count() > 1
    blocks = []
    for sheet in pages.frequency_sheets(session, board):
        blocks.append(
            pdf.Table(
                title=_("Board %(board)s") % {"board": sheet.board},
                headers=[
                    _("N-S"),
                    _("E-W"),
                    _("Contract"),
                    _("Lead"),
                    _("Tricks"),
                    _("N-S score"),
                    _("N-S MP"),
                    _("E-W MP"),
                    _("N-S %"),
                ],
                rows=[
                    (
                        _pair_no(row.ns, several),
                        _pair_no(row.ew, several),
                        row.artificial or _plain(row.contract_display),
                        _plain(row.lead_display),
                        row.tricks,
                        row.score,
                        _mp(row.mp_ns, row.imp_ns),
                        _mp(row.mp_ew, row.imp_ew),
                        _mp(row.pct_ns),
                    )
                    for row in sheet.rows
                ],
                widths=(1, 1, 2, 1.9, 1.1, 1.8, 1.5, 1.5, 1.4),
                align="LLLLRRRRR",
                font_size=8.5,
            )
        )
    if not blocks:
        blocks.append(pdf.Paragraph(_("No results yet.")))
    return pdf.pdf_response(_name(session, "frekvencia"), _("Frequency sheets"), _subtitle(session), blocks)


def score_card_pdf(request, pk, pair):
    session = session_or_deny(request, pk)
    seat = get_object_or_404(
        SessionPair.objects.select_related("section", "pair__player1", "pair__player2"),
        pk=pair,
        section__session=session,
    )
    several = session.sections.count() > 1
    standing = seat.standings.filter(session=session).first()
    lines = pages.score_card(session, seat)
    table = pdf.Table(
        headers=[
            _("Board"),
            _("Direction"),
            _("Opponents"),
            _("Contract"),
            _("Lead"),
            _("Tricks"),
            _("Score"),
            _("MP"),
            "%",
        ],
        rows=[
            (
                line.board,
                notation.side(line.direction),
                _pair_no(line.opponent, several),
                line.award or line.row.artificial or _plain(line.row.contract_display),
                _plain(line.row.lead_display),
                line.row.tricks,
                line.score,
                _mp(line.mp),
                _mp(line.pct),
            )
            for line in lines
        ],
        widths=(1.3, 1.4, 1.5, 2.2, 1.9, 1.1, 1.5, 1.3, 1.3),
        align="RLLLLRRRR",
    )
    blocks = [pdf.Paragraph(pdf.line(_pair_no(seat, several), _pair_name(seat)), size=12, bold=True)]
    if standing is not None:
        blocks.append(
            pdf.Paragraph(
                pdf.line(
                    _("Place") + f": {standing.place}",
                    _("Matchpoints") + f": {_mp(standing.total)}",
                    f"{_mp(standing.percentage)}%",
                )
            )
        )
    blocks.append(table)
    return pdf.pdf_response(_name(session, f"lap-{seat.pk}"), _("Score card"), _subtitle(session), blocks)


def _holding(hand, seat_code):
    return [cards for _symbol, cards in hand.diagram.get(seat_code, [])] or ["", "", "", ""]


def hand_records_pdf(request, pk):
    session = session_or_deny(request, pk)
    refuse_if_sealed(session)
    blocks = []
    symbols = [_plain(notation.strain(s)) for s in STRAINS]
    for hand in pages.hand_records(session):
        blocks.append(
            pdf.Table(
                title=pdf.line(
                    _("Board %(board)s") % {"board": hand.board},
                    _("dealer") + ": " + notation.seat(hand.dealer),
                    hand.vul_display,
                ),
                headers=["", *symbols[1:], *symbols],
                rows=[
                    (notation.seat(seat_code), *_holding(hand, seat_code), *tricks)
                    for seat_code, tricks in hand.dd
                ],
                widths=(1.2, 3, 3, 3, 3, 1.3, 1.3, 1.3, 1.3, 1.3),
                align="LLLLLCCCCC",
            )
        )
        if hand.par_contracts or hand.par_score is not None:
            par = _plain(notation.par(hand.par_contracts)) or "—"
            blocks.append(pdf.Paragraph(f"{_('Par')}: {par} ({pdf.cell_text(hand.par_score)})", size=9))
    if not blocks:
        blocks.append(pdf.Paragraph(_("The deals of this session are not known (or still sealed).")))
    return pdf.pdf_response(_name(session, "leosztasok"), _("Hand records"), _subtitle(session), blocks)


def event_pdf(request, pk):
    """The event's totals over its sessions (the event page's table), for who may see them there."""
    event = event_or_deny(request, pk)
    blocks = []
    fields = pages.event_standings_by_field(event)
    # The masterpoints earned, as on the event page (issue #20): a column only where the event awards some.
    earned = earned_masterpoints.masterpoints_of(event) if fields else {}

    def masterpoints(row):
        amounts = earned_masterpoints.shares(earned, (row.pair.player1_id, row.pair.player2_id))
        return " / ".join(pdf.cell_text(amount.quantize(Decimal("0.01"))) for amount in amounts)

    for field, rows in fields:
        blocks.append(
            pdf.Table(
                title=_field_title(field),
                headers=[_("Place"), _("Pair"), _("Boards"), _("Total"), "%"] + ([_("MP")] if earned else []),
                rows=[
                    (row.place, row.pair.display_name, row.boards, _mp(row.total), _mp(row.percentage))
                    + ((masterpoints(row),) if earned else ())
                    for row in rows
                ],
                widths=(1.3, 8, 1.4, 2, 1.8) + ((2.2,) if earned else ()),
                align="RLRRRR",
            )
        )
    if not blocks:
        blocks.append(pdf.Paragraph(_("No standings yet.")))
    subtitle = pdf.line(event.federation, event.club, event.start_date)
    return pdf.pdf_response(
        f"{slugify(event.title)}-eredmenyek", _("Results"), pdf.line(event.title, subtitle), blocks
    )
