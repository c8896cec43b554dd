"""Reading an event's rounds and their latest results, shared by the draw, the uploads and the recompute."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Max

from ulti.engine.standings import RoundResult
from ulti.engine.tables import TableResult

from ..models import Bye, ForintResult, Round, RoundUpload, Seat, Stage, UltiEvent


def settings_of(event) -> UltiEvent | None:
    return UltiEvent.objects.filter(event=event).first()


def round_results(rounds, uploaded, results, seats, byes, tables) -> list[RoundResult]:
    """The scored rounds as the standings engine takes them, from rows already read (no query).

    ``rounds``: (round id, number, group id) in order; ``uploaded``: ids of the rounds with a version;
    ``results``: table id -> participant id -> forint (latest versions); ``seats``: table id -> participant
    ids in seat order; ``byes``: round id -> participant ids; ``tables``: round id -> (table id, number) by
    number. A round without a version is left out, and so is a table without results.
    """
    out = []
    for pk, number, group_id in rounds:
        if pk not in uploaded:
            continue
        scored = []
        for table_id, table_number in tables.get(pk, ()):
            got = results.get(table_id)
            if not got:
                continue
            keys = seats.get(table_id, ())
            scored.append(TableResult(str(table_number), tuple(map(str, keys)), tuple(got[k] for k in keys)))
        out.append(
            RoundResult(
                round=number,
                tables=tuple(scored),
                byes=tuple(str(p) for p in byes.get(pk, ())),
                group=str(group_id),
            )
        )
    return out


def latest_uploads(rounds) -> dict[int, RoundUpload]:
    """round id -> its latest result version."""
    ids = [r.pk for r in rounds]
    latest = (
        RoundUpload.objects.filter(round_id__in=ids).values("round_id").annotate(n=Max("number")).order_by()
    )
    wanted = {(row["round_id"], row["n"]) for row in latest}
    out = {}
    for upload in RoundUpload.objects.filter(round_id__in=ids):
        if (upload.round_id, upload.number) in wanted:
            out[upload.round_id] = upload
    return out


def results_of(uploads) -> dict[int, dict[int, int]]:
    """table id -> participant id -> forint, over the given versions."""
    out: dict[int, dict[int, int]] = defaultdict(dict)
    for line in ForintResult.objects.filter(upload__in=list(uploads)):
        out[line.table_id][line.participant_id] = line.forint
    return dict(out)


def seats_of(rounds) -> dict[int, list[Seat]]:
    """table id -> its seats in seat order."""
    out: dict[int, list[Seat]] = defaultdict(list)
    seats = (
        Seat.objects.filter(table__round__in=list(rounds))
        .select_related("table")
        .order_by("table", "position")
    )
    for seat in seats:
        out[seat.table_id].append(seat)
    return dict(out)


def byes_of(rounds) -> dict[int, list[int]]:
    out: dict[int, list[int]] = defaultdict(list)
    for bye in Bye.objects.filter(round__in=list(rounds)):
        out[bye.round_id].append(bye.participant_id)
    return dict(out)


def is_complete(round_obj, upload=None, results=None) -> bool:
    """Every table of the round has a result in its latest version."""
    if upload is None:
        upload = latest_uploads([round_obj]).get(round_obj.pk)
    if upload is None:
        return not round_obj.tables.exists() and round_obj.is_published
    results = results if results is not None else results_of([upload])
    return all(t.pk in results for t in round_obj.tables.all())


def stage_complete(stage: Stage) -> bool:
    """Every planned round of every group is published and fully scored."""
    for group in stage.groups.all():
        rounds = list(group.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"))
        if len(rounds) < stage.rounds:
            return False
        uploads = latest_uploads(rounds)
        results = results_of(uploads.values())
        for r in rounds:
            if r.pk not in uploads and r.tables.exists():
                return False
            if any(t.pk not in results for t in r.tables.all()):
                return False
    return True


def event_complete(event) -> bool:
    stages = list(Stage.objects.filter(event=event).prefetch_related("groups"))
    return bool(stages) and all(stage_complete(s) for s in stages)
