"""Round one (VSz 33): by draw or by seeding (first v last, second v second-last, ...).

The draw is a permutation derived from a fresh secret seed (the same HMAC construction as the dealer),
so the seed recorded with the round lets anyone replay the draw and check it was not arranged.
"""

from __future__ import annotations

import secrets
from collections.abc import Hashable, Mapping, Sequence

from bridge.engine.dealing import seeded_permutation
from teams.engine.options import merge_options
from teams.engine.pairing.pairings import (
    BYE,
    DRAWN,
    DRAWN_BYE,
    DRAWN_PAIR,
    ROUND_DRAW,
    ROUND_SEEDING,
    SEED_BYE,
    SEEDED,
    SEEDS,
    Note,
    Pairing,
    RoundPairing,
    number_tables,
)

FIRST_ROUND_DEFAULTS: Mapping[str, object] = {
    "seed": None,  # hex string or bytes to replay a recorded draw; None draws a fresh one
}


def _unique(team_ids: Sequence[Hashable]) -> list[Hashable]:
    teams = list(team_ids)
    if len(teams) < 2:
        raise ValueError("pairing needs at least two teams")
    if len(set(teams)) != len(teams):
        raise ValueError("team ids must be unique")
    return teams


def draw_first_round(
    team_ids: Sequence[Hashable], options: Mapping[str, object] | None = None
) -> RoundPairing:
    """Random draw: drawn order 1 v 2, 3 v 4, ...; in an odd field the last team drawn has the bye.

    `team_ids` should be in start-number order: the permutation is applied to that list, and the
    permutation itself is returned in `extra["permutation"]` next to the seed.
    """
    opts = merge_options(FIRST_ROUND_DEFAULTS, options)
    teams = _unique(team_ids)
    seed = opts["seed"]
    if seed is None:
        seed = secrets.token_bytes(20)
    seed_hex = seed.hex() if isinstance(seed, bytes) else str(seed)
    permutation = seeded_permutation(seed_hex, "first-round-draw", len(teams))
    drawn = [teams[i] for i in permutation]
    pairings = [
        Pairing(None, home, away, (DRAWN,), Note(DRAWN_PAIR, first=2 * k + 1, second=2 * k + 2))
        for k, (home, away) in enumerate(zip(drawn[::2], drawn[1::2], strict=False))
    ]
    if len(drawn) % 2:
        pairings.append(Pairing(None, drawn[-1], None, (BYE, DRAWN), Note(DRAWN_BYE)))
    return RoundPairing(
        method="draw",
        pairings=number_tables(pairings),
        explanation=Note(ROUND_DRAW),
        draw_seed=seed_hex,
        round_no=1,
        extra={"permutation": tuple(permutation)},
    )


def seeded_first_round(team_ids_by_strength: Sequence[Hashable]) -> RoundPairing:
    """Seeding: strongest v weakest, second v second-weakest, ...; an odd field's middle seed sits out."""
    teams = _unique(team_ids_by_strength)
    n = len(teams)
    pairings = [
        Pairing(None, teams[i], teams[n - 1 - i], (SEEDED,), Note(SEEDS, home=i + 1, away=n - i))
        for i in range(n // 2)
    ]
    if n % 2:
        middle = n // 2
        pairings.append(Pairing(None, teams[middle], None, (BYE, SEEDED), Note(SEED_BYE, seed=middle + 1)))
    return RoundPairing(
        method="seeding",
        pairings=number_tables(pairings),
        ranking=tuple(teams),
        explanation=Note(ROUND_SEEDING),
        round_no=1,
    )
