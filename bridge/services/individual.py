"""Bridge individual events: the players' numbers, the upload of their results as a new version, the
recompute of the standings and the publication.

`bridge.services.uploads.submit` is the one seam pages and the API call: given an `IndividualEvent` it
hands over to `submit` here. A file (CSV or PBN with player numbers, `engine.individual_readers`) is read
whole, checked against the event (players known, nobody twice on a board, a table once per board, the
results scoreable by `engine.individual`) and only then written as an append-only `IndividualVersion`
with its `IndividualResult` rows: any error names the line, board and table, and writes nothing. The
recompute (`recompute_event`, the task `bridge.tasks.recompute_individual_results`) rebuilds the
standings and the board scores from the latest version under the event's lock, stamped with that
version.

Corrections, adjusted (artificial or assigned) scores and appeal decisions (`apply_decision`) are versions
too, with who, when and why, layered exactly like the pairs' (`bridge.services.decisions`): an upload
re-applies every decision in force on top of its rows, carries those it does not touch and stops with
`decisions.DecisionsPending` on one it does until the director keeps, re-confirms or sets it aside.
"""

import hashlib

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bridge.engine.csv_upload import CsvError, Problem, result_of
from bridge.engine.individual import Deal, IndividualError, score_individual
from bridge.engine.individual_readers import IndividualRow, read_csv, read_pbn, with_tables
from bridge.engine.pbn.games import PbnError
from bridge.engine.scoring.adjusted import ArtificialScore
from bridge.engine.scoring.contract import board_vulnerability, is_possible_score, vulnerable_sides
from rankings.services.event_results import results_changed
from results import services as results_services
from results.models import RecomputeState, VersionedUpload
from results.tasks import request_recompute
from results.upload_input import read_upload_text

from ..models import (
    IndividualBoardScore,
    IndividualEvent,
    IndividualPlayer,
    IndividualResult,
    IndividualStanding,
    IndividualSubstitution,
    IndividualVersion,
)
from . import INDIVIDUAL_SCOPE, decisions
from .upload_errors import UploadError, explain

Source = VersionedUpload.Source
CSV, PBN = "csv", "pbn"
ROW_FIELDS = decisions.INDIVIDUAL_ROW_FIELDS  # board, table, the four players, the result


class IndividualSetupError(Exception):
    pass


# --- setup --------------------------------------------------------------------------------------------


def setup_for(event) -> IndividualEvent:
    """The event's individual scoring row (created with the defaults on first use)."""
    individual, _created = IndividualEvent.objects.get_or_create(event=event)
    return individual


def seat_entries(event) -> list[IndividualPlayer]:
    """Number the event's active one-player entries 1, 2, ... (in entry order) when nobody is numbered yet;
    the numbers already given are kept."""
    players = list(IndividualPlayer.objects.filter(event=event))
    if players:
        return players
    entries = event.entries.filter(status="active").order_by("pk").prefetch_related("members")
    created = []
    for number, entry in enumerate(entries, start=1):
        member = next(iter(entry.members.all()), None)
        created.append(
            IndividualPlayer(event=event, number=number, entry=entry, person=member and member.person)
        )
    return IndividualPlayer.objects.bulk_create(created)


# --- upload -------------------------------------------------------------------------------------------


def file_kind(name: str) -> str:
    return CSV if name.lower().endswith(".csv") else PBN


def parse(kind: str, text: str) -> tuple[list[IndividualRow], dict[int, str]]:
    """The file's rows and deals, or UploadError naming the line."""
    try:
        parsed = read_csv(text) if kind == CSV else read_pbn(text)
    except CsvError as error:
        raise UploadError(
            [_("line %(line)s: %(message)s") % {"line": error.line, "message": explain(error.problem)}]
        )
    except PbnError as error:
        raise UploadError([_("line %(line)s: %(message)s") % {"line": error.line, "message": error.message}])
    return with_tables(parsed.rows), parsed.deals


def check(individual: IndividualEvent, rows: list[IndividualRow]) -> list[str]:
    """Every problem of the rows against the event, each naming its line, board and table."""
    errors = []
    known = set(IndividualPlayer.objects.filter(event=individual.event).values_list("number", flat=True))
    tables: dict[tuple[int, int], int] = {}
    for row in rows:
        where = _("line %(line)s, board %(board)s, table %(table)s") % {
            "line": row.line,
            "board": row.board,
            "table": row.table,
        }
        if known:
            for player in row.players:
                if player not in known:
                    errors.append(
                        _("%(where)s: player %(player)s has no number in this event")
                        % {"where": where, "player": player}
                    )
        first = tables.setdefault((row.board, row.table), row.line)
        if first != row.line:
            errors.append(
                _("%(where)s: the table already has a result on this board (line %(first)s)")
                % {"where": where, "first": first}
            )
    if not errors:
        try:
            score(individual, rows)
        except IndividualError as error:
            errors.append(explain(error.problem))
        except ValueError as error:
            errors.append(str(error))
    return errors


def deals_of(rows) -> list[Deal]:
    """Engine input from stored or parsed rows (objects or dicts with ROW_FIELDS)."""

    def get(row, name):
        return row[name] if isinstance(row, dict) else getattr(row, name)

    out = []
    for row in rows:
        line = get(row, "line") if not isinstance(row, dict) and hasattr(row, "line") else None
        artificial = get(row, "artificial")
        out.append(
            Deal(
                get(row, "board"),
                get(row, "north"),
                get(row, "south"),
                get(row, "east"),
                get(row, "west"),
                get(row, "score") if not artificial else None,
                ArtificialScore.parse(artificial) if artificial else None,
                table=get(row, "table"),
                where=(_("line %(line)s") % {"line": line}) if line else "",
            )
        )
    return out


def score(individual: IndividualEvent, rows):
    return score_individual(deals_of(rows), scale=individual.scale, rounding=individual.rounding)


def submit(
    individual: IndividualEvent,
    kind: str,
    *,
    user,
    file=None,
    text: str | None = None,
    file_name: str = "",
    note: str = "",
    resolutions: dict | None = None,
    reasons: dict | None = None,
    expected_base: int | None = None,
    dry_run: bool = False,
) -> IndividualVersion:
    """The event's results from a CSV or PBN file (or its text already read) as a new version; UploadError
    (nothing written) when anything is wrong. Called through `bridge.services.uploads.submit`.

    The decisions in force are re-applied on the file's rows (`decisions.settle`, the pairs' own): one the
    file touches needs the director's `resolutions` (decision version id -> keep, reconfirm, set_aside)
    and `reasons`; without them `decisions.DecisionsPending` is raised (its `submission` is what to keep to
    resume) and nothing is written; `dry_run` only asks."""
    if file is not None:
        text = read_upload_text(file)
        file_name = file_name or file.name
    if kind not in (CSV, PBN):
        raise UploadError([_("an individual event takes a CSV or PBN file")])
    parsed, deals = parse(kind, text or "")
    submission = {"kind": kind, "text": text or "", "note": note, "file_name": file_name}
    with transaction.atomic():
        event_version = results_services.mark_uploaded(individual.event_id, INDIVIDUAL_SCOPE)
        if not IndividualPlayer.objects.filter(event=individual.event).exists():
            seat_entries(individual.event)
        errors = check(individual, parsed)
        if errors:
            raise UploadError(errors)  # rolls back the version count with the rest
        _add_missing_players(individual, parsed)
        base = latest_version(individual.event)
        rows = [{f: _value(row, f) for f in ROW_FIELDS} for row in parsed]
        try:
            settled = decisions.settle(
                base,
                rows,
                [],
                fresh=rows,
                resolutions=resolutions,
                reasons=reasons,
                expected_base=expected_base,
                dry_run=dry_run,
            )
        except decisions.ResolutionError as error:
            raise UploadError(error.messages)
        except decisions.DecisionsPending as pending:
            pending.submission, pending.warnings = submission, []
            raise
        _check_scoreable(individual, settled.rows)
        merged = {int(k): v for k, v in (base.deals if base else {}).items()}
        merged.update(deals)
        version = _write_version(
            individual,
            settled.rows,
            source=Source.CSV if kind == CSV else Source.PBN,
            user=user,
            note=note,
            file_name=file_name,
            raw=text or "",
            deals=merged,
            base=base,
            event_version=event_version,
        )
        decisions.record(version, settled)
    return version


def _check_scoreable(individual: IndividualEvent, rows: list[dict]) -> None:
    try:
        score(individual, rows)
    except IndividualError as error:
        raise UploadError([explain(error.problem)])
    except ValueError as error:
        raise UploadError([str(error)])


def _write_version(
    individual: IndividualEvent,
    rows: list[dict],
    *,
    source: str,
    user,
    note: str = "",
    file_name: str = "",
    raw: str = "",
    deals: dict | None = None,
    base: IndividualVersion | None = None,
    event_version: int | None = None,
) -> IndividualVersion:
    """Append a version holding `rows` (dicts of ROW_FIELDS) and queue the recompute for after the commit;
    the caller holds the event's lock (`mark_uploaded`, whose count it passes as `event_version`)."""
    if event_version is None:
        event_version = results_services.mark_uploaded(individual.event_id, INDIVIDUAL_SCOPE)
    version = IndividualVersion.objects.create(
        event=individual.event,
        number=results_services.next_version_number(IndividualVersion, event=individual.event),
        source=source,
        uploaded_by=user,
        note=note[:500],
        file_name=file_name[:200],
        sha256=hashlib.sha256(raw.encode()).hexdigest() if raw else "",
        raw=raw,
        deals={str(board): deal for board, deal in (deals or {}).items()},
        base=base,
        event_version=event_version,
    )
    IndividualResult.objects.bulk_create(
        [
            IndividualResult(
                version=version,
                **{f: (row.get(f) or "") if f in TEXT_FIELDS else row.get(f) for f in ROW_FIELDS},
            )
            for row in rows
        ]
    )
    request_recompute(INDIVIDUAL_SCOPE, individual.event_id)
    return version


# --- the director's decisions -------------------------------------------------------------------------

TEXT_FIELDS = ("contract", "declarer", "lead", "artificial")
DECISION_SOURCES = (Source.CORRECTION, Source.ADJUSTMENT, Source.APPEAL)


class DecisionError(ValueError):
    pass


def find_row(rows: list[dict], board: int, table: int) -> dict | None:
    return next((r for r in rows if r["board"] == board and r["table"] == table), None)


def apply_decision(
    individual: IndividualEvent,
    board: int,
    table: int,
    *,
    source: str,
    reason: str,
    user,
    contract: str = "",
    declarer: str = "",
    lead: str = "",
    result: str = "",
    score: str = "",
) -> IndividualVersion:
    """One table's result on a board corrected (source "correction": a clerical error, VSz 12), adjusted
    (source "adjustment": an artificial score "A+", "A", "A-", "A+/A-" or an assigned N-S score, VSz 29)
    or set by an appeal decision ("appeal"), as a new version made on the latest one, with who and why.
    The other results are copied; the decision stays in force through later uploads (`submit`). Checked
    whole first (DecisionError, nothing written): the table played the board, the result is one the
    traveller accepts (Hungarian notation too), an assigned score is one a contract can make."""
    if source not in DECISION_SOURCES:
        raise DecisionError(_("a decision's source is correction, adjustment or appeal"))
    reason = (reason or "").strip()
    if not reason:
        raise DecisionError(_("give the reason for the decision"))
    with transaction.atomic():
        event_version = results_services.mark_uploaded(individual.event_id, INDIVIDUAL_SCOPE)
        base = latest_version(individual.event)
        rows = decisions.rows_of(base)
        row = find_row(rows, board, table)
        if row is None:
            raise DecisionError(
                _("table %(table)s has no result on board %(board)s") % {"table": table, "board": board}
            )
        try:
            contract, declarer, lead, tricks, new_score, artificial = result_of(
                board, str(row["north"]), str(row["east"]), contract, declarer, lead, result, str(score)
            )
        except Problem as problem:
            raise DecisionError(_("Board %(board)s: %(error)s") % {"board": board, "error": explain(problem)})
        if artificial and source == Source.CORRECTION:
            raise DecisionError(_("Artificial scores are the director's to give."))
        if new_score is not None and not is_possible_score(
            new_score, *vulnerable_sides(board_vulnerability(board))
        ):
            raise DecisionError(
                _("no contract scores %(score)s on board %(board)s") % {"score": new_score, "board": board}
            )
        new = dict(
            contract=contract,
            declarer=declarer,
            lead=lead,
            tricks=tricks,
            score=new_score,
            artificial=artificial,
        )
        if all(row[k] == v for k, v in new.items()):
            raise DecisionError(_("The requested result is the one already recorded."))
        row.update(new)
        try:
            _check_scoreable(individual, rows)
        except UploadError as error:
            raise DecisionError("; ".join(error.messages))
        return _write_version(
            individual,
            rows,
            source=source,
            user=user,
            note=_("board %(board)s, table %(table)s: %(reason)s")
            % {"board": board, "table": table, "reason": reason},
            deals=base.deals,
            base=base,
            event_version=event_version,
        )


def _value(row, name):
    value = getattr(row, name)
    return "" if value is None and name in ("contract", "declarer", "lead", "artificial") else value


def _add_missing_players(individual: IndividualEvent, rows) -> None:
    """An event with nobody entered (a club's quick individual): the file's numbers become its players."""
    if IndividualPlayer.objects.filter(event=individual.event).exists():
        return
    numbers = sorted({p for row in rows for p in row.players})
    IndividualPlayer.objects.bulk_create(
        [IndividualPlayer(event=individual.event, number=n) for n in numbers]
    )


def latest_version(event) -> IndividualVersion | None:
    return IndividualVersion.objects.filter(event=event).order_by("-number").first()


# --- recompute ----------------------------------------------------------------------------------------


def recompute_event(event_id: int) -> dict:
    """Rebuild the board scores and standings from the latest version (idempotent, serialised per event)."""
    with results_services.recompute(event_id, INDIVIDUAL_SCOPE) as state:
        if state.computed_version >= state.latest_version:  # already current: a duplicate run
            return {"event": event_id, "version": None, "skipped": True}
        version = IndividualVersion.objects.filter(event_id=event_id).order_by("-number").first()
        IndividualBoardScore.objects.filter(event_id=event_id).delete()
        IndividualStanding.objects.filter(event_id=event_id).delete()
        if version is None:
            return {"event": event_id, "version": None}
        individual = IndividualEvent.objects.get(event_id=event_id)
        rows = list(version.results.order_by("board", "table", "pk").values(*ROW_FIELDS))
        scored = score(individual, rows)
        _write(event_id, version.number, rows, scored)
    results_changed(event_id)
    return {"event": event_id, "version": version.number, "players": len(scored.players)}


def _write(event_id: int, number: int, rows: list[dict], scored) -> None:
    by_key = {(row["board"], row["table"], row["north"]): row for row in rows}
    board_rows = []
    for board, deals in scored.boards.items():
        for s in deals:
            row = by_key[(board, s.deal.table, s.deal.north)]
            board_rows.append(
                IndividualBoardScore(
                    event_id=event_id,
                    version=number,
                    **{f: row[f] for f in ROW_FIELDS},
                    mp_ns=s.mp_ns,
                    mp_ew=s.mp_ew,
                    pct_ns=s.pct_ns,
                    pct_ew=s.pct_ew,
                )
            )
    IndividualBoardScore.objects.bulk_create(board_rows)
    players = {p.number: p for p in IndividualPlayer.objects.filter(event_id=event_id)}
    standings = []
    for rank, placed in enumerate(scored.ranking, start=1):
        total = scored.players[int(placed.pair)]
        standings.append(
            IndividualStanding(
                event_id=event_id,
                player=players[total.player],
                version=number,
                place=placed.place,
                rank=rank,
                total=total.total,
                top=total.top,
                percentage=total.percentage,
                boards=total.boards,
            )
        )
    IndividualStanding.objects.bulk_create(standings)


def record_failure(event_id: int, message: str) -> None:
    RecomputeState.objects.filter(event_id=event_id, scope=INDIVIDUAL_SCOPE).update(error=message[:2000])


# --- substitutes (VSz 25) -----------------------------------------------------------------------------


def boards_played(event, number: int) -> set[int]:
    """The boards player `number` has a result on in the latest version."""
    rows = decisions.rows_of(latest_version(event))
    return {r["board"] for r in rows if number in (r["north"], r["south"], r["east"], r["west"])}


def record_substitution(
    individual: IndividualEvent, number: int, substitute, boards: list[int], user, note: str = ""
) -> IndividualSubstitution:
    """VSz 25: a substitute (a Person) approved by the director played `boards` under player `number`.
    Who keeps the masterpoints and prizes is the pairs' rule (`roster.player_rights`, read by the
    masterpoint source). Refused (ValueError, nothing written): an unknown number or one with nobody
    recorded, a substitute who plays in the event or already substituted for another number, boards
    the number did not play, boards another substitute already played for him."""
    event = individual.event
    with transaction.atomic():
        results_services.lock_state(event.pk, INDIVIDUAL_SCOPE)
        player = IndividualPlayer.objects.filter(event=event, number=number).first()
        if player is None or player.person_id is None:
            raise ValueError(_("player %(number)s has nobody recorded in this event") % {"number": number})
        if IndividualPlayer.objects.filter(event=event, person=substitute).exists():
            raise ValueError(
                _("%(person)s plays in this event and cannot be a substitute in it (VSz 25)")
                % {"person": substitute}
            )
        others = IndividualSubstitution.objects.filter(event=event, substitute=substitute).exclude(
            player=player
        )
        if others.exists():
            raise ValueError(
                _("%(person)s already substituted for another player in this event (VSz 25)")
                % {"person": substitute}
            )
        boards = sorted(set(boards))
        unplayed = sorted(set(boards) - boards_played(event, number))
        if unplayed:
            raise ValueError(
                _("player %(number)s has no result on boards %(boards)s")
                % {"number": number, "boards": ", ".join(map(str, unplayed))}
            )
        for other in IndividualSubstitution.objects.filter(player=player).exclude(substitute=substitute):
            shared = sorted(set(other.boards) & set(boards))
            if shared:
                raise ValueError(
                    _("%(other)s already played boards %(boards)s for player %(number)s")
                    % {"other": other.substitute, "boards": ", ".join(map(str, shared)), "number": number}
                )
        sub = IndividualSubstitution.objects.create(
            event=event,
            player=player,
            substitute=substitute,
            boards=boards,
            recorded_by=user,
            note=note[:300],
        )
    results_changed(event.pk)
    return sub


# --- publication --------------------------------------------------------------------------------------


def publish(individual: IndividualEvent, user) -> IndividualEvent:
    with transaction.atomic():
        individual = IndividualEvent.objects.select_for_update().get(pk=individual.pk)
        if individual.published_at is not None:
            return individual
        if latest_version(individual.event) is None:
            raise IndividualSetupError(_("there are no results to publish"))
        individual.published_at = timezone.now()
        individual.published_by = user
        individual.save(update_fields=["published_at", "published_by"])
        results_changed(individual.event_id)
    return individual


def published_events():
    return IndividualEvent.objects.filter(published_at__isnull=False).values("event_id")
