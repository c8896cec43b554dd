"""Entry fees in integer forints (pure): VSz 5, 7 and the MAUSZ fee rules."""

from tournaments.engine.fees import EntryFacts, Fee, FeeTerms, entry_fee, player_fee


def test_bridge_pair_pays_the_announced_fee_per_player_to_the_organiser():
    fee = entry_fee(FeeTerms(event_class="club", entry_fee=2000), EntryFacts(players=2))
    assert fee == Fee(4000, 0, 4000, "owed")


def test_junior_discount_where_announced():
    terms = FeeTerms(event_class="club", entry_fee=2000, junior_entry_fee=1000)
    assert entry_fee(terms, EntryFacts(players=2, juniors=1)).total == 3000
    no_discount = FeeTerms(event_class="club", entry_fee=2000)
    assert entry_fee(no_discount, EntryFacts(players=2, juniors=2)).total == 4000


def test_compulsory_meals_are_charged_to_every_player():
    terms = FeeTerms(
        event_class="championship", entry_fee=6000, junior_entry_fee=3000, meal_fee=2500, meal_compulsory=True
    )
    assert entry_fee(terms, EntryFacts(players=2, juniors=1)) == Fee(14000, 0, 14000, "owed")
    optional = FeeTerms(event_class="championship", entry_fee=6000, meal_fee=2500)
    assert entry_fee(optional, EntryFacts(players=2)).total == 12000


def test_a_no_show_that_did_not_withdraw_still_owes_the_fee():
    fee = entry_fee(FeeTerms(entry_fee=2000), EntryFacts(players=2, no_show=True))
    assert fee.total == 4000 and fee.reason == "no_show"


def test_withdrawn_after_redivision_owes_nothing():
    fee = entry_fee(FeeTerms(entry_fee=2000), EntryFacts(players=2, status="withdrawn", fee_waived=True))
    assert fee == Fee(0, 0, 0, "redivision")


def test_waiting_declined_unconfirmed_and_cancelled_owe_nothing():
    terms = FeeTerms(entry_fee=2000)
    assert entry_fee(terms, EntryFacts(players=2, status="waiting")).total == 0
    assert entry_fee(terms, EntryFacts(players=2, status="declined")).total == 0
    assert entry_fee(terms, EntryFacts(players=2, confirmed=False)).reason == "unconfirmed"
    assert entry_fee(FeeTerms(entry_fee=2000, cancelled=True), EntryFacts(players=2)).reason == "cancelled"


def test_ulti_qualifier_split_800_to_the_federation_400_room_rent():
    # The announced fee is ignored: the federation fixes it (MAUSZ 9 (5)).
    terms = FeeTerms(event_class="nub_qualifier", entry_fee=5000)
    assert player_fee(terms, junior=False) == Fee(1200, 800, 400, room_rent=400)
    assert entry_fee(terms, EntryFacts(players=1)) == Fee(1200, 800, 400, "owed", room_rent=400)
    assert entry_fee(terms, EntryFacts(players=3, no_show=True)) == Fee(3600, 2400, 1200, "no_show", 1200)


def test_semifinalists_pay_two_times_1500_at_the_first_semifinal():
    first = FeeTerms(event_class="nub_semifinal", round_number=1)
    assert player_fee(first, junior=False) == Fee(3000, 2200, 800, room_rent=800)
    assert player_fee(FeeTerms(event_class="nub_semifinal", round_number=2), junior=False) == Fee()


def test_the_first_semifinals_host_keeps_2_x_400_room_rent_per_player():
    # MAUSZ 9 (5): of the 2 x 1,500 Ft paid at the first semifinal, its host club accounts 2 x 400 Ft per
    # player to the federation as room rent.
    first = FeeTerms(event_class="nub_semifinal", round_number=1, entry_fee=9999)
    fee = entry_fee(first, EntryFacts(players=60))
    assert (fee.total, fee.to_federation, fee.room_rent) == (60 * 2 * 1500, 60 * 2 * 1100, 60 * 2 * 400)
    assert fee.to_organiser == fee.room_rent and all(isinstance(v, int) for v in (fee.total, fee.room_rent))
    assert entry_fee(first, EntryFacts(players=1, status="withdrawn")).room_rent == 0


def test_club_rating_tournament_pays_400_per_player_to_the_federation():
    terms = FeeTerms(event_class="rating", entry_fee=2000)
    assert player_fee(terms, junior=False) == Fee(2000, 400, 1600)  # the rest of the fee is no room rent


def test_team_championship_has_no_registration_fee():
    assert entry_fee(FeeTerms(event_class="team_regional", entry_fee=1000), EntryFacts(players=3)).total == 0
    assert entry_fee(FeeTerms(event_class="team_final"), EntryFacts(players=3)).total == 0
