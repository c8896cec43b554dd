"""Danish-Swiss hybrid (VSz 33): Swiss pairing for the first n rounds, Danish from then on.

VSz 33 leaves n to the organiser "depending on the number of teams".  When the announcement does not
state it, `suggested_swiss_rounds` proposes ceil(log2(teams)): about as many rounds as a Swiss needs to
separate the field, after which Danish lets the leaders play each other.  It keeps at least one Swiss
round, never more than teams - 1 (beyond that a rematch-free round may not exist), and, when the event
length is known, leaves at least two Danish rounds at the end if the event has room for them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from teams.engine.options import merge_options
from teams.engine.pairing.danish import pair_danish
from teams.engine.pairing.pairings import (
    HOW_ANNOUNCED,
    HOW_SUGGESTED,
    HYBRID_DANISH,
    HYBRID_SWISS,
    Note,
    RoundPairing,
)
from teams.engine.pairing.standing import TeamStanding
from teams.engine.pairing.swiss import SWISS_DEFAULTS, pair_swiss

HYBRID_DEFAULTS: Mapping[str, object] = {
    **SWISS_DEFAULTS,
    "swiss_rounds": None,  # n as announced; None: suggested from the field size
    "total_rounds": None,  # the event length, used only for the suggestion
}


def suggested_swiss_rounds(n_teams: int, total_rounds: int | None = None) -> int:
    if n_teams < 2:
        raise ValueError("a team event needs at least two teams")
    rounds = max(1, math.ceil(math.log2(n_teams)))
    rounds = min(rounds, n_teams - 1)
    if total_rounds is not None:
        if total_rounds < 1:
            raise ValueError("total_rounds must be positive")
        rounds = min(rounds, max(1, total_rounds - 2))
    return rounds


def pair_danish_swiss(
    teams: Iterable[TeamStanding], round_no: int, options: Mapping[str, object] | None = None
) -> RoundPairing:
    """Pair round `round_no` (1-based): Swiss while round_no <= n, Danish after."""
    opts = merge_options(HYBRID_DEFAULTS, options)
    teams = list(teams)
    if round_no < 1:
        raise ValueError("rounds are numbered from 1")
    swiss_rounds = opts["swiss_rounds"]
    suggested = swiss_rounds is None
    if suggested:
        swiss_rounds = suggested_swiss_rounds(len(teams), opts["total_rounds"])
    how = Note(HOW_SUGGESTED if suggested else HOW_ANNOUNCED)
    if round_no <= int(swiss_rounds):
        swiss_opts = {key: opts[key] for key in SWISS_DEFAULTS}
        result = pair_swiss(teams, swiss_opts)
        method = "danish_swiss:swiss"
        note = Note(HYBRID_SWISS, round=round_no, swiss=swiss_rounds, how=how)
    else:
        result = pair_danish(teams, {"tiebreak": opts["tiebreak"]})
        method = "danish_swiss:danish"
        note = Note(HYBRID_DANISH, round=int(swiss_rounds) + 1, how=how)
    return RoundPairing(
        method=method,
        pairings=result.pairings,
        ranking=result.ranking,
        flags=result.flags,
        explanation=Note.join([note, result.explanation], sep=". "),
        rematches=result.rematches,
        round_no=round_no,
        extra={"swiss_rounds": int(swiss_rounds)},
    )
