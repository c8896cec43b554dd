"""What a published decision does to the results, per game: a small registry of handlers.

Appeals knows nothing of how a game scores. Each game registers ``handler(decision) -> version`` which
records the changed ruling as a new result version and starts the recompute (standings, then masterpoints
and lists); the handler returns the version's id for the case's timeline. Tests register a fake handler.

A decision that changes nothing (ruling upheld, no point deduction) never reaches a handler. A game without
a handler returns None: the decision is published and the timeline says the director applies it by hand.

The director's point deduction (a `Measure` in force, VSz 23) takes the same road through a second registry,
``measure_handler(measure) -> version``: the game records the deduction as a new result version (bridge: a
session-total procedural penalty in percent of the top, VSz 32) and the recompute follows.
"""

from collections.abc import Callable
from importlib.util import find_spec

Handler = Callable[["Decision"], object]  # noqa: F821 - appeals.models.Decision, not imported at start-up

_HANDLERS: dict[str, Handler] = {}
_MEASURE_HANDLERS: dict[str, Callable] = {}


def register(game: str, handler: Handler) -> None:
    _HANDLERS[game] = handler


def unregister(game: str) -> None:
    _HANDLERS.pop(game, None)


def handler_for(game: str) -> Handler | None:
    return _HANDLERS.get(game)


def apply(decision) -> str | None:
    """Apply a published decision: "" when it changes nothing, None without a handler, else the version."""
    if not decision.changes_results:
        return ""
    handler = _HANDLERS.get(decision.appeal.event.federation.game)
    if handler is None:
        return None
    return str(handler(decision) or "")


def register_measure(game: str, handler: Callable) -> None:
    _MEASURE_HANDLERS[game] = handler


def unregister_measure(game: str) -> None:
    _MEASURE_HANDLERS.pop(game, None)


def measure_handler_for(game: str) -> Callable | None:
    return _MEASURE_HANDLERS.get(game)


def apply_measure(measure) -> str | None:
    """Apply a point deduction in force: None without a handler for the game, else the new version."""
    handler = _MEASURE_HANDLERS.get(measure.event.federation.game)
    if handler is None:
        return None
    return str(handler(measure) or "")


def register_builtin() -> None:
    """Called from AppConfig.ready: wire the games whose result layer is installed."""
    if find_spec("bridge.services") and find_spec("bridge.services.adjustments"):
        from .bridge_effect import apply_bridge_decision, apply_bridge_measure

        register("bridge", apply_bridge_decision)
        register_measure("bridge", apply_bridge_measure)
