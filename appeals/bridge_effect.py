"""The bridge handler of `appeals.effects`: a decision becomes a new result version of the pairs session.

`bridge.services.adjustments.apply_ruling` writes the version (the other results copied) and the recompute
follows after the commit: standings, then masterpoints through `rankings.services.results_changed`. A ruling
the bridge layer refuses (an unknown pair, an impossible score) refuses the publication with its reason.
`check_bridge_decision` is the same ruling's dry run (`check_ruling`): the panel's proposal is checked with
it, and so is the publication, under the results' lock, just before the write.
"""

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import Q
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from bridge.engine.scoring.adjusted import Penalty
from bridge.models import PairSession, SessionPair
from bridge.services import versions
from bridge.services.adjustments import (
    RulingCheckError,
    RulingError,
    _pair,
    apply_ruling,
    check_ruling,
    session_boards,
)
from bridge.services.versions import latest_version

# The bridge ruling's arguments -> the decision's fields, for the errors of `check_ruling`.
_FIELDS = {"board": "board_number", "ns_pair": "ns_pair", "ew_pair": "ew_pair", "artificial": "artificial"}
_FIELDS.update(score="ns_score", session=NON_FIELD_ERRORS)
_PENALTY_FIELDS = {"pair": "penalty_pair", "percent": "penalty_percent", "board": "penalty_board"}


def _session_of(decision):
    appeal = decision.appeal
    session = PairSession.objects.filter(announced_id=appeal.session_id).select_related("event").first()
    if session is None:
        raise ValidationError(
            _("The results of %(session)s are not in the portal: the decision cannot change them.")
            % {"session": appeal.session}
        )
    return session


def _ruling(decision):
    """(session, the arguments of the bridge ruling, the decision field of each penalty)."""
    appeal = decision.appeal
    session = _session_of(decision)
    reason = f"{appeal.reference}: {decision.text}"[:500]
    penalties, owners = [], []
    if decision.penalty_percent:
        penalties.append(
            Penalty(decision.penalty_pair, decision.penalty_percent, decision.penalty_board, reason)
        )
        owners.append(None)
    if decision.point_deduction_percent:
        penalties.append(Penalty(appeal.appellant_pair, decision.point_deduction_percent, None, reason))
        owners.append("point_deduction_percent")
    table = decision.changes_score
    args = dict(
        board_number=decision.board_number if table else None,
        ns_pair=decision.ns_pair if table else None,
        ew_pair=decision.ew_pair if table else None,
        artificial=(decision.artificial or None) if table else None,
        score=decision.ns_score if table else None,
        penalties=penalties,
    )
    return session, args, owners, reason


def _field(key, owners):
    if key.startswith("penalties."):
        _prefix, index, part = key.split(".")
        return owners[int(index)] or _PENALTY_FIELDS[part]
    return _FIELDS.get(key, NON_FIELD_ERRORS)


def check_bridge_decision(decision):
    """The dry run of the bridge ruling (`bridge.services.adjustments.check_ruling`) for a decision: a
    ValidationError by the decision's fields (board, pairs, score, penalty), nothing written."""
    session, args, owners, _reason = _ruling(decision)
    try:
        check_ruling(session, **args)
    except RulingCheckError as error:
        fields = {}
        for key, messages in error.errors.items():
            fields.setdefault(_field(key, owners), []).extend(capfirst(m) for m in messages)
        raise ValidationError(fields)


def check_bridge_filing(session, entry, board_number, pairs):
    """An appeal's board and pair numbers against the session's results, once they are in the portal: the
    board was played, each pair plays in the session, the appellant's pair is the appellant's. Before the
    results are uploaded nothing is checked (the panel's proposal is, later)."""
    found = PairSession.objects.filter(announced_id=session.pk).first()
    if found is None or latest_version(found) is None:
        return
    errors = {}
    if board_number not in session_boards(found):
        errors["board_number"] = [
            _("Board %(board)s was not played in %(session)s.") % {"board": board_number, "session": session}
        ]
    for field, label in pairs.items():
        if not str(label or "").strip():
            continue
        try:
            seat = _pair(found, label)
        except RulingError as error:
            errors[field] = [capfirst(str(error))]
            continue
        if field == "appellant_pair" and seat.pair.entry_id != entry.pk:
            errors[field] = [_("Pair %(pair)s is not your pair.") % {"pair": label}]
    if errors:
        raise ValidationError(errors)


def apply_bridge_decision(decision):
    session, args, _owners, reason = _ruling(decision)
    versions.lock_event(session.event_id)  # the results cannot change between the check and the write
    check_bridge_decision(decision)
    try:
        version = apply_ruling(
            session,
            args.pop("board_number"),
            args.pop("ns_pair"),
            args.pop("ew_pair"),
            **args,
            reason=reason,
            user=decision.published_by,
            source="appeal",
        )
    except RulingError as error:
        raise ValidationError(_("The results refuse the decision: %(error)s") % {"error": error})
    return str(version)


def apply_bridge_measure(measure):
    """The director's point deduction (VSz 23, 32): a session-total procedural penalty in percent of the top,
    taken from the pair the player plays in, in the session the measure names (else the latest session with
    results); a new version by the director (source "adjustment"), the measure's reason as its note."""
    sessions = PairSession.objects.filter(event_id=measure.event_id).select_related("event")
    if measure.session_id:
        sessions = sessions.filter(announced_id=measure.session_id)
    session = next((s for s in sessions.order_by("-number") if latest_version(s) is not None), None)
    if session is None:
        raise ValidationError(
            _("The results of this session are not in the portal yet: the points cannot be deducted.")
        )
    person = measure.person_id
    pair = (
        SessionPair.objects.filter(section__session=session)
        .filter(
            Q(pair__player1_id=person)
            | Q(pair__player2_id=person)
            | Q(pair__entry__members__person_id=person)
        )
        .select_related("section")
        .distinct()
        .first()
    )
    if pair is None:
        raise ValidationError(
            _("%(person)s has no pair in the results of %(session)s.")
            % {"person": measure.person, "session": session}
        )
    reason = f"{measure.get_kind_display()}: {measure.reason}"[:500]
    try:
        version = apply_ruling(
            session,
            None,
            penalties=[Penalty(pair.code, measure.percent, None, reason)],
            reason=reason,
            user=measure.taken_by,
            source="adjustment",
        )
    except RulingError as error:
        raise ValidationError(_("The results refuse the deduction: %(error)s") % {"error": error})
    return str(version)
