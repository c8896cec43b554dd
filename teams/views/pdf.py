"""A team event on paper: the standings (final places first) and the knockout bracket as a table, A4
PDFs through federation.pdf, each behind the page's own `team_event_or_deny`."""

from django.utils.text import slugify
from django.utils.translation import gettext as _

from federation import pdf

from ..models import FinalPlace, Standing
from ..templatetags.teams_tags import trim_zero
from .bracket import bracket_columns
from .common import team_event_or_deny
from .public import _round_title


def _subtitle(event, *more) -> str:
    return pdf.line(event.federation, event.club, event.start_date, *more)


def standings_pdf(request, pk):
    event = team_event_or_deny(request, pk)
    blocks = []
    finals = list(FinalPlace.objects.filter(event=event).select_related("team"))
    if finals:
        blocks.append(
            pdf.Table(
                title=_("Final places"),
                headers=[_("Place"), _("Team")],
                rows=[(f"{p.label}.", p.team.name) for p in finals],
                widths=(1, 8),
                align="RL",
            )
        )
    rows = list(Standing.objects.filter(event=event).select_related("team").order_by("after_round", "place"))
    if rows:
        after = rows[-1].after_round
        blocks.append(
            pdf.Table(
                title=_("Standings after round %(n)s") % {"n": after},
                headers=[
                    _("Place"),
                    _("Team"),
                    _("Matches"),
                    _("IMPs won"),
                    _("IMPs lost"),
                    _("IMP difference"),
                    _("VP"),
                ],
                rows=[
                    (
                        f"{r.place}.",
                        r.team.name,
                        r.played,
                        trim_zero(r.imps_won),
                        trim_zero(r.imps_lost),
                        trim_zero(r.imps) or "0",
                        r.vp,
                    )
                    for r in rows
                    if r.after_round == after
                ],
                widths=(1.2, 6, 1.6, 1.8, 1.8, 2, 1.6),
                align="RLRRRRR",
            )
        )
    if not blocks:
        blocks.append(pdf.Paragraph(_("No results yet.")))
    return pdf.pdf_response(
        f"{slugify(event.title)}-standings", event.title, _subtitle(event, _("Standings")), blocks
    )


def _side(slot, bye=False) -> str:
    if bye:
        return _("bye")
    if not slot.name:
        return _("to come")
    return f"{slot.seed}. {slot.name}" if slot.seed else slot.name


def bracket_pdf(request, pk):
    event = team_event_or_deny(request, pk)
    blocks = []
    for title, name in ((_("Main draw"), "main"), (_("Consolation bracket"), "consolation")):
        columns = bracket_columns(event, name, _round_title)
        if not columns:
            continue
        rows = []
        for column in columns:
            for box in column.boxes:
                winner = box.top if box.top.won else (box.bottom if box.bottom.won else None)
                rows.append(
                    (
                        column.title,
                        _side(box.top),
                        trim_zero(box.top.score),
                        _side(box.bottom, box.bye),
                        trim_zero(box.bottom.score),
                        winner.name if winner else "",
                    )
                )
        blocks.append(
            pdf.Table(
                title=title,
                headers=[_("Round"), _("Team"), _("IMP"), _("Team"), _("IMP"), _("Winner")],
                rows=rows,
                widths=(2.2, 4, 1.2, 4, 1.2, 4),
                align="LLRLRL",
            )
        )
    if not blocks:
        blocks.append(pdf.Paragraph(_("No results yet.")))
    return pdf.pdf_response(
        f"{slugify(event.title)}-ko", event.title, _subtitle(event, _("Knockout")), blocks
    )
