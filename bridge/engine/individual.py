"""Score an individual event (Law 78A, VSz 26 and 28): each board matchpointed like a pairs board, each
player credited with the matchpoints of the side he sat on.

A result names its four players by seat (player numbers). The board's results are scored by the pairs
scorer itself (`scoring.session.score_session`), each side of a table standing in as a "pair" named by its
two players ("3-7"): the same matchpoints, the same top on every board (2 x (N - 1), N the most results
any board has), Neuberg (VSz 28) for a board played fewer times, the same VSz 26 rounding, artificial
awards in percent of the top. An average-plus (VSz 29) uses the side's own average over the boards that
partnership played together (in an individual one round: an approximation of the player's average).

A player's total is the sum of his sides' matchpoints on the boards he played, his top the board top times
those boards, his percentage the total over that top; players are ranked on totals when everybody played
the same number of boards and on percentages otherwise, equal values sharing the place (`ranking.rank`).
Nothing here touches a database.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from bridge.engine.csv_upload import Problem, gettext_noop
from bridge.engine.scoring.adjusted import ArtificialScore
from bridge.engine.scoring.entries import ZERO, Entry, EntryScore
from bridge.engine.scoring.matchpoints import HUNDREDTH, WHOLE, Rounding, percentage, round_total
from bridge.engine.scoring.ranking import Placed, rank
from bridge.engine.scoring.session import score_session

SEATS = ("N", "S", "E", "W")


@dataclass(frozen=True)
class Deal:
    """One table's result on one board: the four players and the NS score or an artificial award."""

    board: int
    north: int
    south: int
    east: int
    west: int
    score: int | None = None
    artificial: ArtificialScore | None = None
    table: int | None = None
    where: str = ""  # "line 12": named in a refusal

    @property
    def players(self) -> tuple[int, int, int, int]:
        return (self.north, self.south, self.east, self.west)

    @property
    def ns_side(self) -> str:
        return f"{self.north}-{self.south}"

    @property
    def ew_side(self) -> str:
        return f"{self.east}-{self.west}"


class ScoredDeal(NamedTuple):
    deal: Deal
    mp_ns: Decimal
    mp_ew: Decimal
    pct_ns: Decimal
    pct_ew: Decimal


class PlayerTotal(NamedTuple):
    player: int
    total: Decimal  # matchpoints
    top: Decimal  # board top x boards played
    percentage: Decimal
    boards: int


@dataclass
class IndividualScore:
    boards: dict[int, list[ScoredDeal]]
    players: dict[int, PlayerTotal]
    ranking: list[Placed]  # Placed.pair is the player number (as text); total is what was ranked on
    top: Decimal
    by_percentage: bool  # players played different numbers of boards: ranked on percentages
    full_results: int = 0
    sides: dict[int, list[tuple[int, str, Decimal]]] = field(
        default_factory=dict
    )  # player -> (board, seat, mp)


class IndividualError(ValueError):
    """A set of results the scorer refuses: `problem` is a translatable template with its values."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


def check_deals(deals: Iterable[Deal]) -> None:
    """Refuse four seats with a repeated player, and a player listed twice on one board."""
    seen: dict[tuple[int, int], Deal] = {}
    for deal in deals:
        where = deal.where or f"board {deal.board}"
        if len(set(deal.players)) < 4:
            raise IndividualError(
                Problem(
                    gettext_noop("%(where)s: board %(board)s lists a player in two seats"),
                    where=where,
                    board=deal.board,
                )
            )
        if deal.score is None and deal.artificial is None:
            raise IndividualError(
                Problem(
                    gettext_noop("%(where)s: board %(board)s has no score"), where=where, board=deal.board
                )
            )
        for player in deal.players:
            earlier = seen.get((deal.board, player))
            if earlier is not None:
                raise IndividualError(
                    Problem(
                        gettext_noop("%(where)s: player %(player)s plays board %(board)s a second time"),
                        where=where,
                        player=player,
                        board=deal.board,
                    )
                )
            seen[(deal.board, player)] = deal


def score_individual(
    deals: Iterable[Deal],
    *,
    scale: int = 2,
    rounding: Rounding | str = Rounding.COMPUTER,
    full_results: int | None = None,
) -> IndividualScore:
    """Score the results of an individual session (or event)."""
    rounding = Rounding(rounding)
    deals = list(deals)
    check_deals(deals)  # in the order given: the refusal names the later line
    deals.sort(key=lambda d: (d.board, d.table or 0))
    by_board: dict[int, list[Deal]] = defaultdict(list)
    for deal in deals:
        by_board[deal.board].append(deal)
    entries = {
        board: [Entry(d.ns_side, d.ew_side, d.score, d.artificial) for d in board_deals]
        for board, board_deals in by_board.items()
    }
    session = score_session(entries, scale=scale, rounding=rounding, full_results=full_results)
    top = session.top or ZERO

    boards: dict[int, list[ScoredDeal]] = {}
    mp_of: dict[int, Decimal] = defaultdict(Decimal)
    played: dict[int, int] = defaultdict(int)
    sides: dict[int, list[tuple[int, str, Decimal]]] = defaultdict(list)
    for board, board_deals in by_board.items():
        rows: list[EntryScore] = list(session.boards[board])
        scored = []
        for deal, row in zip(board_deals, rows, strict=True):
            scored.append(ScoredDeal(deal, row.mp_ns, row.mp_ew, row.pct_ns, row.pct_ew))
            for seat, player in zip(SEATS, deal.players, strict=True):
                mp = row.mp_ns if seat in "NS" else row.mp_ew
                mp_of[player] += mp
                played[player] += 1
                sides[player].append((board, seat, mp))
        boards[board] = scored

    players = {}
    for player in sorted(played):
        total = round_total(mp_of[player], rounding)
        player_top = top * played[player]
        players[player] = PlayerTotal(
            player, total, player_top, percentage(total, player_top), played[player]
        )
    by_percentage = len({p.boards for p in players.values()}) > 1
    if by_percentage:
        values, resolution = {str(p): t.percentage for p, t in players.items()}, HUNDREDTH
    else:
        values = {str(p): t.total for p, t in players.items()}
        resolution = WHOLE if rounding == Rounding.HAND else HUNDREDTH
    ranking = rank(values, resolution=resolution)
    return IndividualScore(boards, players, ranking, top, by_percentage, session.full_results, dict(sides))
