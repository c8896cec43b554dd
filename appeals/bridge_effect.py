"""The bridge handler of `appeals.effects`: a decision becomes a new result version of the pairs session.

`bridge.services.adjustments.apply_ruling` writes the version (the other results copied) and the recompute
follows after the commit: standings, then masterpoints through `rankings.services.results_changed`. A ruling
the bridge layer refuses (an unknown pair, an impossible score) refuses the publication with its reason.
"""

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _


def apply_bridge_decision(decision):
    from bridge.models import PairSession
    from bridge.scoring.adjusted import Penalty
    from bridge.services.adjustments import RulingError, apply_ruling

    appeal = decision.appeal
    session = PairSession.objects.filter(announced_id=appeal.session_id).select_related("event").first()
    if session is None:
        raise ValidationError(
            _("The results of %(session)s are not in the portal: the decision cannot change them.")
            % {"session": appeal.session}
        )
    reason = f"{appeal.reference}: {decision.text}"[:500]
    penalties = []
    if decision.penalty_percent:
        penalties.append(
            Penalty(decision.penalty_pair, decision.penalty_percent, decision.penalty_board, reason)
        )
    if decision.point_deduction_percent:
        penalties.append(Penalty(appeal.appellant_pair, decision.point_deduction_percent, None, reason))
    table = decision.changes_score
    try:
        version = apply_ruling(
            session,
            decision.board_number if table else None,
            decision.ns_pair if table else None,
            decision.ew_pair if table else None,
            artificial=(decision.artificial or None) if table else None,
            score=decision.ns_score if table else None,
            penalties=penalties,
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
    from bridge.models import PairSession, SessionPair
    from bridge.scoring.adjusted import Penalty
    from bridge.services.adjustments import RulingError, apply_ruling
    from bridge.services.versions import latest_version

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
