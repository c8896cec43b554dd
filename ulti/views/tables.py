"""Ulti table entry pages (issue #18): the director's table codes, control room and round clock, and the
table's phone page.

The phone page needs no account: the table code in its address is the permission, and it lets the page
write only that table's round (checked in `ulti.services.table_entry`). Codes are guessable, so every
request is counted per client address and an address that tried too many unknown codes is refused for a
while (the same counters as the bridge tables: a guesser is locked out of both), 429 with Retry-After.
"""

import json
import secrets
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from results.upload_decisions import DecisionsPending
from tournaments import table_guard
from tournaments.services import director_alerts

from ..engine.sheet import BIDS
from ..engine.table_entry import QUICK_BIDS, REVOKE_TIMES, DealError, chosen_bid, plain_fields, plain_record
from ..services import UltiError, live, loading, table_entry
from ..services import round_clock as clocks
from .common import MANAGE, round_or_deny, show_errors, table_or_deny
from .table_data import bid_choices, entry_data, plain_form, revoke_times, sheet_data


def _round_context(rnd, **extra):
    return {"round": rnd, "event": rnd.event, "stage": rnd.group.stage, "group": rnd.group, **extra}


def table_codes(request, pk):
    """The round's table codes (made on a POST), printable: one card per table with its players."""
    rnd = round_or_deny(request, pk, MANAGE)
    if request.method == "POST":
        try:
            table_entry.create_codes(rnd, request.user)
        except UltiError as error:
            show_errors(request, error)
        else:
            messages.success(request, _("Table codes ready."))
        return redirect("ulti_table_codes", rnd.pk)
    cards = [
        (
            code,
            table_entry.seats_of(code.table),
            request.build_absolute_uri(reverse("ulti_table", args=[code.code])),
        )
        for code in table_entry.codes_of(rnd)
    ]
    start = request.build_absolute_uri(reverse("ulti_table_start"))
    return render(request, "ulti/table_codes.html", _round_context(rnd, cards=cards, start_url=start))


def control_room(request, pk):
    """Per table: deals entered, who confirmed, disputes; the round clock and the late tables."""
    rnd = round_or_deny(request, pk, MANAGE)
    director_alerts.mark_seen(request.path, request.user)  # the disputes it shows are seen now
    tables = table_entry.control_room(rnd)
    clock = clocks.clock_of(rnd)
    clocks.mark_late(tables, clock)
    settings_ = loading.settings_of(rnd.event)
    return render(
        request,
        "ulti/control_room.html",
        _round_context(
            rnd,
            tables=tables,
            clock=clock,
            late_count=sum(1 for t in tables if t.late),
            waiting=[t for t in tables if t.state and t.state.status in ("disputed", "pending")],
            minimum=settings_.ruleset.min_round_minutes if settings_ else None,
            rule_name=settings_.ruleset.name if settings_ else "",
            live=live.is_live(rnd),
        ),
    )


@require_POST
def start_round_clock(request, pk):
    """The director starts (or starts again) the round's clock: the rule set's minimum round time, or the
    longer time he gives (a shorter one is refused with the rule's reason)."""
    rnd = round_or_deny(request, pk, MANAGE)
    try:
        clock = clocks.start(rnd, request.user, request.POST.get("minutes") or None)
    except UltiError as error:
        show_errors(request, error)
    else:
        messages.success(
            request,
            _("The clock of round %(round)s started: %(minutes)s minutes.")
            % {"round": rnd.number, "minutes": clock.minutes},
        )
    return redirect("ulti_control_room", rnd.pk)


@require_POST
def correct_table(request, pk):
    """The director corrects a table's round result from the control room (a correction version with his
    name and reason: `table_entry.correct`)."""
    table = table_or_deny(request, pk, MANAGE)
    forints = {
        seat.pk: request.POST.get(f"forint-{seat.pk}", "").strip() for seat in table_entry.seats_of(table)
    }
    try:
        table_entry.correct(table, request.user, forints=forints, reason=request.POST.get("reason", ""))
    except DecisionsPending:
        messages.error(
            request, _("A decision in force on this table needs the director's word: use the score sheet.")
        )
    except UltiError as error:
        show_errors(request, error)
    else:
        messages.success(request, _("The result of table %(t)s is corrected.") % {"t": table.number})
    return redirect("ulti_control_room", table.round_id)


@require_POST
def publish_results(request, pk):
    """The director publishes a live round's results: the public pages drop the "live, provisional" mark."""
    rnd = round_or_deny(request, pk, MANAGE)
    try:
        _rnd, now = live.publish_results(rnd, request.user)
    except UltiError as error:
        show_errors(request, error)
    else:
        if now:
            messages.success(request, _("The results of round %(n)s are published.") % {"n": rnd.number})
    return redirect("ulti_control_room", rnd.pk)


# --- the phone ------------------------------------------------------------------------------------------


def _too_many(request):
    return table_guard.wait_for(request, "ulti_table_ip")


def _refused(request, wait):
    return table_guard.refused(request, wait, "ulti/table_start.html")


@never_cache
def table_start(request):
    """Where a player types the code of his table (the card's address leads straight to the table)."""
    return table_guard.start_page(
        request,
        scope="ulti_table_ip",
        find=table_entry.find_code,
        template="ulti/table_start.html",
        table_url="ulti_table",
    )


@never_cache
def table_page(request, code):
    """The table's score sheet so far, the deal picker, and the round's confirmation; POST: one entry."""
    wait = _too_many(request)
    if wait:
        return _refused(request, wait)
    found = table_entry.find_code(code)
    if found is None:
        table_guard.missed(request)
        raise Http404
    if request.method == "POST":
        return _post(request, found)
    return _page(request, found, query=request.GET)


def _silent_games(rnd) -> tuple[str, ...]:
    return tuple(loading.settings_of(rnd.event).ruleset.silent_games)


def _page(request, found, *, query=None, sent=None, status=200):
    """The phone page. The plain form shows ``sent`` (a refused plain form, as it came), or what the
    address asks (``query``): ``deal`` a number (a stored deal opens to be corrected), ``declarer`` and
    ``bid`` step one's choice (shown as step two)."""
    state = table_entry.state_of(found)
    rnd = found.table.round
    clock = clocks.clock_of(rnd)
    silent_games = _silent_games(rnd)
    data = sheet_data(state)
    data.update(
        bids=bid_choices(silent_games),
        quick=list(QUICK_BIDS),
        key=secrets.token_hex(12),
        silent_games=[{"four_aces": "aces"}.get(g, g) for g in silent_games],
        revoke_times=[
            {
                "value": value,
                "label": label,
                "phase": REVOKE_TIMES[value][0],
                "offence": REVOKE_TIMES[value][1],
            }
            for value, label in revoke_times()
        ],
    )
    next_deal = min(len(state.deals) + 1, state.required)
    asked = sent if sent is not None else {k: query[k] for k in ("declarer", "bid") if query and query.get(k)}
    wanted = str((sent or {}).get("number") or (query or {}).get("deal") or "")
    number = int(wanted) if wanted.isdecimal() and 1 <= int(wanted) <= next_deal else next_deal
    values = dict(asked)
    stored = state.deals.get(number)
    if stored is not None and sent is None:  # a correction opens with the stored deal (or its new bid)
        values = plain_fields(stored.record) | values
    return render(
        request,
        "ulti/table.html",
        {
            "code": found,
            "round": rnd,
            "event": rnd.event,
            "state": state,
            "clock": clock,
            "current": table_entry.is_current(rnd),
            "post_url": reverse("ulti_table", args=[found.code]),
            "next_deal": next_deal,
            "plain": plain_form(state, values, number, silent_games, pick=bool(query and query.get("pick"))),
            # A complete sheet hides the form, unless the address or a refusal asks for a deal.
            "plain_shown": not state.complete or bool(sent is not None or (query and query.get("deal"))),
            "data": data,
        },
        status=status,
    )


def _plain_refused(request, code, texts: list[str]):
    """A refused plain form: the page again, the form as it was sent, the reasons above it (nothing was
    written); 400 so that nothing mistakes it for a stored deal."""
    for text in texts:
        messages.error(request, text)
    sent = {
        k: v for k, v in request.POST.items() if k not in ("csrfmiddlewaretoken", "key", "kind", "based_on")
    }
    return _page(request, code, sent=sent, status=400)


def _plain_details(request, code):
    """Step one of the plain form asked for the rest of the deal: step two's address for its bid and
    declarer (a GET, so that reloading it posts nothing)."""
    try:
        bid = chosen_bid(request.POST)
    except DealError as error:
        return _plain_refused(request, code, [table_entry.deal_message(error)])
    declarer = request.POST.get("declarer", "")
    keys = [s.key for s in table_entry.seats_of(code.table)]
    problems = []
    if declarer not in keys:
        problems.append(table_entry.deal_message(DealError("declarer")))
    if bid not in BIDS:
        problems.append(table_entry.deal_message(DealError("bid", bid)))
    if problems:
        return _plain_refused(request, code, problems)
    query = urlencode({"deal": request.POST.get("number", ""), "declarer": declarer, "bid": bid})
    return redirect(f"{reverse('ulti_table', args=[code.code])}?{query}#deal-picker")


def _post(request, code):
    data = request.POST
    plain = data.get("record") is None and data.get("kind") == "deal"  # the plain form (no JavaScript)
    if plain and data.get("step") == "details":
        return _plain_details(request, code)
    if plain:
        try:
            record = plain_record(data)
        except DealError as error:
            return _plain_refused(request, code, [table_entry.deal_message(error)])
    else:
        try:
            record = json.loads(data.get("record") or "{}")
        except ValueError:
            record = None
    try:
        answer = table_entry.send(
            code,
            key=data.get("key", ""),
            kind=data.get("kind", ""),
            number=data.get("number"),
            based_on=data.get("based_on"),
            record=record,
            seat=data.get("seat"),
            note=data.get("note", ""),
        )
    except table_entry.Conflict as conflict:
        text = _(
            "Another phone of this table entered a deal first: check the sheet and enter it again if needed."
        )
        return _answer(
            request,
            code,
            {"status": "conflict", "messages": [text], "current": entry_data(conflict.current)},
            409,
        )
    except table_entry.EntryRefused as refused:
        if plain and not table_guard.wants_json(request):
            return _plain_refused(request, code, refused.messages)
        return _answer(request, code, {"status": "refused", "messages": refused.messages}, 400)
    entry = answer.entry
    if entry.kind == entry.Kind.DEAL:
        text = _("Deal %(n)s entered.") % {"n": entry.number}
    elif entry.kind == entry.Kind.CONFIRM:
        text = _("Confirmed.")
        if entry.upload_id:
            text = _("All three confirmed: the table's result is in.")
        elif entry.problem:
            text += " " + _("The director will look at it: %(why)s") % {"why": entry.problem}
    else:
        text = _("Disputed: the director is called.")
    status = "repeated" if answer.repeated else "ok"
    return _answer(request, code, {"status": status, "messages": [text], "entry": entry_data(entry)}, 200)


def _answer(request, code, payload, status):
    if table_guard.wants_json(request):
        return JsonResponse(payload, status=status)
    for text in payload["messages"]:
        (messages.success if status == 200 else messages.error)(request, text)
    return redirect("ulti_table", code.code)
