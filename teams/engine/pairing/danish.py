"""Danish pairing (VSz 33): by the current ranking, 1 v 2, 3 v 4, ...; rematches are allowed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from teams.engine.options import merge_options
from teams.engine.pairing.byes import bye_candidates, bye_explanation
from teams.engine.pairing.pairings import (
    BYE,
    DANISH_REMATCH,
    RANKS,
    REMATCH,
    ROUND_DANISH,
    Note,
    Pairing,
    RoundPairing,
    number_tables,
)
from teams.engine.pairing.ranking import rank_for_pairing
from teams.engine.pairing.standing import TeamStanding

DANISH_DEFAULTS: Mapping[str, object] = {"tiebreak": "start_number"}


def pair_danish(teams: Iterable[TeamStanding], options: Mapping[str, object] | None = None) -> RoundPairing:
    opts = merge_options(DANISH_DEFAULTS, options)
    ranked = rank_for_pairing(teams, {"tiebreak": opts["tiebreak"]})
    if len(ranked) < 2:
        raise ValueError("pairing needs at least two teams")
    place = {team.team_id: i for i, team in enumerate(ranked, start=1)}
    pairings: list[Pairing] = []
    playing = ranked
    bye_team = None
    if len(ranked) % 2:
        bye_team = bye_candidates(ranked)[0]
        playing = [team for team in ranked if team is not bye_team]
    rematches = 0
    for home, away in zip(playing[::2], playing[1::2], strict=True):
        met = home.met()
        if away.team_id in met:
            rematches += 1
            pairings.append(
                Pairing(
                    None,
                    home.team_id,
                    away.team_id,
                    (REMATCH,),
                    Note.join(
                        [
                            Note(RANKS, home=place[home.team_id], away=place[away.team_id]),
                            Note(DANISH_REMATCH, round=met[away.team_id]),
                        ]
                    ),
                )
            )
        else:
            pairings.append(
                Pairing(
                    None,
                    home.team_id,
                    away.team_id,
                    (),
                    Note(RANKS, home=place[home.team_id], away=place[away.team_id]),
                )
            )
    if bye_team is not None:
        pairings.append(
            Pairing(None, bye_team.team_id, None, (BYE,), bye_explanation(bye_team, bye_team, ranked))
        )
    return RoundPairing(
        method="danish",
        pairings=number_tables(pairings),
        ranking=tuple(team.team_id for team in ranked),
        explanation=Note(ROUND_DANISH),
        rematches=rematches,
    )
