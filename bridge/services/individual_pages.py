"""What the individual event pages read: the stored standings with names and clubs, the travellers with the
four players of every result. Pages never score anything."""

from dataclasses import dataclass, field
from types import SimpleNamespace

from bridge.engine.scoring.contract import board_dealer, board_vulnerability
from rankings.services import earned as earned_masterpoints
from results.services import state_of

from ..models import IndividualBoardScore, IndividualPlayer, IndividualStanding, IndividualVersion
from . import INDIVIDUAL_SCOPE
from .pages import hand_diagram, vulnerability_display


@dataclass
class StandingRow:
    place: str
    number: int
    name: str
    club: str
    total: object
    percentage: object
    boards: int
    masterpoints: object = None


@dataclass
class Traveller:
    board: int
    rows: list = field(default_factory=list)
    hand: object = None  # the deal for the pairs' hand diagram (bridge/_hand.html), when the file had it


def _club_of(player: IndividualPlayer, federation_id: int) -> str:
    if player.entry_id:
        for member in player.entry.members.all():
            if member.home_club_id:
                return str(member.home_club)
    if player.person_id:
        for membership in player.person.memberships.all():
            if membership.federation_id == federation_id and membership.club_id:
                return str(membership.club)
    return ""


def players_of(event) -> dict[int, IndividualPlayer]:
    players = IndividualPlayer.objects.filter(event=event).select_related("person", "entry")
    players = players.prefetch_related("entry__members__home_club", "person__memberships__club")
    return {p.number: p for p in players}


def standings(event) -> tuple[list[StandingRow], bool]:
    """The rows of the standings, and whether a masterpoint column is shown (the event awarded some)."""
    players = {p.pk: p for p in players_of(event).values()}
    earned = earned_masterpoints.masterpoints_of(event)
    rows = []
    for s in IndividualStanding.objects.filter(event=event).order_by("rank"):
        player = players.get(s.player_id)
        if player is None:
            continue
        rows.append(
            StandingRow(
                s.place,
                player.number,
                player.display_name,
                _club_of(player, event.federation_id),
                s.total,
                s.percentage,
                s.boards,
                earned.get(player.person_id) if player.person_id else None,
            )
        )
    return rows, bool(earned)


def version_shown(event) -> int | None:
    return IndividualStanding.objects.filter(event=event).values_list("version", flat=True).first()


def travellers(event, board: int | None = None) -> list[Traveller]:
    names = {number: p.display_name for number, p in players_of(event).items()}
    scores = IndividualBoardScore.objects.filter(event=event)
    if board is not None:
        scores = scores.filter(board=board)
    by_board: dict[int, Traveller] = {}
    deals = hands(event)
    for s in scores.order_by("board", "-score", "table", "pk"):
        for seat in ("north", "south", "east", "west"):
            setattr(s, f"{seat}_name", names.get(getattr(s, seat), ""))
        by_board.setdefault(s.board, Traveller(s.board, hand=deals.get(s.board))).rows.append(s)
    return list(by_board.values())


def hands(event) -> dict[int, SimpleNamespace]:
    """Board -> the deal of the version the standings show (its PBN's Deal tags), shaped for the pairs'
    hand diagram (`bridge/_hand.html`, `pages.hand_diagram`): seats É/K/D/Ny, suit symbols, dealer and
    vulnerability. No double-dummy analysis is stored for individual events (`dd` empty)."""
    number = version_shown(event)
    if number is None:
        return {}
    deals = (
        IndividualVersion.objects.filter(event=event, number=number).values_list("deals", flat=True).first()
        or {}
    )
    out = {}
    for key, deal in deals.items():
        board = int(key)
        try:
            diagram = hand_diagram(deal)
        except ValueError:  # a deal the reader accepted but the diagram cannot show: no diagram
            continue
        out[board] = SimpleNamespace(
            board=board,
            deal=deal,
            dealer=board_dealer(board),
            vul_display=vulnerability_display(board_vulnerability(board)),
            diagram=diagram,
            dd=[],
            par_contracts="",
            par_score=None,
        )
    return out


def boards_of(event) -> list[int]:
    return list(
        IndividualBoardScore.objects.filter(event=event)
        .values_list("board", flat=True)
        .distinct()
        .order_by("board")
    )


def processing(event_id: int) -> bool:
    state = state_of(event_id, INDIVIDUAL_SCOPE)
    return state is not None and state.processing


def recompute_error(event_id: int) -> str:
    state = state_of(event_id, INDIVIDUAL_SCOPE)
    return state.error if state is not None else ""


@dataclass
class CardLine:
    """One board of a player's score card: who sat with him and against him, by number and name."""

    score: object  # the IndividualBoardScore
    seat: str  # "N", "E", "S", "W"
    partner: tuple[int, str]
    opponents: list[tuple[int, str]]
    matchpoints: object
    percentage: object


PARTNER = {"north": "south", "south": "north", "east": "west", "west": "east"}
OPPONENTS = {
    "north": ("east", "west"),
    "south": ("east", "west"),
    "east": ("north", "south"),
    "west": ("north", "south"),
}


def score_card(event, number: int) -> list[CardLine]:
    """One player's boards, by board: his seat, partner and opponents, his matchpoints and percentage."""
    names = {n: p.display_name for n, p in players_of(event).items()}

    def who(n):
        return n, names.get(n, "")

    rows = []
    for s in IndividualBoardScore.objects.filter(event=event).order_by("board"):
        for seat in ("north", "south", "east", "west"):
            if getattr(s, seat) == number:
                ns = seat in ("north", "south")
                rows.append(
                    CardLine(
                        s,
                        seat[0].upper(),
                        who(getattr(s, PARTNER[seat])),
                        [who(getattr(s, o)) for o in OPPONENTS[seat]],
                        s.mp_ns if ns else s.mp_ew,
                        s.pct_ns if ns else s.pct_ew,
                    )
                )
    return rows
