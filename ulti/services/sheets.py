"""Score sheets: settle a table's deals on the server and feed the totals in as the round's next version."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from ..engine import sheet
from ..engine.scoring import Bid, Component, Player, ScoringError, SilentGame
from ..models import ScoreSheet, SheetDraft, Table
from . import UltiError, loading, uploads


def keys_of(table: Table) -> list[str]:
    return [str(s.participant_id) for s in table.seats.order_by("position")]


def context_of(table: Table):
    """(scoring rules, deals per round, forints per unit) of the table's event."""
    settings = loading.settings_of(table.round.event)
    if settings is None:
        raise UltiError(_("The event is not set up for ulti yet."))
    ruleset = settings.ruleset
    return (
        sheet.scoring_rules(ruleset.key, ruleset.silent_games),
        ruleset.deals_per_round,
        settings.unit_forints,
    )


def names_of(table: Table) -> dict[str, str]:
    return {
        str(s.participant_id): str(s.participant.person)
        for s in table.seats.select_related("participant__person")
    }


def message(error: sheet.SheetError, names: dict[str, str] | None = None) -> str:
    """The director's wording of a sheet error, naming the deal (and the players, not their ids)."""
    texts = {
        "dealer": _("choose the dealer"),
        "declarer": _("choose the declarer"),
        "bid": _("unknown bid %(detail)s"),
        "outcome": _("unknown outcome %(detail)s"),
        "silent": _("unknown silent achievement %(detail)s"),
        "revoke": _("unknown phase of the irregularity %(detail)s"),
    }
    if error.kind == "count":
        return (
            _("The sheet has %(found)s deals; the rule set plays %(required)s deals a round.") % error.params
        )
    refusal = error.params.get("refusal")
    if error.kind == "engine" and isinstance(refusal, ScoringError):
        # The scoring engine's refusal (issue 22): its template in the reader's language, its games named
        # as the pages name them and its players by name.
        text = _refusal(refusal, names or {})
    elif error.kind in texts:
        text = texts[error.kind] % {"detail": error.detail}
    else:
        text = error.detail
    for key, name in (names or {}).items():
        text = text.replace(f"'{key}'", name)
    return _("Deal %(n)s: %(text)s") % {"n": error.deal, "text": text}


# The parts of a bid and the silent games as a refusal names them (a bid by its Hungarian table name, as
# the sheet's list of bids shows it in every language).
COMPONENT_NAMES = {
    Component.PARTI: gettext_lazy("parti"),
    Component.FORTY_HUNDRED: gettext_lazy("40-100"),
    Component.TWENTY_HUNDRED: gettext_lazy("20-100"),
    Component.ULTI: gettext_lazy("ulti"),
    Component.FOUR_ACES: gettext_lazy("four aces"),
    Component.DURCHMARS: gettext_lazy("durchmars"),
    Component.OPEN_DURCHMARS: gettext_lazy("open durchmars"),
    Component.BETLI: gettext_lazy("betli"),
    Component.REBETLI: gettext_lazy("rebetli"),
    Component.OPEN_BETLI: gettext_lazy("open betli"),
    Component.NO_TRUMP_DURCHMARS: gettext_lazy("no-trump durchmars"),
    Component.REDURCHMARS: gettext_lazy("redurchmars"),
    Component.NO_TRUMP_OPEN_DURCHMARS: gettext_lazy("no-trump open durchmars"),
}
SILENT_NAMES = {
    SilentGame.HUNDRED: pgettext_lazy("silent game", "100"),
    SilentGame.FOUR_ACES: gettext_lazy("four aces"),
    SilentGame.ULTI: gettext_lazy("ulti"),
    SilentGame.DURCHMARS: gettext_lazy("durchmars"),
}


def _refusal(refusal: ScoringError, names: dict[str, str]) -> str:
    def name_of(value) -> str:
        if isinstance(value, Player):
            return names.get(str(value), str(value))
        if isinstance(value, Bid):
            return value.hungarian
        if isinstance(value, Component):
            return str(COMPONENT_NAMES[value])
        if isinstance(value, SilentGame):
            return str(SILENT_NAMES[value])
        return str(value)

    try:
        return refusal.render(name_of, _(refusal.template))
    except (KeyError, TypeError, ValueError):
        # A catalogue entry with a wrong placeholder must not break the page: the English reads.
        return refusal.render(name_of)


def preview(table: Table, data) -> dict:
    """Running totals for the form as the director types (the JavaScript posts here)."""
    rules, required, unit = context_of(table)
    keys = keys_of(table)
    rows = sheet.records_from_form(data, keys, max(required, _rows_posted(data)))
    result = sheet.settle_sheet(rows, keys, rules, unit)
    names = names_of(table)
    return {
        "deals": [
            {
                "number": line.number,
                "forints": line.forints,
                "running": line.running,
                "slots": sheet.slots_of(line.record.get("bid", "")),
                "error": message(line.error, names) if line.error else "",
            }
            for line in result.lines
        ],
        "totals": result.totals,
        "count": len(result.lines),
        "required": required,
        "complete": not result.errors and len(result.lines) == required,
    }


def _rows_posted(data) -> int:
    numbers = [int(k[1:].split("_")[0]) for k in data if k.startswith("d") and k[1:].split("_")[0].isdigit()]
    return min(max(numbers, default=0), 60)


def settle_records(table: Table, rows: list[tuple[int, dict]]) -> sheet.SheetResult:
    rules, required, unit = context_of(table)
    result = sheet.settle_sheet(rows, keys_of(table), rules, unit)
    try:
        sheet.check_complete(result, required)
    except sheet.SheetError as error:
        names = names_of(table)
        raise UltiError([message(error, names)] + [message(e, names) for e in result.errors[1:]])
    return result


def rows_of_form(table: Table, data) -> list[tuple[int, dict]]:
    _rules, required, _unit = context_of(table)
    return sheet.records_from_form(data, keys_of(table), max(required, _rows_posted(data)))


def save_form(table: Table, data, *, user, note="", **resolution) -> ScoreSheet:
    return save(table, rows_of_form(table, data), user=user, note=note, **resolution)


@transaction.atomic
def save(
    table: Table, rows: list[tuple[int, dict]], *, user, note="", source=uploads.Source.FORM, **resolution
) -> ScoreSheet:
    """Settle every deal (the server is the authority) and write the totals as the table's round result.

    ``resolution`` (decisions, reasons, based_on): the director's choice on the decisions in force on the
    table (uploads.upload_table); without it ``DecisionsPending`` and nothing is written."""
    result = settle_records(table, rows)
    _rules, _required, unit = context_of(table)
    upload = uploads.receive(
        table.round,
        uploads.Format.TABLE,
        {"table": table, "forints": {int(k): v for k, v in result.totals.items()}},
        user=user,
        note=note or _("score sheet of table %(t)s") % {"t": table.number},
        source=source,
        **resolution,
    )
    last = ScoreSheet.objects.filter(table=table).order_by("-number").first()
    SheetDraft.objects.filter(table=table).delete()  # finished: the part-way copy has done its work
    return ScoreSheet.objects.create(
        table=table,
        number=(last.number + 1) if last else 1,
        deals=[record for _n, record in rows],
        unit_forints=unit,
        totals=result.totals,
        upload=upload,
        entered_by=user,
    )


def latest(table: Table) -> ScoreSheet | None:
    return ScoreSheet.objects.filter(table=table).order_by("-number").first()


@transaction.atomic
def save_partial(table: Table, data, *, user) -> SheetDraft:
    """Keep the deals entered so far (part-way through the round) without writing a round version; the
    sheet is finished later with `save`. Deals the engine cannot settle yet are kept as typed."""
    rows = rows_of_form(table, data)
    if not rows:
        raise UltiError(_("No deal is entered yet: nothing to save."))
    draft, _created = SheetDraft.objects.update_or_create(
        table=table, defaults={"deals": [[number, record] for number, record in rows], "saved_by": user}
    )
    return draft


def draft_of(table: Table) -> SheetDraft | None:
    """The part-way sheet, if it is newer than the table's last finished one."""
    draft = SheetDraft.objects.filter(table=table).select_related("saved_by").first()
    last = latest(table)
    if draft is None or (last is not None and last.entered_at > draft.saved_at):
        return None
    return draft
