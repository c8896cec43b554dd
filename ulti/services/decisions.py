"""Decisions on a round's results as layers (see results.upload_decisions).

A decision is a version of the round with source correction, adjustment (the director's ruling or point
deduction) or appeal. Its delta is what it changed against the version before it: the forint lines of some
tables, and the point deductions it carries. A new upload (form, CSV, API, score sheet) covers a decision
when it gives one of those tables, or the table the deducted player sat at in that round; the stored
version is the upload with the kept decisions re-applied in order. A point deduction counts in the
standings until a later version of its round sets it aside.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from results.upload_decisions import DECISION_SOURCES, Action, described

from ..models import (
    ForintResult,
    Participant,
    PointDeduction,
    Round,
    RoundUpload,
    Seat,
    Table,
    UploadDecision,
)


@dataclass
class Delta:
    tables: dict[int, dict[int, int]] = field(default_factory=dict)  # table id -> participant id -> forint
    deductions: list[PointDeduction] = field(default_factory=list)
    deduction_tables: set[int] = field(default_factory=set)  # the tables the deducted players sat at

    def __bool__(self):
        return bool(self.tables) or bool(self.deductions)


def _lines(upload_id) -> dict[int, dict[int, int]]:
    out: dict[int, dict[int, int]] = {}
    for line in ForintResult.objects.filter(upload_id=upload_id):
        out.setdefault(line.table_id, {})[line.participant_id] = line.forint
    return out


def delta_of(decision: RoundUpload) -> Delta:
    before = RoundUpload.objects.filter(round_id=decision.round_id, number=decision.number - 1).first()
    new, old = _lines(decision.pk), _lines(before.pk) if before else {}
    deductions = list(decision.deductions.select_related("participant__person"))
    seats = Seat.objects.filter(
        table__round_id=decision.round_id, participant__in=[d.participant_id for d in deductions]
    )
    return Delta(
        tables={t: row for t, row in new.items() if old.get(t) != row},
        deductions=deductions,
        deduction_tables=set(seats.values_list("table_id", flat=True)),
    )


def in_force(rnd: Round) -> list[tuple[RoundUpload, Delta]]:
    """The round's decisions not set aside, oldest first, with what each changed (empty deltas left out)."""
    versions = (
        RoundUpload.objects.filter(round=rnd, source__in=DECISION_SOURCES)
        .exclude(later_actions__action=Action.SET_ASIDE)
        .select_related("uploaded_by")
        .order_by("number")
    )
    out = []
    for version in versions:
        delta = delta_of(version)
        if delta:
            out.append((version, delta))
    return out


def covers(tables: set[int], delta: Delta) -> bool:
    return bool(tables & (set(delta.tables) | delta.deduction_tables))


def _signed(value) -> str:
    return "—" if value is None else f"{value:+d}"


def describe(rnd: Round, decision: RoundUpload, delta: Delta, given: dict[int, dict[int, int]]) -> dict:
    """One affected decision as the director is shown it (JSON-ready); ``given``: the upload's lines."""
    out = described(decision)
    out["round"] = rnd.number
    tables = {t.pk: t for t in Table.objects.filter(pk__in=set(delta.tables) | delta.deduction_tables)}
    people = {
        p.pk: f"{p.number}. {p.person}"
        for p in Participant.objects.filter(
            pk__in={pid for row in delta.tables.values() for pid in row}
            | {d.participant_id for d in delta.deductions}
        ).select_related("person")
    }
    out["tables"] = sorted(tables[t].number for t in tables if t in given)
    out["players"] = sorted(set(people.values()))
    changes = []
    for table_id, row in sorted(delta.tables.items(), key=lambda item: tables[item[0]].number):
        if table_id not in given:
            continue
        for pid, forint in row.items():
            changes.append(
                {
                    "what": _("table %(t)s, %(name)s") % {"t": tables[table_id].number, "name": people[pid]},
                    "upload": _signed(given[table_id].get(pid)),
                    "decision": _signed(forint),
                }
            )
    for deduction in delta.deductions:
        changes.append(
            {
                "what": _("points deducted from %(name)s") % {"name": people[deduction.participant_id]},
                "upload": "—",
                "decision": _("%(points)s table points") % {"points": deduction.points},
            }
        )
    out["changes"] = changes
    return out


def record(upload: RoundUpload, actions: dict[int, tuple[str, str]], user) -> None:
    UploadDecision.objects.bulk_create(
        UploadDecision(upload=upload, decision_id=pk, action=action, reason=reason, decided_by=user)
        for pk, (action, reason) in sorted(actions.items())
    )


def carried_by(upload: RoundUpload):
    """What a version did with the decisions in force when it was written (for the round pages)."""
    return upload.decisions_recorded.select_related("decision__uploaded_by", "decided_by").order_by(
        "decision__number"
    )
