"""A round's forint results in: validated whole, written as the round's next version, recompute requested.

``receive`` is the one seam pages and API call: the round's CSV (an uploaded file or a pasted text, read
through ``results.upload_input``) or the web form's / API's table rows, parsed by the engine
(``ulti.engine.csv_upload``), written as the next version with the decisions it covers as today.

Every table is checked before anything is written: unknown table or player, a missing table or seat, a
table whose forints do not sum to zero (named). A full upload (form, CSV, API) must cover every table; a
score sheet changes one table and copies the others from the latest version.
"""

from __future__ import annotations

from enum import StrEnum

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.translation import gettext as _

from federation.models import Membership
from results.models import VersionedUpload
from results.services import mark_uploaded
from results.upload_decisions import DECISION_SOURCES, Action, DecisionsPending, ResolutionError, resolve
from results.upload_input import check_text_size, read_upload_text
from ulti.engine import csv_upload
from ulti.engine.tables import TableError, TableResult

from ..models import SCOPE, ForintResult, Round, RoundUpload
from . import UltiError, loading, request_recompute
from . import decisions as decision_layers
from .draw import _lock

Source = VersionedUpload.Source


def _tables(rnd: Round) -> dict[str, tuple]:
    """table number (text) -> (table, [participants in seat order])."""
    seats = loading.seats_of([rnd])
    return {str(t.number): (t, [s.participant for s in seats.get(t.pk, [])]) for t in rnd.tables.all()}


def _label(p) -> str:
    return f"{p.number}. {p.person}"


# Far beyond any round of ulti, and inside the database's integer column.
MAX_FORINT = 10**9


def unit_of(rnd: Round) -> int:
    """The forints of one unit in the round's event (1 when the event has no ulti settings yet)."""
    settings = loading.settings_of(rnd.event)
    return settings.unit_forints if settings is not None and settings.unit_forints else 1


def check_table(number: str, players: list, forints: dict[int, int], unit: int = 1) -> list[str]:
    """Errors of one table's three results (participant id -> forint), translated.

    Every deal pays whole units, so each result is a multiple of the event's ``unit`` forints."""
    errors = []
    seated = {p.pk for p in players}
    for pid in forints:
        if pid not in seated:
            errors.append(_("Table %(t)s: a player who does not sit at this table.") % {"t": number})
    missing = [p for p in players if p.pk not in forints]
    for p in missing:
        errors.append(_("Table %(t)s: no forint result for %(name)s.") % {"t": number, "name": _label(p)})
    if errors:
        return errors
    values = [forints[p.pk] for p in players]
    if any(abs(v) > MAX_FORINT for v in values):
        return [_("Table %(t)s: a forint result is larger than any game can produce.") % {"t": number}]
    total = sum(values)
    if total != 0:
        detail = ", ".join(f"{_label(p)}: {forints[p.pk]:+d}" for p in players)
        return [
            _("Table %(t)s: the forint results sum to %(sum)s, not 0 (%(detail)s).")
            % {"t": number, "sum": f"{total:+d}", "detail": detail}
        ]
    off_unit = [p for p in players if forints[p.pk] % unit]
    if off_unit:
        detail = ", ".join(f"{_label(p)}: {forints[p.pk]:+d}" for p in off_unit)
        return [
            _("Table %(t)s: each result must be a multiple of the unit, %(unit)s Ft (%(detail)s).")
            % {"t": number, "unit": unit, "detail": detail}
        ]
    try:
        TableResult(number, tuple(str(p.pk) for p in players), tuple(values))
    except TableError:
        return [_("Table %(t)s: these results cannot be scored.") % {"t": number}]
    return []


def _write(
    rnd: Round,
    lines: list[tuple],
    *,
    user,
    source,
    note="",
    file_name="",
    raw="",
    covered=None,
    decisions=None,
    reasons=None,
    based_on=None,
) -> RoundUpload:
    """lines: (table, participant id, forint). Inside the caller's transaction, after _lock.

    ``covered``: the table ids the upload gives (the rest are copied from the latest version). Decisions
    in force on those tables need the director's choice (``decisions``, ``reasons``: see
    results.upload_decisions); without it ``DecisionsPending`` is raised before anything is written. A
    decision itself (correction, adjustment, appeal) carries every decision before it.
    """
    latest = RoundUpload.objects.filter(round=rnd).order_by("-number").first()
    latest_number = latest.number if latest else 0
    if based_on is not None and int(based_on) != latest_number:
        raise UltiError(
            _("The round's results changed meanwhile (now version %(n)s): check the upload again.")
            % {"n": latest_number}
        )
    layers = decision_layers.in_force(rnd)
    actions = {d.pk: (Action.CARRIED, "") for d, _delta in layers}
    rows = {(_id(table), pid): forint for table, pid, forint in lines}
    covered = set(covered or ()) if source not in DECISION_SOURCES else set()
    if covered:
        given: dict[int, dict[int, int]] = {}
        for (table_id, pid), forint in rows.items():
            if table_id in covered:
                given.setdefault(table_id, {})[pid] = forint
        affected = [(d, delta) for d, delta in layers if decision_layers.covers(covered, delta)]
        try:
            chosen = resolve([d.pk for d, _delta in affected], decisions, reasons)
        except ResolutionError as error:
            raise UltiError(error.messages)
        if chosen is None:
            raise DecisionsPending(
                [decision_layers.describe(rnd, d, delta, given) for d, delta in affected], latest_number
            )
        actions.update(chosen)
        for decision, delta in layers:
            if actions[decision.pk][0] == Action.SET_ASIDE:
                continue
            for table_id, forints in delta.tables.items():
                if table_id in covered:
                    rows = {key: v for key, v in rows.items() if key[0] != table_id}
                    rows.update({(table_id, pid): forint for pid, forint in forints.items()})
    event_version = mark_uploaded(rnd.event_id, SCOPE)
    upload = RoundUpload.objects.create(
        round=rnd,
        number=latest_number + 1,
        source=source,
        uploaded_by=user,
        note=note[:500],
        file_name=file_name[:200],
        event_version=event_version,
        raw=raw,
    )
    ForintResult.objects.bulk_create(
        ForintResult(upload=upload, table_id=table_id, participant_id=pid, forint=forint)
        for (table_id, pid), forint in rows.items()
    )
    decision_layers.record(upload, actions, user)
    request_recompute(rnd.event_id)
    return upload


def _id(table) -> int:
    return table if isinstance(table, int) else table.pk


@transaction.atomic
def upload_round(
    rnd: Round,
    results: dict,
    *,
    user,
    source=Source.FORM,
    note="",
    file_name="",
    raw="",
    decisions=None,
    reasons=None,
    based_on=None,
) -> RoundUpload:
    """``results``: table number -> {participant id: forint} for EVERY table of the round.

    ``decisions`` / ``reasons`` / ``based_on``: the director's choice on the decisions in force the upload
    covers (see ``_write``)."""
    _lock(rnd.event_id)
    rnd = Round.objects.select_related("group__stage").get(pk=rnd.pk)
    if not rnd.is_published:
        raise UltiError(_("Round %(n)s is not published yet.") % {"n": rnd.number})
    tables = _tables(rnd)
    unit = unit_of(rnd)
    errors = []
    given = {str(k): v for k, v in results.items()}
    for number in sorted(set(given) - set(tables), key=_as_int):
        errors.append(
            _("Table %(t)s: there is no such table in round %(n)s.") % {"t": number, "n": rnd.number}
        )
    for number in sorted(tables, key=_as_int):
        if not given.get(number):
            errors.append(_("Table %(t)s: no results.") % {"t": number})
            continue
        errors.extend(check_table(number, tables[number][1], given[number], unit))
    if errors:
        raise UltiError(errors)
    lines = [
        (tables[number][0], pid, forint)
        for number in sorted(tables, key=_as_int)
        for pid, forint in given[number].items()
    ]
    return _write(
        rnd,
        lines,
        user=user,
        source=source,
        note=note,
        file_name=file_name,
        raw=raw,
        covered={t.pk for t, _players in tables.values()},
        decisions=decisions,
        reasons=reasons,
        based_on=based_on,
    )


def _as_int(text: str):
    return (0, int(text)) if str(text).isdigit() else (1, str(text))


class Format(StrEnum):
    CSV = "csv"  # an uploaded file (Django's or DRF's UploadedFile), its bytes, or a pasted text
    FORM = "form"  # table number -> {participant id: forint}, every table (the web form, the API)
    TABLE = "table"  # {"table": Table, "forints": {participant id: forint}}: one table's score sheet


def read_csv(data) -> str:
    """A CSV upload's text through results.upload_input: a file or bytes under the size limit and decoded
    as a Hungarian file, a pasted text under the same limit. Raises ``UploadInputError``."""
    if isinstance(data, str):
        return check_text_size(data)
    if isinstance(data, bytes):
        return read_upload_text(ContentFile(data))
    return read_upload_text(data)


def receive(
    rnd: Round, fmt: Format, data, *, user, file_name="", note="", source=None, **resolution
) -> RoundUpload:
    """The round's next version from an upload in ``fmt`` (see ``Format``); ``resolution`` (decisions,
    reasons, based_on): the director's choice on the decisions in force it covers (see ``_write``).
    ``source``: what a TABLE upload came from (the director's sheet form, or the table's phones).

    Raises ``UploadInputError`` (size, decoding), ``UltiError`` (every problem of the content; nothing is
    written) or ``DecisionsPending`` (nothing written: ask the director; for a CSV its ``text`` is the text
    read, to send again with the choices)."""
    if fmt == Format.CSV:
        text = read_csv(data)
        try:
            return upload_csv(rnd, text, user=user, file_name=file_name, note=note, **resolution)
        except DecisionsPending as pending:
            pending.text = text  # what was read, for the page to keep while it asks the director
            raise
    if fmt == Format.TABLE:
        table = data["table"]
        if table.round_id != rnd.pk:
            raise UltiError(_("Table %(t)s is not a table of this round.") % {"t": table.number})
        return upload_table(
            table, data["forints"], user=user, source=source or Source.FORM, note=note, **resolution
        )
    return upload_round(rnd, data, user=user, source=Source.FORM, note=note, **resolution)


@transaction.atomic
def upload_csv(rnd: Round, text: str, *, user, file_name="", note="", **resolution) -> RoundUpload:
    """A CSV text of the round (table;player;forint); ``resolution``: see ``upload_round``."""
    try:
        lines = csv_upload.parse(text)
    except csv_upload.CsvError as error:
        raise UltiError([_(message) % params for message, params in error.problems])
    participants = list(rnd.group.participants.select_related("person"))
    members = dict(
        Membership.objects.filter(
            federation_id=rnd.group.stage.event.federation_id,
            person_id__in=[p.person_id for p in participants],
        ).values_list("member_number", "person_id")
    )
    by_person = {p.person_id: p for p in participants}
    by_number = {str(p.number): p for p in participants}
    results: dict[str, dict[int, int]] = {}
    errors = []
    for line in lines:
        player = by_person.get(members[line.player]) if line.player in members else by_number.get(line.player)
        if player is None:
            errors.append(
                _("Line %(n)s: unknown player %(value)s (give the start number or the member number).")
                % {"n": line.line, "value": line.player}
            )
            continue
        table = results.setdefault(line.table, {})
        if player.pk in table:
            errors.append(
                _("Line %(n)s: %(name)s is given twice at table %(t)s.")
                % {"n": line.line, "name": _label(player), "t": line.table}
            )
            continue
        table[player.pk] = line.forint
    if errors:
        raise UltiError(errors)
    tables = _tables(rnd)
    for number, got in results.items():
        if number in tables:
            seated = {p.pk for p in tables[number][1]}
            for pid in got:
                if pid not in seated:
                    errors.append(
                        _("Table %(t)s: %(name)s does not sit at this table.")
                        % {"t": number, "name": _label(next(p for p in participants if p.pk == pid))}
                    )
    if errors:
        raise UltiError(errors)
    return upload_round(
        rnd, results, user=user, source=Source.CSV, note=note, file_name=file_name, raw=text, **resolution
    )


@transaction.atomic
def upload_table(
    table, forints: dict[int, int], *, user, source=Source.FORM, note="", **resolution
) -> RoundUpload:
    """One table's result (a score sheet): the round's next version, the other tables copied.

    ``resolution`` (decisions, reasons, based_on): the director's choice on the decisions in force on
    this table (see ``_write``)."""
    rnd = table.round
    _lock(rnd.event_id)
    rnd = Round.objects.select_related("group__stage").get(pk=rnd.pk)
    if not rnd.is_published:
        raise UltiError(_("Round %(n)s is not published yet.") % {"n": rnd.number})
    tables = _tables(rnd)
    number = str(table.number)
    errors = check_table(number, tables[number][1], forints, unit_of(rnd))
    if errors:
        raise UltiError(errors)
    latest = loading.latest_uploads([rnd]).get(rnd.pk)
    kept = [
        (line.table, line.participant_id, line.forint)
        for line in (latest.lines.select_related("table") if latest else [])
        if line.table_id != table.pk
    ]
    lines = kept + [(table, pid, forint) for pid, forint in forints.items()]
    return _write(rnd, lines, user=user, source=source, note=note, covered={table.pk}, **resolution)
