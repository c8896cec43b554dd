"""Entry fees in integer forints (pure: no Django). VSz 5, 7; MAUSZ 8 (5), 9 (5), 11 (5).

Bridge and open ulti events charge the announced fee per player (the junior fee where announced) plus
compulsory meals, all due to the organiser. The ulti championship fees are fixed by the federation:
a NUB qualifier is 1,200 Ft, of which 800 Ft goes to the federation and 400 Ft stays with the host club as
room rent; semifinalists pay 2 x 1,500 Ft at the first semifinal, of which 2 x 400 Ft is room rent;
a club's rating tournament pays 400 Ft per player of its fee to the federation; the team championship
has no registration fee. The room rent is the part of the organiser's share the rule names as such
(`Fee.room_rent`, within `to_organiser`): the settlement with the clubs shows it on its own line.

An entry that holds a place owes its fee whether it shows up or not (VSz 7); a withdrawn entry owes
nothing, in particular one that withdrew after being moved to another division (VSz 5).
"""

from dataclasses import dataclass

QUALIFIER_FEE = 1_200
QUALIFIER_ROOM_RENT = 400
SEMIFINAL_FEE = 2 * 1_500
SEMIFINAL_ROOM_RENT = 2 * 400
RATING_LEVY = 400
NO_FEE_CLASSES = ("team_regional", "team_final")


@dataclass(frozen=True)
class FeeTerms:
    event_class: str = ""
    entry_fee: int = 0
    junior_entry_fee: int | None = None
    meal_fee: int = 0
    meal_compulsory: bool = False
    round_number: int | None = None
    cancelled: bool = False


@dataclass(frozen=True)
class EntryFacts:
    players: int
    juniors: int = 0
    status: str = "active"  # active / waiting / withdrawn / declined
    confirmed: bool = True
    no_show: bool = False
    fee_waived: bool = False


@dataclass(frozen=True)
class Fee:
    total: int = 0
    to_federation: int = 0
    to_organiser: int = 0
    reason: str = "owed"
    room_rent: int = 0  # of `to_organiser`: the room rent the host club keeps (MAUSZ 9 (5))

    def __add__(self, other):
        return Fee(
            self.total + other.total,
            self.to_federation + other.to_federation,
            self.to_organiser + other.to_organiser,
            self.reason,
            self.room_rent + other.room_rent,
        )


def player_fee(terms: FeeTerms, junior: bool) -> Fee:
    """What one player of an entry that holds a place pays, and to whom."""
    meals = terms.meal_fee if terms.meal_compulsory else 0
    announced = terms.junior_entry_fee if junior and terms.junior_entry_fee is not None else terms.entry_fee
    rent = 0
    if terms.event_class == "nub_qualifier":
        fed, org = QUALIFIER_FEE - QUALIFIER_ROOM_RENT, QUALIFIER_ROOM_RENT
        rent = QUALIFIER_ROOM_RENT
    elif terms.event_class == "nub_semifinal":
        # Both semifinal fees are paid at the first semifinal, and its host club keeps both room rents.
        if (terms.round_number or 1) == 1:
            fed, org = SEMIFINAL_FEE - SEMIFINAL_ROOM_RENT, SEMIFINAL_ROOM_RENT
            rent = SEMIFINAL_ROOM_RENT
        else:
            fed, org = 0, 0
    elif terms.event_class in NO_FEE_CLASSES:
        fed, org = 0, 0
    elif terms.event_class == "rating":
        fed, org = RATING_LEVY, announced - RATING_LEVY
    else:
        fed, org = 0, announced
    return Fee(fed + org + meals, fed, org + meals, room_rent=rent)


def entry_fee(terms: FeeTerms, entry: EntryFacts) -> Fee:
    if terms.cancelled:
        return Fee(reason="cancelled")
    if entry.status == "withdrawn":
        return Fee(reason="redivision" if entry.fee_waived else "withdrawn")
    if entry.status in ("waiting", "declined"):
        return Fee(reason=entry.status)
    if not entry.confirmed:
        return Fee(reason="unconfirmed")
    fee = Fee()
    for i in range(entry.players):
        fee = fee + player_fee(terms, junior=i < entry.juniors)
    reason = "no_show" if entry.no_show else "owed"
    return Fee(fee.total, fee.to_federation, fee.to_organiser, reason, fee.room_rent)
