"""JSON in, JSON out for the ulti command-line tools; parsing and validation live here, free of Django.

``manage.py ulti_pair`` and ``manage.py ulti_schedule`` are thin wrappers that turn :class:`CliError`
into a CommandError (non-zero exit with the message).
"""

from __future__ import annotations

import json
import numbers

from ulti.engine.pairing.swiss import Player, pair_round
from ulti.engine.rulesets import RuleSetError, get_ruleset
from ulti.engine.schedule import ScheduleError, round_robin

__all__ = ["CliError", "parse_pair_request", "run_pair", "run_schedule"]

_PAIR_KEYS = {"ruleset", "round", "players", "met", "options"}
_PLAYER_KEYS = {"id", "points", "forint", "rating", "byes"}


class CliError(ValueError):
    """Bad input; the message is meant for the person who typed it."""


def _number(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise CliError(f"{where} must be a number, got {json.dumps(value)}")
    if value != value or value in (float("inf"), float("-inf")):
        raise CliError(f"{where} must be a finite number")
    return value


def _whole(value, where: str, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CliError(f"{where} must be a whole number, got {json.dumps(value)}")
    if minimum is not None and value < minimum:
        raise CliError(f"{where} must be at least {minimum}, got {value}")
    return value


def parse_pair_request(text: str) -> tuple[object, int, list[Player], list[tuple[str, str]], dict]:
    """(ruleset, round, players, met, options) from the ``ulti_pair`` JSON; CliError on any problem."""
    if not text or not text.strip():
        raise CliError("no input: pipe a JSON object on standard input")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(
            f"input is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    if not isinstance(data, dict):
        raise CliError("input must be a JSON object with ruleset, round, players and met")
    unknown = sorted(set(data) - _PAIR_KEYS)
    if unknown:
        raise CliError(f"unknown field(s): {', '.join(unknown)} (expected: ruleset, round, players, met)")
    for key in ("ruleset", "round", "players"):
        if key not in data:
            raise CliError(f"missing field: {key}")

    if not isinstance(data["ruleset"], str):
        raise CliError('ruleset must be a rule set name such as "mausz" or "szolnok"')
    try:
        ruleset = get_ruleset(data["ruleset"])
    except RuleSetError as exc:
        raise CliError(str(exc)) from None
    rnd = _whole(data["round"], "round", 1)
    if rnd > ruleset.rounds:
        raise CliError(f"round {rnd} is past the {ruleset.rounds} rounds of the {ruleset.key} rules")

    raw_players = data["players"]
    if not isinstance(raw_players, list) or not raw_players:
        raise CliError("players must be a non-empty list")
    players: list[Player] = []
    seen: set[str] = set()
    for i, raw in enumerate(raw_players):
        where = f"players[{i}]"
        if not isinstance(raw, dict):
            raise CliError(f"{where} must be an object with id, points, forint, rating, byes")
        extra = sorted(set(raw) - _PLAYER_KEYS)
        if extra:
            raise CliError(f"{where}: unknown field(s) {', '.join(extra)}")
        pid = raw.get("id")
        if not isinstance(pid, str) or not pid.strip():
            raise CliError(f"{where}: id must be a non-empty string")
        if pid in seen:
            raise CliError(f"{where}: id {pid!r} is listed twice")
        seen.add(pid)
        where = f"player {pid!r}"
        players.append(
            Player(
                id=pid,
                points=_number(raw.get("points", 0), f"{where}: points"),
                forint=_whole(raw.get("forint", 0), f"{where}: forint"),
                rating=_number(raw.get("rating", 0), f"{where}: rating"),
                byes=_whole(raw.get("byes", 0), f"{where}: byes", 0),
            )
        )
    if len(players) < 3:
        raise CliError(f"{len(players)} player(s) cannot fill a table of three")

    raw_met = data.get("met", [])
    if not isinstance(raw_met, list):
        raise CliError("met must be a list of [id, id] pairs")
    met: list[tuple[str, str]] = []
    for i, pair in enumerate(raw_met):
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(x, str) for x in pair):
            raise CliError(f"met[{i}] must be a pair of player ids, got {json.dumps(pair)}")
        a, b = pair
        if a == b:
            raise CliError(f"met[{i}]: {a!r} cannot have met himself")
        for x in (a, b):
            if x not in seen:
                raise CliError(f"met[{i}]: unknown player id {x!r}")
        met.append((a, b))

    options = data.get("options", {})
    if not isinstance(options, dict):
        raise CliError("options must be an object")
    return ruleset, rnd, players, met, options


def run_pair(text: str, explain: bool = False) -> dict:
    """The ``ulti_pair`` answer: {"tables": [[id, id, id], ...], "byes": [id, ...]}."""
    _ruleset, rnd, players, met, options = parse_pair_request(text)
    try:
        pairing = pair_round(players, met, rnd, options)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    out = pairing.as_dict()
    if explain:
        out["repeats"] = pairing.repeats
        out["optimal"] = pairing.optimal
        out["notes"] = list(pairing.notes)
        out["table_notes"] = [list(t.notes) for t in pairing.tables]
    return out


def run_schedule(players, rounds=None) -> tuple[list, dict]:
    """(rounds of tables, summary) for ``ulti_schedule``; players numbered from 1."""
    try:
        n = _whole(players, "--players", 3)
        if rounds is not None:
            rounds = _whole(rounds, "--rounds", 1)
        sched = round_robin(n, rounds)
    except ScheduleError as exc:
        raise CliError(str(exc)) from None
    summary = {
        "players": n,
        "rounds": len(sched.rounds),
        "kirkman": sched.kirkman,
        "repeats": sched.repeats,
        "missing": sched.missing,
        "lower_bound": sched.lower_bound,
        "byes": [list(b) for b in sched.byes],
    }
    return sched.as_lists(), summary
