"""The ulti handler of `appeals.effects`: a decision becomes a new result version of the ulti round.

The decision names the round and the table and gives the table's corrected forints by start number;
`ulti.services.adjustments.apply_ruling` writes the round's next version (the other tables copied) and the
recompute follows after the commit: table points and standings, then the rankings. A ruling the ulti
results refuse (no such table, a player who does not sit there, forints that do not sum to zero) refuses
the publication with its reason, naming the table; nothing is written then. `check_ulti_decision` is the same
ruling's dry run (`check_ruling`), by the decision's fields: the panel's proposal is checked with it.

A point deduction (the director's measure, or a frivolous appeal's punishment in table points) becomes the
round's next version carrying it (`ulti.services.adjustments.deduct_points`), and the standings subtract it.
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ulti.models import Participant, Table
from ulti.services import UltiError
from ulti.services.adjustments import apply_ruling, check_ruling, deduct_points


def _round_and_table(event, round_number, table_number, numbers):
    """The round and table the decision means; with several stages or groups, the one seating `numbers`."""
    tables = list(
        Table.objects.filter(
            round__group__stage__event=event, round__number=round_number, number=table_number
        )
        .select_related("round__group__stage")
        .prefetch_related("seats__participant")
        .order_by("-round__group__stage__number", "round__group__order")
    )
    if not tables:
        raise ValidationError(
            _("Round %(r)s has no table %(t)s in the results of this event: the decision cannot change them.")
            % {"r": round_number, "t": table_number}
        )
    for table in tables:
        if {str(s.participant.number) for s in table.seats.all()} == numbers:
            return table
    if len(tables) == 1:
        return tables[0]
    raise ValidationError(
        _("Round %(r)s, table %(t)s: the start numbers %(numbers)s do not sit together at one table.")
        % {"r": round_number, "t": table_number, "numbers": ", ".join(sorted(numbers, key=int))}
    )


def _participant(event, people, prefer=None):
    """The participant of the event's latest stage among ``people`` (prefer ``prefer`` when several)."""
    found = list(
        Participant.objects.filter(stage__event=event, person__in=people)
        .select_related("stage", "group", "person")
        .order_by("-stage__number")
    )
    if found:
        latest = [p for p in found if p.stage_id == found[0].stage_id]
        chosen = next((p for p in latest if p.person_id == prefer), None) if prefer else None
        if chosen is not None or len(latest) == 1:
            return chosen or latest[0]
    raise ValidationError(
        _("The player to deduct points from is not among the participants of this event's results.")
    )


def _deduct(participant, points, reason, user, source):
    try:
        return deduct_points(participant, points, reason=reason, user=user, source=source)
    except UltiError as error:
        raise ValidationError(_("The results refuse the deduction: %(error)s") % {"error": error})


def apply_ulti_measure(measure):
    """The director's point deduction at an ulti event: table points off the player's total from the latest
    round he played, as the round's next version by the director (source "adjustment")."""
    participant = _participant(measure.event, [measure.person_id])
    reason = f"{measure.get_kind_display()}: {measure.reason}"[:500]
    return str(_deduct(participant, measure.points, reason, measure.taken_by, "adjustment"))


def apply_ulti_decision(decision):
    appeal = decision.appeal
    versions = []
    if decision.ulti_forints:
        versions.append(_apply_table(decision))
    if decision.point_deduction_points:
        # A frivolous appeal (VSz 22 by analogy): table points off the appellant, the filer when a team.
        participant = _appellant(decision)
        reason = f"{appeal.reference}: {decision.text}"[:500]
        versions.append(
            str(
                _deduct(participant, decision.point_deduction_points, reason, decision.published_by, "appeal")
            )
        )
    return ", ".join(versions)


def _appellant(decision):
    """The participant a frivolous appeal's table points are taken from (the filer when a team)."""
    appeal = decision.appeal
    people = list(appeal.entry.members.values_list("person_id", flat=True))
    filer = getattr(appeal.filed_by, "person", None)
    return _participant(appeal.event, people, prefer=filer.pk if filer else None)


def _table_and_forints(decision):
    """The table the decision names and its forints by participant; a ValidationError by field otherwise."""
    appeal = decision.appeal
    forints = {str(k).strip(): v for k, v in (decision.ulti_forints or {}).items()}
    try:
        table = _round_and_table(appeal.event, decision.ulti_round, decision.ulti_table, set(forints))
    except ValidationError as error:
        raise ValidationError({"ulti_table": error.messages})
    seated = {str(s.participant.number): s.participant for s in table.seats.all()}
    unknown = sorted(set(forints) - set(seated), key=lambda n: (len(n), n))
    if unknown:
        raise ValidationError(
            {
                "ulti_forints": _("Table %(t)s: start number %(numbers)s does not sit at this table.")
                % {"t": table.number, "numbers": ", ".join(unknown)}
            }
        )
    return table, {seated[n]: v for n, v in forints.items()}


def check_ulti_decision(decision):
    """The dry run of the ulti ruling (`ulti.services.adjustments.check_ruling`) for a decision: a
    ValidationError by the decision's fields (round and table, forints, table points), nothing written."""
    errors = {}
    if decision.ulti_forints:
        try:
            table, forints = _table_and_forints(decision)
            check_ruling(table.round, table, forints=forints)
        except ValidationError as error:
            errors.update(error.message_dict)
        except UltiError as error:
            errors["ulti_forints"] = error.messages
    if decision.point_deduction_points:
        try:
            _appellant(decision)
        except ValidationError as error:
            errors["point_deduction_points"] = error.messages
    if errors:
        raise ValidationError(errors)


def _apply_table(decision):
    appeal = decision.appeal
    table, forints = _table_and_forints(decision)
    reason = f"{appeal.reference}: {decision.text}"[:500]
    try:
        version = apply_ruling(
            table.round,
            table,
            forints=forints,
            reason=reason,
            user=decision.published_by,
            source="appeal",
        )
    except UltiError as error:
        raise ValidationError(_("The results refuse the decision: %(error)s") % {"error": error})
    return str(version)
