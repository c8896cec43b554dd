"""Table entry pages (issue #18): the director's table codes and control room, and the table's phone page.

The phone page needs no account: the table code in its address is the permission, and it lets the page
write only that table's current round (checked in `bridge.services.table_entry`). Codes are guessable,
so every request is counted per client address and an address that tried too many unknown codes is
refused for a while, known codes included (429 with Retry-After).
"""

import secrets

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from config.query import query_int
from tournaments import table_guard
from tournaments.services import director_alerts

from ..engine import round_clock
from ..models import TableEntry
from ..services import corrections, live, notation, table_director, table_entry
from .common import MANAGE, session_context, session_or_deny


def table_codes(request, pk):
    """The session's table codes (made on a POST), printable: one card per table with its address."""
    session = session_or_deny(request, pk, MANAGE)
    if request.method == "POST":
        codes = table_entry.create_codes(session, request.user)
        if codes:
            messages.success(request, _("Table codes ready."))
        else:
            messages.error(
                request, _("No section of this session has a generated movement to make codes for.")
            )
        return redirect("bridge_table_codes", session.pk)
    codes = table_entry.codes_of(session)
    cards = [(code, request.build_absolute_uri(reverse("bridge_table", args=[code.code]))) for code in codes]
    start = request.build_absolute_uri(reverse("bridge_table_start"))
    return render(
        request, "bridge/table_codes.html", session_context(request, session, cards=cards, start_url=start)
    )


def control_room(request, pk):
    """Per table: which boards are entered, confirmed, disputed; the boards waiting for the director."""
    session = session_or_deny(request, pk, MANAGE)
    director_alerts.mark_seen(request.path, request.user)  # the disputes it shows are seen now
    tables, waiting = table_entry.control_room(session)
    clock = table_entry.clock_of(session)
    table_entry.mark_late(tables, clock)
    boards = table_entry.boards_per_round(session)
    return render(
        request,
        "bridge/control_room.html",
        session_context(
            request,
            session,
            tables=tables,
            waiting=waiting,
            clock=clock,
            late_count=sum(1 for t in tables if t.late),
            next_round=table_entry.playing_round(session, tables),
            call_round=min(table_director.next_round_number(session, tables), table_entry.rounds_of(session)),
            can_call=table_director.next_round_number(session, tables) <= table_entry.rounds_of(session),
            default_announcement=table_director.default_announcement(
                table_director.next_round_number(session, tables)
            ),
            last_call=table_director.latest_call(session),
            codes=[t.code for t in tables],
            rounds=table_entry.rounds_of(session),
            boards_per_round=boards,
            guideline=round_clock.time_limit(boards) if boards else None,
            publish_warning="" if session.published_at else corrections.publish_warning(session),
        ),
    )


@require_POST
def start_round_clock(request, pk):
    """The director starts (or starts again) a round's clock (VSz 31): now, with the rule's time limit
    for the round's boards or the minutes he gives."""
    session = session_or_deny(request, pk, MANAGE)
    try:
        clock = table_entry.start_clock(
            session,
            request.user,
            round=request.POST.get("round") or None,
            screens_or_beginners=bool(request.POST.get("screens")),
            change_minute=bool(request.POST.get("change_minute")),
            minutes=request.POST.get("minutes") or None,
        )
    except table_entry.EntryRefused as refused:
        for text in refused.messages:
            messages.error(request, text)
    else:
        messages.success(
            request,
            _("The clock of round %(round)s started: %(minutes)s minutes.")
            % {"round": clock.round, "minutes": clock.minutes},
        )
    return redirect("bridge_control_room", session.pk)


@require_POST
def next_round(request, pk):
    """ "Next round" (VSz 31): every table's phone moves on to it, with the director's announcement, and
    the round's clock starts."""
    session = session_or_deny(request, pk, MANAGE)
    try:
        call = table_director.call_next_round(
            session,
            request.user,
            announcement=request.POST.get("announcement", ""),
            screens_or_beginners=bool(request.POST.get("screens")),
            minutes=request.POST.get("minutes") or None,
        )
    except table_entry.EntryRefused as refused:
        for text in refused.messages:
            messages.error(request, text)
    else:
        messages.success(
            request, _("Round %(round)s called: %(text)s") % {"round": call.round, "text": call.announcement}
        )
    return redirect("bridge_control_room", session.pk)


@require_POST
def director_correction(request, pk):
    """The director's own correction of one table's board (VSz 12): a correction version he countersigns."""
    session = session_or_deny(request, pk, MANAGE)
    data = request.POST
    table = query_int(data, "table", 1, 999)
    code = next(
        (
            c
            for c in table_entry.codes_of(session)
            if c.table == table and (not data.get("section") or str(c.section_id) == data.get("section"))
        ),
        None,
    )
    if code is None:
        messages.error(request, _("There is no table %(table)s in this session.") % {"table": table})
        return redirect("bridge_control_room", session.pk)
    code.session = session
    try:
        entry = table_director.correct(
            code,
            request.user,
            round=data.get("round"),
            board=data.get("board"),
            contract=data.get("contract", ""),
            declarer=data.get("declarer", ""),
            lead=data.get("lead", ""),
            result=data.get("result", ""),
            reason=data.get("reason", ""),
        )
    except table_entry.EntryRefused as refused:
        for text in refused.messages:
            messages.error(request, text)
    else:
        messages.success(
            request,
            _("Table %(table)s, board %(board)s corrected: N-S %(score)s (version %(version)s).")
            % {
                "table": code.table,
                "board": entry.board,
                "score": entry.score,
                "version": entry.version.number,
            },
        )
    return redirect("bridge_control_room", session.pk)


# --- the phone ------------------------------------------------------------------------------------------


def _too_many(request):
    return table_guard.wait_for(request, "table_ip")


def _refused(request, wait):
    return table_guard.refused(request, wait, "bridge/table_start.html")


def _code_or_404(request, code):
    found = table_entry.find_code(code)
    if found is None:
        table_guard.missed(request)
        raise Http404
    return found


@never_cache
def table_start(request):
    """Where a player types the code of his table (the card's address leads straight to the table)."""
    return table_guard.start_page(
        request,
        scope="table_ip",
        find=table_entry.find_code,
        template="bridge/table_start.html",
        table_url="bridge_table",
    )


def _entry_data(entry: TableEntry | None) -> dict | None:
    if entry is None:
        return None
    return {
        "id": entry.pk,
        "kind": entry.kind,
        "board": entry.board,
        "contract": entry.contract,
        "declarer": entry.declarer,
        "shown": str(notation.contract(entry.contract, entry.declarer)) if entry.contract else "",
        "tricks": entry.tricks,
        "score": entry.score,
        "applied": entry.version_id is not None,
        "problem": entry.problem,
    }


@never_cache
def table_page(request, code):
    """The table's current round: its boards, the pairs, a form per board; POST: one entry."""
    wait = _too_many(request)
    if wait:
        return _refused(request, wait)
    code = _code_or_404(request, code)
    if request.method == "POST":
        return _post(request, code)
    rounds = table_entry.table_rounds(code)
    now = table_entry.current_of(rounds, table_entry.called_round(code.session))
    clock = table_entry.clock_of(code.session, now.round) if now else None
    call = table_director.latest_call(code.session)
    for board in now.boards if now else ():
        board.key = secrets.token_hex(12)  # the forms' idempotency keys: a second tap or a resend is a no-op
    return render(
        request,
        "bridge/table.html",
        {
            "code": code,
            "session": code.session,
            "event": code.session.event,
            "now": now,
            "clock": clock,
            "closed": code.session.published_at is not None,
            "post_url": reverse("bridge_table", args=[code.code]),
            # The director's announcement of the round the phone now shows (issue #18).
            "call": call if call and now and call.round == now.round else None,
            "frequencies": live.phone_frequencies(code.session, rounds, now),
        },
    )


def _post(request, code):
    data = request.POST
    try:
        answer = table_entry.send(
            code,
            key=data.get("key", ""),
            kind=data.get("kind", ""),
            round=data.get("round"),
            board=data.get("board"),
            ns=data.get("ns"),
            ew=data.get("ew"),
            contract=data.get("contract", ""),
            declarer=data.get("declarer", ""),
            lead=data.get("lead", ""),
            result=data.get("result", ""),
            based_on=data.get("based_on"),
            note=data.get("note", ""),
        )
    except table_entry.Conflict as conflict:
        text = _("Another phone of this table entered this board first: check its result below.")
        if table_guard.wants_json(request):
            return JsonResponse(
                {"status": "conflict", "messages": [text], "current": _entry_data(conflict.current)},
                status=409,
            )
        messages.error(request, text)
        return redirect("bridge_table", code.code)
    except table_entry.EntryRefused as refused:
        if table_guard.wants_json(request):
            return JsonResponse({"status": "refused", "messages": refused.messages}, status=400)
        for text in refused.messages:
            messages.error(request, text)
        return redirect("bridge_table", code.code)
    entry = answer.entry
    if entry.kind == TableEntry.Kind.RESULT:
        text = _("Board %(board)s entered: N-S %(score)s. East confirms it.") % {
            "board": entry.board,
            "score": entry.score,
        }
    elif entry.kind == TableEntry.Kind.CONFIRM:
        text = _("Board %(board)s confirmed.") % {"board": entry.board}
        if entry.problem:
            text += " " + _("The director will look at it: %(why)s") % {"why": entry.problem}
    else:
        text = _("Board %(board)s disputed: the director is called.") % {"board": entry.board}
    if table_guard.wants_json(request):
        return JsonResponse(
            {
                "status": "repeated" if answer.repeated else "ok",
                "messages": [text],
                "entry": _entry_data(entry),
            }
        )
    messages.success(request, text)
    return redirect("bridge_table", code.code)
