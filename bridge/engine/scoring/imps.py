"""The IMP scale of Law 78B, as pure data and a lookup."""

from bisect import bisect_right

# Lower bound of each IMP band (difference in total points); index + 1 is the IMP value.
_BAND_STARTS = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900,
    1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip


def imps(difference: int) -> int:
    """IMPs for a point difference (signed: a negative difference gives negative IMPs)."""
    sign = -1 if difference < 0 else 1
    return sign * bisect_right(_BAND_STARTS, abs(difference))
