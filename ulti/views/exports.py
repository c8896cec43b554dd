"""A round's results as the CSV the upload reads, the PDFs of a round and of the standings, and the
standings as a spreadsheet (CSV and XLSX through `federation.spreadsheet`): the players' table, and for a
team ulti event also the teams' table (`team_standings_export`; the standings PDF holds both).

The same permission as the matching page: a round's export and PDF through `round_or_deny`, the standings'
through `event_or_deny`."""

from django.http import Http404
from django.utils.translation import gettext as _

from config.query import query_int
from federation import pdf, spreadsheet

from ..engine.csv_upload import EXPORT_HEADER
from ..models import Stage
from ..services import pages
from .common import event_or_deny, round_or_deny


def _round_title(rnd) -> str:
    stage = str(rnd.group.stage)
    group = _("Group %(name)s") % {"name": rnd.group.name} if rnd.group.name else ""
    return pdf.line(stage[:1].upper() + stage[1:], group, _("Round %(n)s") % {"n": rnd.number})


def round_csv(request, pk):
    """table;player (start number);forint;name: exactly what the round's CSV upload reads."""
    rnd = round_or_deny(request, pk)
    rows = [
        (t["table"].number, s["participant"].number, s["forint"], str(s["participant"].person))
        for t in pages.round_tables(rnd)["tables"]
        for s in t["seats"]
        if s["forint"] is not None
    ]
    return spreadsheet.csv_response(f"ulti-{rnd.event_id}-round-{rnd.number}", EXPORT_HEADER, rows)


def _forint(value):
    return "" if value is None else f"{value:+d}"


def round_pdf(request, pk):
    rnd = round_or_deny(request, pk)
    event = rnd.event
    blocks = []
    for t in pages.round_tables(rnd)["tables"]:
        blocks.append(
            pdf.Table(
                title=_("Table %(n)s") % {"n": t["table"].number},
                headers=[_("No."), _("Player"), _("Forint"), _("Points")],
                rows=[
                    (s["participant"].number, str(s["participant"].person), _forint(s["forint"]), s["points"])
                    for s in t["seats"]
                ],
                widths=(1, 6, 2, 2),
                align="RLRR",
            )
        )
    subtitle = pdf.line(event.title, event.federation, event.club, event.start_date, _round_title(rnd))
    return pdf.pdf_response(f"ulti-{event.pk}-round-{rnd.number}", _("Round results"), subtitle, blocks)


def _standings_of(request, event):
    """The stage and round the standings page shows for these query parameters: (stage, after) or Nones."""
    stages = list(Stage.objects.filter(event=event).order_by("number"))
    number = request.GET.get("stage")
    stage = next((s for s in stages if str(s.number) == number), stages[-1] if stages else None)
    if stage is None:
        return None, None
    rounds = pages.after_rounds(stage)
    after = query_int(request.GET, "after", 0, 32767)
    return stage, (after if after in rounds else (rounds[-1] if rounds else None))


def standings_pdf(request, pk):
    event = event_or_deny(request, pk)
    stage, after = _standings_of(request, event)
    blocks, heading = [], ""
    if after:
        heading = _("standings after round %(n)s") % {"n": after}
        teams = pages.team_standings(stage, after) if event.format == event.Format.ULTI_TEAM else []
        if teams:
            blocks.append(
                pdf.Table(
                    title=_("Teams"),
                    headers=[_("Place"), _("Team"), _("Players (A, B, C)"), _("Points"), _("Forint")],
                    rows=[
                        (
                            f"{_place(t.place_from, t.place_to)}.",
                            t.entry.team_name,
                            _members(t),
                            t.points,
                            _forint(t.forint),
                        )
                        for t in teams
                    ],
                    widths=(1.4, 3.5, 6, 1.6, 2),
                    align="RLLRR",
                )
            )
        blocks.append(
            pdf.Table(
                title=_("Players") if teams else "",
                headers=[_("Place"), _("No."), _("Player"), _("Points"), _("Forint"), _("Tables")],
                rows=[
                    (
                        f"{r.place}.",
                        r.participant.number,
                        str(r.participant.person),
                        r.points,
                        _forint(r.forint),
                        r.tables,
                    )
                    for r in pages.standings(stage, None, after)
                ],
                widths=(1.2, 1, 6, 1.6, 2, 1.4),
                align="RRLRRR",
            )
        )
    if not blocks:
        blocks.append(pdf.Paragraph(_("No results yet.")))
    subtitle = pdf.line(event.federation, event.club, event.start_date, str(stage or ""), heading)
    return pdf.pdf_response(f"ulti-{event.pk}-standings", event.title, subtitle, blocks)


def _place(place_from: int, place_to: int):
    """A place of its own as a number; a shared one as "3–4" (an en dash: no spreadsheet reads it as a date)."""
    return place_from if place_from == place_to else f"{place_from}\u2013{place_to}"


def standings_export(request, pk, fmt):
    """The standings page's table as a spreadsheet: CSV (Hungarian Excel) or XLSX, forints as integers.

    One line per player of the stage after the chosen round (the whole stage, with each player's group when
    it has several; a team event adds the player's team); the same permission as the page."""
    event = event_or_deny(request, pk)
    stage, after = _standings_of(request, event)
    rows = pages.standings(stage, None, after) if after else []
    grouped = stage is not None and stage.groups.count() > 1
    teams = event.format == event.Format.ULTI_TEAM
    header = [
        _("Place"),
        _("No."),
        _("Player"),
        *([_("Group")] if grouped else []),
        *([_("Team")] if teams else []),
        _("Points"),
        _("Forint"),
        _("Tables"),
        _("Bye"),
    ]
    lines = [
        (
            _place(r.place_from, r.place_to),
            r.participant.number,
            str(r.participant.person),
            *([r.participant.group.name if r.participant.group else ""] if grouped else []),
            *([r.participant.entry.team_name if r.participant.entry else ""] if teams else []),
            r.points,
            r.forint,
            r.tables,
            r.byes,
        )
        for r in rows
    ]
    name = f"ulti-{event.pk}-standings" + (f"-{stage.number}-{after}" if after else "")
    if fmt == "xlsx":
        return spreadsheet.xlsx_response(name, header, lines, sheet=_("Standings"))
    return spreadsheet.csv_response(name, header, lines)


def _members(team) -> str:
    """A team's members as the standings page shows them: "A: name, B: name, C: name"."""
    return ", ".join(f"{m['line']}: {m['name']}" if m.get("line") else m["name"] for m in team.members)


def team_standings_export(request, pk, fmt):
    """Team ulti: the teams' table of the standings page as a spreadsheet (CSV or XLSX): place (a shared
    one as "3–4"), team, members, points, forints as integers; the same permission and query parameters as
    the players' export. Other events have no teams' table: 404."""
    event = event_or_deny(request, pk)
    if event.format != event.Format.ULTI_TEAM:
        raise Http404
    stage, after = _standings_of(request, event)
    teams = pages.team_standings(stage, after) if after else []
    header = [_("Place"), _("Team"), _("Players (A, B, C)"), _("Points"), _("Forint")]
    lines = [
        (_place(t.place_from, t.place_to), t.entry.team_name, _members(t), t.points, t.forint) for t in teams
    ]
    name = f"ulti-{event.pk}-team-standings" + (f"-{stage.number}-{after}" if after else "")
    if fmt == "xlsx":
        return spreadsheet.xlsx_response(name, header, lines, sheet=_("Teams"))
    return spreadsheet.csv_response(name, header, lines)
