"""An individual event's standings and travellers on paper (A4 through federation.pdf), each loading the
event through the HTML page's own `individual_or_deny`."""

from django.utils.text import slugify
from django.utils.translation import gettext as _

from config.query import column_range, query_int
from federation import pdf

from ..models import IndividualBoardScore
from ..services import individual_pages, notation
from .individual import individual_or_deny
from .pdf import _holding as holding
from .pdf import _plain as plain


def _subtitle(event) -> str:
    return pdf.line(event.title, _("individual"), event.start_date, event.club or event.federation)


def _number(value) -> str:
    return "" if value is None else pdf.cell_text(round(value, 2))


def standings_pdf(request, pk):
    setup = individual_or_deny(request, pk)
    event = setup.event
    rows, earned = individual_pages.standings(event)
    headers = [_("Place"), _("No."), _("Player"), _("Club"), _("Boards"), _("Matchpoints"), "%"]
    widths = [1.8, 1, 5, 4, 1.8, 2.2, 1.6]
    if earned:
        headers.append(_("MP"))
        widths.append(1.4)
    table_rows = [
        (
            row.place,
            row.number,
            row.name,
            row.club,
            row.boards,
            _number(row.total),
            _number(row.percentage),
            *((_number(row.masterpoints),) if earned else ()),
        )
        for row in rows
    ]
    blocks = (
        [pdf.Table(headers=headers, rows=table_rows, widths=tuple(widths), align="LRLLRRRR"[: len(headers)])]
        if rows
        else [pdf.Paragraph(_("No standings yet."))]
    )
    return pdf.pdf_response(f"{slugify(event.title)}-eredmenyek", _("Results"), _subtitle(event), blocks)


def boards_pdf(request, pk):
    setup = individual_or_deny(request, pk)
    event = setup.event
    board = query_int(request.GET, "board", *column_range(IndividualBoardScore._meta.get_field("board")))
    blocks = []
    symbols = [plain(notation.strain(s)) for s in "SHDC"]
    for sheet in individual_pages.travellers(event, board):
        hand = sheet.hand
        if hand is not None:  # the deal, as on the pairs' hand records (no double-dummy table)
            blocks.append(
                pdf.Table(
                    title=pdf.line(
                        _("Board %(board)s") % {"board": hand.board},
                        _("dealer") + ": " + notation.seat(hand.dealer),
                        hand.vul_display,
                    ),
                    headers=["", *symbols],
                    rows=[(notation.seat(seat), *holding(hand, seat)) for seat in "NESW"],
                    widths=(1.2, 3, 3, 3, 3),
                    align="LLLLL",
                )
            )
        blocks.append(
            pdf.Table(
                title=_("Board %(board)s") % {"board": sheet.board},
                headers=[
                    _("Table"),
                    notation.seat("N"),
                    notation.seat("S"),
                    notation.seat("E"),
                    notation.seat("W"),
                    _("Contract"),
                    _("Lead"),
                    _("Tricks"),
                    _("N-S score"),
                    _("N-S MP"),
                    _("E-W MP"),
                ],
                rows=[
                    (
                        row.table or "",
                        row.north,
                        row.south,
                        row.east,
                        row.west,
                        row.artificial
                        or f"{notation.contract_value(row.contract)} {notation.seat_value(row.declarer)}".strip(),
                        notation.lead_value(row.lead),
                        row.tricks,
                        row.score,
                        _number(row.mp_ns),
                        _number(row.mp_ew),
                    )
                    for row in sheet.rows
                ],
                widths=(1, 0.9, 0.9, 0.9, 0.9, 2, 1.4, 1.1, 1.6, 1.4, 1.4),
                align="RRRRRLLRRRR",
                font_size=8.5,
            )
        )
    if not blocks:
        blocks.append(pdf.Paragraph(_("No results yet.")))
    return pdf.pdf_response(
        f"{slugify(event.title)}-frekvencia", _("Frequency sheets"), _subtitle(event), blocks
    )
