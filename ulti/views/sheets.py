"""Score sheets: the deal-by-deal form (running totals from the preview endpoint) and saving it."""

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from results import decision_views
from results.upload_decisions import DecisionsPending

from ..engine.scoring import SilentGame
from ..engine.sheet import BIDS, SILENT_GAMES, SLOT_OF, SLOTS, form_values
from ..models import Round
from ..services import UltiError, sheets
from . import director
from .common import MANAGE, show_errors, table_or_deny
from .notes import OFFENCE_LABELS, PHASE_LABELS, SILENT_CHOICE_LABELS, SILENT_LABELS, SLOT_LABELS

# Which answers each silent game allows (a silent four aces may be split between the defenders, only a
# silent ulti can fail, a silent 100 needs a trick: I.2 (4)).
SILENT_OPTIONS = {
    "100": ("declarer", "defenders", "declarer_notrick", "defenders_notrick"),
    "aces": ("declarer", "defenders", "defenders_split"),
    "ulti": ("declarer", "defenders", "declarer_failed", "defenders_failed"),
    "durchmars": ("declarer", "defenders"),
}


def sheet_form(request, pk):
    table = table_or_deny(request, pk, MANAGE)
    rnd = table.round
    _rules, required, unit = sheets.context_of(table)
    seats = list(table.seats.select_related("participant__person").order_by("position"))
    keys = [str(s.participant_id) for s in seats]
    values = {}
    if request.method == "POST":
        values = {k: v for k, v in request.POST.items() if k.startswith("d")}
        if rnd.status != Round.Status.PUBLISHED:
            messages.error(request, _("Round %(n)s is not published yet.") % {"n": rnd.number})
        elif "partial" in request.POST:
            try:
                draft = sheets.save_partial(table, request.POST, user=request.user)
            except UltiError as error:
                show_errors(request, error)
            else:
                messages.success(
                    request,
                    _(
                        "Saved part-way: %(n)s of %(required)s deals. No result is written until the sheet "
                        "is finished."
                    )
                    % {"n": len(draft.deals), "required": required},
                )
                return redirect("ulti_sheet", table.pk)
        else:
            note = request.POST.get("note", "")
            try:
                rows = sheets.rows_of_form(table, request.POST)
                sheets.save(table, rows, user=request.user, note=note)
            except DecisionsPending as pending:
                payload = {
                    "rows": rows,
                    "note": note,
                    "based_on": pending.based_on,
                    "affected": pending.affected,
                }
                token = decision_views.stash(request, PENDING, table.pk, payload)
                return director._confirm_page(
                    request, rnd, token, pending.affected, back=_back(table), action=_action(table)
                )
            except UltiError as error:
                show_errors(request, error)
            else:
                messages.success(request, _("Score sheet saved; its totals are the table's new result."))
                return redirect("ulti_round", rnd.pk)
    else:
        latest = sheets.latest(table)
        draft = sheets.draft_of(table)
        if draft is not None:
            for number, record in draft.deals:
                values.update(form_values(record, number, keys))
            for n in range(1, required + 1):
                values.setdefault(f"d{n}_dealer", str((n - 1) % 3))
        elif latest is not None:
            for number, record in enumerate(latest.deals, start=1):
                values.update(form_values(record, number, keys))
        else:
            # The deal passes to the left: seat 1 deals first.
            values = {f"d{n}_dealer": str((n - 1) % 3) for n in range(1, required + 1)}
    silent_games = [g for g in SILENT_GAMES if g != "durchmars" or _rules.silent_games & {_durchmars()}]
    deals = []
    for n in range(1, required + 1):
        deals.append(
            {
                "number": n,
                "dealer": values.get(f"d{n}_dealer", ""),
                "declarer": values.get(f"d{n}_declarer", ""),
                "bid": values.get(f"d{n}_bid", ""),
                "slots": [
                    {
                        "slot": slot,
                        "label": SLOT_LABELS[slot],
                        "outcome": values.get(f"d{n}_{slot}", ""),
                        "kontra": [values.get(f"d{n}_{slot}_k{i}", "") for i in range(3)],
                    }
                    for slot in SLOTS
                ],
                "silent": [
                    {
                        "game": g,
                        "label": SILENT_LABELS[g],
                        "value": values.get(f"d{n}_s_{g}", ""),
                        "options": [(o, SILENT_CHOICE_LABELS[o]) for o in SILENT_OPTIONS[g]],
                    }
                    for g in silent_games
                ],
                "impdbl": values.get(f"d{n}_impdbl", ""),
                "rv_player": values.get(f"d{n}_rv_player", ""),
                "rv_phase": values.get(f"d{n}_rv_phase", ""),
                "rv_offence": values.get(f"d{n}_rv_offence", ""),
            }
        )
    bids = [(b.name, f"{b.hungarian} ({b.display_value})") for b in BIDS.values()]
    slots_of_bid = {b.name: sorted({_slot(c) for c in b.components}) for b in BIDS.values()}
    return render(
        request,
        "ulti/sheet_form.html",
        {
            "event": table.event,
            "round": rnd,
            "table": table,
            "seats": seats,
            "deals": deals,
            "bids": bids,
            "required": required,
            "unit": unit,
            "phases": list(PHASE_LABELS.items()),
            "offences": list(OFFENCE_LABELS.items()),
            "bid_slots": slots_of_bid,
            "draft": sheets.draft_of(table),
        },
    )


def _durchmars():
    return SilentGame.DURCHMARS


def _slot(component):
    return SLOT_OF[component]


PENDING = "ulti-sheet"


def _back(table):
    return reverse("ulti_sheet", args=[table.pk])


def _action(table):
    return reverse("ulti_sheet_confirm", args=[table.pk])


@require_POST
def sheet_confirm(request, pk):
    """The director's choices on the decisions a waiting score sheet covers; only then is it saved."""
    table = table_or_deny(request, pk, MANAGE)

    def store(payload, **resolution):
        rows = [(int(n), record) for n, record in payload["rows"]]
        return sheets.save(table, rows, user=request.user, note=payload["note"], **resolution)

    return director.confirm_waiting(
        request,
        table.round,
        PENDING,
        table.pk,
        store,
        back=_back(table),
        action=_action(table),
        done=_("Score sheet saved; its totals are the table's new result."),
    )


@require_POST
def sheet_preview(request, pk):
    """Running totals as the director types; the server settles, the page only shows."""
    table = table_or_deny(request, pk, MANAGE)
    try:
        return JsonResponse(sheets.preview(table, request.POST))
    except UltiError as error:
        return JsonResponse({"errors": error.messages}, status=400)
