"""How much one component is worth against one defender, by kontra level (I.3, I.5)."""

from .components import Component

KONTRA_MULTIPLIER = (1, 2, 4)  # none, kontra, rekontra
# A failed ulti pays the kontra's multiple plus one more ulti value: 2x, 3x, 5x (I.5 (1)).
ULTI_FAILURE_MULTIPLIER = (2, 3, 5)
# A failed silent ulti also pays double (I.5 (1)): 4 units, red 8.
SILENT_ULTI_FAILURE_MULTIPLIER = 2


def won_stake(value: int, level: int) -> int:
    return value * KONTRA_MULTIPLIER[level]


def lost_stake(component: Component, value: int, level: int) -> int:
    # A failed four aces pays 1x / 2x / 4x (I.5 (2)): the plain kontra multiples, like every other part.
    multipliers = ULTI_FAILURE_MULTIPLIER if component is Component.ULTI else KONTRA_MULTIPLIER
    return value * multipliers[level]
