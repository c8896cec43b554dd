"""Masterpoint awards from final placings (pure: no Django).

A federation's award scheme gives, per event class, the points of the first place as a function of the
field size, the share of the field that scores and a minimum field. Place ``p`` of ``k`` scoring places
earns ``first * (k - p + 1) / k`` (a straight line down to the last scoring place), everyone below earns
nothing. A shared place ("3-4") splits the points of the places it covers evenly. The event's masterpoint
multiplier scales the result, which is rounded half-up to hundredths. In pairs and teams every player with
rights (VSz 25: at least half of the boards; of a substitute and the original entrant the one who played
more, the original when equal) gets the entry's full award.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction

__all__ = [
    "SchemeError",
    "ClassRule",
    "QualificationLevel",
    "Scheme",
    "Share",
    "Placing",
    "AwardLine",
    "DEFAULT_SCHEMES",
    "scheme_from_dict",
    "scheme_to_dict",
    "scoring_places",
    "first_place_points",
    "place_points",
    "placing_points",
    "players_with_rights",
    "award_lines",
    "qualification_for",
]

CENT = Decimal("0.01")
HALF = Fraction(1, 2)


class SchemeError(ValueError):
    """An award scheme that cannot be used; the message names the class and the field."""


@dataclass(frozen=True)
class ClassRule:
    """How one event class earns points."""

    first: Decimal  # points of the first place, before the per-entry part
    per_entry: Decimal = Decimal(0)  # added to the first place's points for every entry in the field
    max_first: Decimal | None = None  # cap on the first place's points
    share: Decimal = Decimal("0.4")  # fraction of the field that scores, 0 < share <= 1
    min_field: int = 1  # smaller fields earn nothing


@dataclass(frozen=True)
class QualificationLevel:
    """A qualification (minősítés) reached at ``min_points`` all-time masterpoints."""

    code: str
    name: str
    min_points: Decimal


@dataclass(frozen=True)
class Scheme:
    classes: Mapping[str, ClassRule]
    qualifications: tuple[QualificationLevel, ...] = ()


@dataclass(frozen=True)
class Share:
    """A player of an entry; see rankings.sources.PlayerShare."""

    person_id: int
    fraction: Fraction | Decimal | float | None = None
    has_rights: bool | None = None
    substitute_for: int | None = None


@dataclass(frozen=True)
class Placing:
    entry_key: str
    place_from: int
    place_to: int
    shares: tuple[Share, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class AwardLine:
    person_id: int
    entry_key: str
    place_from: int
    place_to: int
    amount: Decimal


def _dec(value, what: str) -> Decimal:
    try:
        result = Decimal(str(value))
    except (InvalidOperation, ValueError, TypeError):
        raise SchemeError(f"{what}: {value!r} is not a number")
    if not result.is_finite():
        raise SchemeError(f"{what}: {value!r} is not a number")
    return result


def scheme_from_dict(data: Mapping) -> Scheme:
    """Read and check a scheme stored as JSON (decimals as strings)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("classes"), Mapping):
        raise SchemeError("the scheme needs a 'classes' mapping")
    classes = {}
    for name, raw in data["classes"].items():
        if not name or not isinstance(raw, Mapping):
            raise SchemeError(f"class {name!r}: a mapping of numbers is needed")
        first = _dec(raw.get("first", 0), f"{name}.first")
        per_entry = _dec(raw.get("per_entry", 0), f"{name}.per_entry")
        cap = raw.get("max_first")
        max_first = None if cap in (None, "") else _dec(cap, f"{name}.max_first")
        share = _dec(raw.get("share", "0.4"), f"{name}.share")
        try:
            min_field = int(raw.get("min_field", 1))
        except (TypeError, ValueError):
            raise SchemeError(f"{name}.min_field: a whole number is needed")
        if first < 0 or per_entry < 0:
            raise SchemeError(f"{name}: points cannot be negative")
        if max_first is not None and max_first < first:
            raise SchemeError(f"{name}.max_first: below the first place's base points")
        if not (0 < share <= 1):
            raise SchemeError(f"{name}.share: must be more than 0 and at most 1")
        if min_field < 1:
            raise SchemeError(f"{name}.min_field: at least 1")
        classes[str(name)] = ClassRule(first, per_entry, max_first, share, min_field)
    levels = []
    for raw in data.get("qualifications", ()) or ():
        code = str(raw.get("code", "")).strip()
        if not code:
            raise SchemeError("a qualification needs a code")
        points = _dec(raw.get("min_points"), f"qualification {code}.min_points")
        if points <= 0:
            raise SchemeError(f"qualification {code}.min_points: must be positive")
        levels.append(QualificationLevel(code, str(raw.get("name", code)), points))
    if len({lv.code for lv in levels}) != len(levels):
        raise SchemeError("qualification codes must differ")
    levels.sort(key=lambda lv: (-lv.min_points, lv.code))
    return Scheme(classes=classes, qualifications=tuple(levels))


def scheme_to_dict(scheme: Scheme) -> dict:
    def num(d: Decimal | None):
        return None if d is None else str(d)

    return {
        "classes": {
            name: {
                "first": num(r.first),
                "per_entry": num(r.per_entry),
                "max_first": num(r.max_first),
                "share": num(r.share),
                "min_field": r.min_field,
            }
            for name, r in sorted(scheme.classes.items())
        },
        "qualifications": [
            {"code": lv.code, "name": lv.name, "min_points": num(lv.min_points)}
            for lv in scheme.qualifications
        ],
    }


def scoring_places(rule: ClassRule, field_size: int) -> int:
    """How many places score: the share of the field, rounded down, at least one."""
    if field_size < rule.min_field or field_size < 1:
        return 0
    return max(1, int((rule.share * field_size).to_integral_value(rounding=ROUND_FLOOR)))


def first_place_points(rule: ClassRule, field_size: int) -> Decimal:
    top = rule.first + rule.per_entry * field_size
    return min(top, rule.max_first) if rule.max_first is not None else top


def place_points(rule: ClassRule, field_size: int, place: int) -> Fraction:
    """Exact (unrounded, unmultiplied) points of one place."""
    k = scoring_places(rule, field_size)
    if place < 1 or place > k:
        return Fraction(0)
    return Fraction(first_place_points(rule, field_size)) * (k - place + 1) / k


def placing_points(rule: ClassRule, field_size: int, place_from: int, place_to: int) -> Fraction:
    """A shared place splits the points of the places it covers evenly."""
    if place_to < place_from:
        raise ValueError(f"place {place_from}-{place_to} runs backwards")
    covered = range(place_from, place_to + 1)
    return sum((place_points(rule, field_size, p) for p in covered), Fraction(0)) / len(covered)


def _round(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(CENT, rounding=ROUND_HALF_UP)


def _fraction(value) -> Fraction:
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def players_with_rights(shares: Iterable[Share]) -> list[int]:
    """The players of one entry who have the right to its masterpoints (VSz 25)."""
    shares = list(shares)
    by_id = {s.person_id: s for s in shares}

    def base(s: Share) -> bool:
        if s.has_rights is not None:
            return s.has_rights
        return s.fraction is None or _fraction(s.fraction) >= HALF

    def played(s: Share) -> Fraction:
        return Fraction(1) if s.fraction is None else _fraction(s.fraction)

    result = []
    for s in shares:
        if not base(s):
            continue
        if s.has_rights is None:
            # Substitute against the original entrant: more boards wins, the original when equal.
            original = by_id.get(s.substitute_for) if s.substitute_for is not None else None
            if original is not None and played(original) >= played(s):
                continue
            subs = [o for o in shares if o.substitute_for == s.person_id and o.has_rights is None]
            if any(played(o) > played(s) for o in subs):
                continue
        result.append(s.person_id)
    return sorted(set(result))


def award_lines(
    scheme: Scheme,
    event_class: str,
    field_size: int,
    multiplier: Decimal | None,
    placings: Iterable[Placing],
) -> list[AwardLine]:
    """Every player's award for one event; nothing for classes the scheme does not list."""
    rule = scheme.classes.get(event_class)
    mult = Decimal(1) if multiplier is None else Decimal(str(multiplier))
    if mult < 0:
        raise SchemeError("the masterpoint multiplier cannot be negative")
    if rule is None or mult == 0:
        return []
    lines = []
    for placing in placings:
        exact = placing_points(rule, field_size, placing.place_from, placing.place_to)
        amount = _round(exact * Fraction(mult))
        if amount <= 0:
            continue
        for person_id in players_with_rights(placing.shares):
            lines.append(
                AwardLine(person_id, placing.entry_key, placing.place_from, placing.place_to, amount)
            )
    lines.sort(key=lambda a: (a.place_from, a.entry_key, a.person_id))
    return lines


def qualification_for(scheme: Scheme, total: Decimal) -> QualificationLevel | None:
    """The highest qualification whose threshold the total reaches."""
    for level in scheme.qualifications:  # sorted highest first
        if total >= level.min_points:
            return level
    return None


def _rule(first, per_entry="0", max_first=None, share="0.4", min_field=3):
    return {
        "first": first,
        "per_entry": per_entry,
        "max_first": max_first,
        "share": share,
        "min_field": min_field,
    }


# The default schemes, written down in docs/masterpoints.md; federation staff edit them as new versions.
DEFAULT_SCHEMES = {
    "bridge": {
        "classes": {
            "national": _rule("20", "0.5", "60", "0.4", 6),
            "championship": _rule("15", "0.4", "50", "0.4", 6),
            "selection": _rule("10", "0", "10", "0.5", 2),
            "regional": _rule("8", "0.25", "25", "0.33", 6),
            "announced": _rule("6", "0.2", "20", "0.33", 6),
            "club": _rule("2", "0.1", "6", "0.25", 6),
        },
        "qualifications": [],
    },
    "ulti": {
        "classes": {
            "sport_ulti": _rule("10", "0.2", "30", "0.33", 15),
            "nub_final": _rule("12", "0", None, "0.33", 9),
            "team_final": _rule("8", "0", None, "0.2", 6),
        },
        "qualifications": [
            {"code": "I", "name": "I. osztály", "min_points": "100"},
            {"code": "II", "name": "II. osztály", "min_points": "40"},
            {"code": "III", "name": "III. osztály", "min_points": "10"},
        ],
    },
}
