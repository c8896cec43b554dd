"""Public pages: the ulti events, an event's rounds, a round's tables, standings with the chart, a player."""

from django.db.models import Exists, OuterRef
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import urlencode

from config.query import query_int
from federation.models import Person
from rankings.services import earned as earned_masterpoints
from results import live as shared_live
from results.page_cache import by_event, cache_public_page
from tournaments.models import Event, public_events_q

from ..engine import sheet as sheet_mod
from ..engine.sheet import BIDS
from ..models import Participant, Stage
from ..services import live, loading, pages, sheets
from ..services.decisions import carried_by
from .common import MANAGE, event_or_deny, round_or_deny, table_or_deny
from .notes import describe, summarise


def index(request):
    stages = Stage.objects.filter(event=OuterRef("pk"))
    events = (
        Event.objects.filter(public_events_q(), format__in=Event.ULTI_FORMATS)
        .filter(Exists(stages))
        .select_related("federation", "club")
        .order_by("-start_date", "title")
    )
    return render(request, "ulti/index.html", {"events": events})


def _header(request, event) -> dict:
    can_manage = request.user.has_perm(MANAGE, event)
    return {
        "event": event,
        "can_manage": can_manage,
        "processing": pages.processing(event.pk),
        "recompute_error": pages.recompute_error(event.pk) if can_manage else "",
    }


@cache_public_page(by_event)
def event_page(request, pk):
    event = event_or_deny(request, pk)
    context = _header(request, event)
    context["stages"] = pages.stages(event, with_drafts=context["can_manage"])
    context["live_ids"] = live.live_ids(
        [row["round"] for s in context["stages"] for g in s["groups"] for row in g["rounds"]]
    )
    if context["can_manage"]:
        context["settings"] = loading.settings_of(event)
        context["entries"] = event.active_entries().filter(no_show=False).count()
    return render(request, "ulti/event.html", context)


def _pick(stages, request):
    number = request.GET.get("stage")
    chosen = next((s for s in stages if str(s.number) == number), None)
    return chosen or (stages[-1] if stages else None)


STANDINGS_PARAMS = ("stage", "group", "after", "player")


@cache_public_page(by_event, params=STANDINGS_PARAMS)
def standings(request, pk):
    event = event_or_deny(request, pk)
    context = standings_context(request, event)
    return render(request, "ulti/standings.html", context)


def standings_params(request) -> tuple[str, ...]:
    """The standings page's own query parameters, as given (the live fragment asks with the same)."""
    return tuple(request.GET.get(name, "") for name in STANDINGS_PARAMS)


def standings_context(request, event) -> dict:
    context = _header(request, event)
    all_stages = list(Stage.objects.filter(event=event).prefetch_related("groups").order_by("number"))
    stage = _pick(all_stages, request)
    context.update(stages=all_stages, stage=stage)
    if stage is None:
        return context
    context.update(_live_standings(request, event, stage))
    groups = list(stage.groups.all())
    group = next((g for g in groups if g.name and g.name == request.GET.get("group")), None)
    rounds = pages.after_rounds(stage)
    after = query_int(request.GET, "after", 0, 32767)
    after = after if after in rounds else (rounds[-1] if rounds else None)
    rows = pages.standings(stage, group if len(groups) > 1 else None, after) if after else []
    highlight = query_int(request.GET, "player")
    final = stage == all_stages[-1] and rounds and after == rounds[-1] and not context["live"]
    earned = earned_masterpoints.masterpoints_of(event) if rows and final else {}
    for row in rows if earned else []:
        row.masterpoints = earned_masterpoints.shares(earned, (row.participant.person_id,))
    context.update(
        earned=bool(earned),
        groups=groups if len(groups) > 1 else [],
        group=group,
        rounds=rounds,
        after=after,
        rows=rows,
        highlight=highlight,
        playing=live.still_playing(context["live_rounds"], after) if rows and context["live"] else set(),
        chart=pages.chart_of(stage, group if len(groups) > 1 else None, rows, highlight) if rows else None,
        teams=pages.team_standings(stage, after) if after and event.format == Event.Format.ULTI_TEAM else [],
        ruleset=_ruleset(event),
    )
    return context


def _live_standings(request, event, stage) -> dict:
    """What the live mark and the polling script need: a stage with a live round polls its standings."""
    rounds = live.live_rounds(stage)
    params = standings_params(request)
    query = urlencode([(n, v) for n, v in zip(STANDINGS_PARAMS, params, strict=True) if v])
    return {
        "live": bool(rounds),
        "live_rounds": rounds,
        "published_round": None if rounds else live.last_published(stage),
        "live_url": reverse("ulti_live_standings", args=[event.pk]) + (f"?{query}" if query else ""),
        # Only a live page polls: a published one is not asked for again.
        "live_etag": live.standings_etag(event.pk, "standings", *params) if rounds else "",
        "live_seconds": shared_live.poll_seconds(),
    }


def _ruleset(event):
    settings = loading.settings_of(event)
    return settings.ruleset if settings else None


def round_page(request, pk):
    rnd = round_or_deny(request, pk)
    context = round_context(request, rnd)
    siblings = list(rnd.group.rounds.order_by("number"))
    if not context["can_manage"]:
        siblings = [r for r in siblings if r.is_published]
    context.update(siblings=siblings, notes=_notes(rnd.notes) if context["can_manage"] else [])
    return render(request, "ulti/round.html", context)


def round_context(request, rnd) -> dict:
    """The round's tables with their results, and the live mark while its tables enter them."""
    context = _header(request, rnd.event)
    is_live = live.is_live(rnd)
    context.update(
        round=rnd,
        group=rnd.group,
        stage=rnd.group.stage,
        live=is_live,
        published_round=rnd if rnd.results_published_at else None,
        live_url=reverse("ulti_live_round", args=[rnd.pk]),
        live_etag=live.round_etag(rnd.pk, "round") if is_live else "",
        live_seconds=shared_live.poll_seconds(),
        **pages.round_tables(rnd),
    )
    context["carried"] = list(carried_by(context["latest"])) if context["latest"] else []
    return context


def _notes(notes):
    return [describe(n) for n in notes]


@cache_public_page(by_event)
def player_card(request, pk, person):
    event = event_or_deny(request, pk)
    person = get_object_or_404(Person, pk=person)
    if not Participant.objects.filter(stage__event=event, person=person).exists():
        raise Http404
    context = _header(request, event)
    context.update(person=person, stages=pages.player_card(event, person))
    return render(request, "ulti/player.html", context)


def sheet_print(request, pk):
    """The printable score sheet of a table: filled with the latest saved sheet, or empty to play on."""
    table = table_or_deny(request, pk)
    sheet = sheets.latest(table)
    if request.GET.get("empty") or sheet is None:
        table = table_or_deny(request, pk, MANAGE)
        sheet = None
    context = _header(request, table.event)
    context.update(table=table, round=table.round, **_sheet_rows(table, sheet))
    return render(request, "ulti/sheet_print.html", context)


def _sheet_rows(table, sheet) -> dict:
    seats = list(table.seats.select_related("participant__person").order_by("position"))
    keys = [str(s.participant_id) for s in seats]
    settings = loading.settings_of(table.event)
    required = settings.ruleset.deals_per_round if settings else 12
    rows = []
    if sheet is not None:
        rules, _req, unit = sheets.context_of(table)
        result = sheet_mod.settle_sheet(
            list(enumerate(sheet.deals, start=1)), keys, rules, sheet.unit_forints
        )
        for line in result.lines:
            record = line.record
            bid = BIDS.get(record.get("bid", ""))
            rows.append(
                {
                    "number": line.number,
                    "dealer": _seat_no(keys, record.get("dealer")),
                    "declarer": _seat_no(keys, record.get("declarer")),
                    "bid": bid.hungarian if bid else record.get("bid", ""),
                    "value": bid.display_value if bid else "",
                    "summary": summarise(record, keys),
                    "cells": [(line.forints.get(k, 0), line.running.get(k, 0)) for k in keys],
                }
            )
    empty = max(0, required - len(rows))
    return {
        "seats": seats,
        "rows": rows,
        "empty_rows": range(len(rows) + 1, len(rows) + empty + 1),
        "required": required,
        "sheet": sheet,
        "totals": [sheet.totals.get(k, 0) for k in keys] if sheet else [None for _k in keys],
        "unit": sheet.unit_forints if sheet else (settings.unit_forints if settings else None),
    }


def _seat_no(keys, key):
    return keys.index(key) + 1 if key in keys else ""
