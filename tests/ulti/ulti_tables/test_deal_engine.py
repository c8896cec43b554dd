"""The phone's deal, as `ulti.engine.table_entry.clean` makes it a score sheet record (issue #18): whatever
bid, declarer, outcomes and kontras the picker can send, the sheet engine settles it and it sums to zero;
shapes the picker cannot send are refused with a code."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ulti.engine import sheet
from ulti.engine import table_entry as deals
from ulti.engine.scoring import MAUSZ

KEYS = ["11", "12", "13"]
BIDS = sorted(sheet.BIDS)


@st.composite
def picked(draw):
    bid = draw(st.sampled_from(BIDS))
    declarer = draw(st.sampled_from(KEYS))
    defenders = [k for k in KEYS if k != declarer]
    slots = sheet.slots_of(bid)
    results = {slot: draw(st.sampled_from(["won", "lost"])) for slot in slots}
    kontra = {slot: {d: draw(st.integers(0, 2)) for d in defenders} for slot in slots if draw(st.booleans())}
    return {"declarer": declarer, "bid": bid, "results": results, "kontra": kontra}


@given(picked(), st.integers(1, 18))
def test_every_picked_deal_settles_zero_sum(raw, number):
    record = deals.clean(raw, KEYS, number)
    assert record["dealer"] == KEYS[(number - 1) % 3]
    line = sheet.settle_sheet([(number, record)], KEYS, MAUSZ, 10).lines[0]
    if line.error is None:
        assert sum(line.forints.values()) == 0
    else:  # the engine's own refusals (e.g. a rekontra without a kontra) are worded, never a crash
        assert line.error.kind == "engine"


def test_untapped_parts_count_as_made():
    record = deals.clean({"declarer": "12", "bid": "40-100 ulti"}, KEYS, 1)
    assert record["results"] == {"hundred": "won", "ulti": "won"}


@pytest.mark.parametrize(
    "raw, code",
    [
        ([], "shape"),
        ({"declarer": "99", "bid": "passz"}, "declarer"),
        ({"declarer": "11", "bid": "piros kutya"}, "bid"),
        ({"declarer": "11", "bid": "ulti", "results": {"ulti": "maybe"}}, "outcome"),
        ({"declarer": "11", "bid": "ulti", "kontra": {"ulti": {"11": 1}}}, "kontra"),
        ({"declarer": "11", "bid": "ulti", "kontra": {"betli": {"12": 1}}}, "kontra"),
        ({"declarer": "11", "bid": "passz", "silent": {"durchmars": "declarer"}}, "silent"),
        ({"declarer": "11", "bid": "passz", "revoke": {"player": "99"}}, "revoke"),
    ],
)
def test_what_the_picker_cannot_send_is_refused(raw, code):
    with pytest.raises(deals.DealError) as error:
        deals.clean(raw, KEYS, 1, silent_games=("100", "four_aces", "ulti"))
    assert error.value.code == code
