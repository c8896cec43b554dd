"""The ulti round clock (issue #18): the time limit of a round from the event's rule set.

The rule sets give a minimum round time (`RuleSet.min_round_minutes`: MAUSZ regional qualifier at least
30 minutes, Szolnok at least 40). The director may give a longer time, never a shorter one; with no time
given the round gets the minimum. Refusals are codes with parameters, worded by the service. Plain Python.
"""

from dataclasses import dataclass

from ulti.engine.rulesets import RuleSet

MAX_MINUTES = 300


@dataclass
class ClockError(ValueError):
    """``code``: "not_a_number", "below_minimum" (``minimum``, the rule set's ``rule`` and ``source``) or
    "too_long" (``maximum``)."""

    code: str
    minimum: int = 0
    maximum: int = MAX_MINUTES
    rule: str = ""
    source: str = ""


def time_limit(ruleset: RuleSet, minutes=None) -> int:
    """The round's minutes: the rule set's minimum when none is given, else the director's (checked)."""
    minimum = ruleset.min_round_minutes
    if minutes is None or minutes == "":
        return minimum
    try:
        value = int(minutes)
    except (TypeError, ValueError):
        raise ClockError("not_a_number") from None
    if value < minimum:
        raise ClockError("below_minimum", minimum=minimum, rule=ruleset.name, source=ruleset.source)
    if value > MAX_MINUTES:
        raise ClockError("too_long", maximum=MAX_MINUTES)
    return value
