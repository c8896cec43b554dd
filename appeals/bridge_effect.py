"""The bridge handler of `appeals.effects`: a decision becomes a new result version of the pairs session.

`bridge.services.adjustments.apply_ruling` writes the version (the other results copied) and the recompute
follows after the commit: standings, then masterpoints through `rankings.services.results_changed`. A ruling
the bridge layer refuses (an unknown pair, an impossible score) refuses the publication with its reason.
"""

from django.core.exceptions import ValidationError
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
