"""What a published decision does to the results, per game: a small registry of handlers.

Appeals knows nothing of how a game scores. Each game registers ``handler(decision) -> version`` which
records the changed ruling as a new result version and starts the recompute (standings, then masterpoints
and lists); the handler returns the version's id for the case's timeline. Tests register a fake handler.

A decision that changes nothing (ruling upheld, no point deduction) never reaches a handler. A game without
a handler returns None: the decision is published and the timeline says the director applies it by hand.
"""

from collections.abc import Callable
from importlib.util import find_spec

Handler = Callable[["Decision"], object]  # noqa: F821 - appeals.models.Decision, not imported at start-up

_HANDLERS: dict[str, Handler] = {}


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


def register_builtin() -> None:
    """Called from AppConfig.ready: wire the games whose result layer is installed."""
    if find_spec("bridge.services") and find_spec("bridge.services.adjustments"):
        from .bridge_effect import apply_bridge_decision

        register("bridge", apply_bridge_decision)
