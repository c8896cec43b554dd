"""Knockout (VSz 33): seeded by strength like a tennis main draw, straight or with a consolation bracket.

Seeds are placed so that in round one 1 meets the last, 2 the second-last, and so on, and the top
two seeds can only meet in the final.  A field that is not a power of two gives byes to the top seeds.
The consolation bracket (vigaszág) takes the losers of the main draw's first round, in draw order,
and is itself played as a knockout.

Match length (VSz 33): at least 6 boards (fewer only for Patton or board-a-match scoring), at least 16
in the main draw; 16 boards or more are played in two halves and more than 40 in more stages, the
results being agreed after every segment.  For more than 40 boards this module uses segments of at most
`max_segment_boards` (16 by default, as in WBF knockouts: 48 = 3 x 16, 64 = 4 x 16, 96 = 6 x 16).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from teams.engine.options import merge_options

MIN_BOARDS = 6
MIN_BOARDS_MAIN_DRAW = 16
SHORT_MATCH_FORMS = ("patton", "board_a_match")
MATCH_FORMS = ("imps", *SHORT_MATCH_FORMS)

MATCH_PLAN_DEFAULTS: Mapping[str, object] = {
    "form": "imps",  # "patton" and "board_a_match" may play fewer than 6 boards
    "knockout_main_draw": False,
    "max_segment_boards": 16,  # segment length once a match exceeds 40 boards
}


@dataclass(frozen=True)
class MatchPlan:
    boards: int
    segments: tuple[int, ...]  # boards per half / stage, in playing order

    @property
    def halves(self) -> int:
        return len(self.segments)


def plan_match(boards: int, options: Mapping[str, object] | None = None) -> MatchPlan:
    """Validate a match length and split it into halves or stages; ValueError says which rule failed."""
    opts = merge_options(MATCH_PLAN_DEFAULTS, options)
    form = opts["form"]
    if form not in MATCH_FORMS:
        raise ValueError(f"unknown match form {form!r}; valid: {', '.join(MATCH_FORMS)}")
    if boards < 1:
        raise ValueError("a match needs at least one board")
    if boards < MIN_BOARDS and form not in SHORT_MATCH_FORMS:
        raise ValueError(
            f"a team match is at least {MIN_BOARDS} boards (VSz 33); {boards} is allowed only "
            "for Patton or board-a-match"
        )
    if opts["knockout_main_draw"] and boards < MIN_BOARDS_MAIN_DRAW:
        raise ValueError(f"a knockout main-draw match is at least {MIN_BOARDS_MAIN_DRAW} boards (VSz 33)")
    if boards < 16:
        count = 1
    elif boards <= 40:
        count = 2
    else:
        size = int(opts["max_segment_boards"])
        if size < 1:
            raise ValueError("max_segment_boards must be positive")
        count = max(3, math.ceil(boards / size))
    base, extra = divmod(boards, count)
    return MatchPlan(boards, tuple(base + (1 if i < extra else 0) for i in range(count)))


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket-line order for a draw of `size` (a power of two): 1, 8, 4, 5, 2, 7, 3, 6."""
    if size < 2 or size & (size - 1):
        raise ValueError("a bracket size is a power of two, at least 2")
    order = [1, 2]
    while len(order) < size:
        double = 2 * len(order)
        order = [seed for s in order for seed in (s, double + 1 - s)]
    return order


@dataclass(frozen=True)
class KnockoutMatch:
    number: int  # 1-based line pair in this round of this bracket
    top: Hashable | None
    bottom: Hashable | None  # None with a team on top: a bye; None on both: an empty line
    top_seed: int | None = None
    bottom_seed: int | None = None

    @property
    def is_bye(self) -> bool:
        return (self.top is None) != (self.bottom is None)

    @property
    def walkover_winner(self) -> Hashable | None:
        return self.top if self.bottom is None else self.bottom if self.top is None else None


@dataclass(frozen=True)
class KnockoutRound:
    bracket: str  # "main" or "consolation"
    round_no: int
    matches: tuple[KnockoutMatch, ...]

    @property
    def is_final(self) -> bool:
        return len(self.matches) == 1


# No knockout options yet; the dict still rejects misspelt keys from event settings.
KNOCKOUT_DEFAULTS: Mapping[str, object] = {}


def seed_knockout(
    team_ids_by_strength: Sequence[Hashable], options: Mapping[str, object] | None = None
) -> KnockoutRound:
    """Round one of the main draw; the strongest team first in `team_ids_by_strength`."""
    merge_options(KNOCKOUT_DEFAULTS, options)
    teams = list(team_ids_by_strength)
    if len(teams) < 2:
        raise ValueError("a knockout needs at least two teams")
    if len(set(teams)) != len(teams):
        raise ValueError("team ids must be unique")
    size = 1 << (len(teams) - 1).bit_length()
    order = bracket_order(size)
    matches = []
    for number, (top_seed, bottom_seed) in enumerate(zip(order[::2], order[1::2], strict=True), start=1):
        top = teams[top_seed - 1] if top_seed <= len(teams) else None
        bottom = teams[bottom_seed - 1] if bottom_seed <= len(teams) else None
        matches.append(
            KnockoutMatch(
                number,
                top,
                bottom,
                top_seed if top is not None else None,
                bottom_seed if bottom is not None else None,
            )
        )
    return KnockoutRound("main", 1, tuple(matches))


def _winners_in_order(previous: KnockoutRound, winners: Mapping[int, Hashable]) -> list[Hashable | None]:
    out: list[Hashable | None] = []
    for match in previous.matches:
        if match.top is None and match.bottom is None:
            out.append(None)
        elif match.is_bye:
            out.append(match.walkover_winner)
        else:
            winner = winners.get(match.number)
            if winner not in (match.top, match.bottom):
                raise ValueError(
                    f"match {match.number}: the winner must be {match.top!r} or {match.bottom!r}"
                )
            out.append(winner)
    return out


def _pair_lines(bracket: str, round_no: int, lines: list[Hashable | None], seeds: Mapping) -> KnockoutRound:
    matches = []
    for number, (top, bottom) in enumerate(zip(lines[::2], lines[1::2], strict=True), start=1):
        matches.append(KnockoutMatch(number, top, bottom, seeds.get(top), seeds.get(bottom)))
    return KnockoutRound(bracket, round_no, tuple(matches))


def _seeds(previous: KnockoutRound) -> dict:
    seeds = {}
    for match in previous.matches:
        if match.top is not None and match.top_seed is not None:
            seeds[match.top] = match.top_seed
        if match.bottom is not None and match.bottom_seed is not None:
            seeds[match.bottom] = match.bottom_seed
    return seeds


def advance(previous: KnockoutRound, winners: Mapping[int, Hashable]) -> KnockoutRound | None:
    """The next round of the same bracket from match number -> winner (byes advance by themselves).

    Returns None after the final; the champion is then `winners[1]`.
    """
    lines = _winners_in_order(previous, winners)
    if previous.is_final:
        return None
    return _pair_lines(previous.bracket, previous.round_no + 1, lines, _seeds(previous))


def consolation_draw(main_round_one: KnockoutRound, winners: Mapping[int, Hashable]) -> KnockoutRound | None:
    """Round one of the consolation bracket: the main draw's first-round losers, adjacent lines meeting.

    None when fewer than two teams lost in round one (there is nothing to play).
    """
    if main_round_one.bracket != "main" or main_round_one.round_no != 1:
        raise ValueError("the consolation bracket is drawn from the main draw's first round")
    kept = _winners_in_order(main_round_one, winners)
    losers: list[Hashable | None] = []
    for match, winner in zip(main_round_one.matches, kept, strict=True):
        if match.is_bye or winner is None:
            losers.append(None)
        else:
            losers.append(match.bottom if winner == match.top else match.top)
    if sum(1 for team in losers if team is not None) < 2:
        return None
    if len(losers) % 2:
        losers.append(None)
    return _pair_lines("consolation", 1, losers, _seeds(main_round_one))
