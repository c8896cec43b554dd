"""What a published decision does to the results, per game: a small registry of handlers.

Appeals knows nothing of how a game scores. Each game registers ``handler(decision) -> version`` which
records the changed ruling as a new result version and starts the recompute (standings, then masterpoints
and lists); the handler returns the version's id for the case's timeline. Tests register a fake handler.

Each game may also register ``check(decision)``: the dry run of the same ruling service, raising a
ValidationError by the decision's fields without writing anything. The panel's proposal is checked with it
(a decision naming a board or pair not in the session is refused when proposed), and so is the publication,
just before the handler writes. Registering a handler without a check (a test's fake) leaves none.

A decision that changes nothing (ruling upheld, no point deduction) never reaches a handler. A game without
a handler returns None: the decision is published and the timeline says the director applies it by hand.

The bridge and ulti handlers (`bridge_effect.py`, `ulti_effect.py`) are registered by
`AppealsConfig.ready()`, once every app is loaded.

The director's point deduction (a `Measure` in force, VSz 23) takes the same road through a second registry,
``measure_handler(measure) -> version``: the game records the deduction as a new result version (bridge: a
session-total procedural penalty in percent of the top, VSz 32) and the recompute follows.
"""

from collections.abc import Callable
from contextlib import contextmanager

Handler = Callable[["Decision"], object]  # noqa: F821 - appeals.models.Decision, not imported at start-up

_HANDLERS: dict[str, Handler] = {}
_CHECKS: dict[str, Callable] = {}
_MEASURE_HANDLERS: dict[str, Callable] = {}


def register(game: str, handler: Handler, check: Callable | None = None) -> None:
    _HANDLERS[game] = handler
    if check is None:
        _CHECKS.pop(game, None)
    else:
        _CHECKS[game] = check


def unregister(game: str) -> None:
    _HANDLERS.pop(game, None)
    _CHECKS.pop(game, None)


def handler_for(game: str) -> Handler | None:
    return _HANDLERS.get(game)


@contextmanager
def replaced(game: str, handler: Handler | None, check: Callable | None = None):
    """Within the block, `game`'s decisions go to `handler` (None: no handler) and `check`; the handler and
    check registered before are restored after it (tests)."""
    saved = _HANDLERS.get(game), _CHECKS.get(game)
    if handler is None:
        unregister(game)
    else:
        register(game, handler, check)
    try:
        yield
    finally:
        unregister(game)
        if saved[0] is not None:
            register(game, *saved)


def check_for(game: str) -> Callable | None:
    return _CHECKS.get(game)


def check(decision) -> None:
    """Would the results take this decision? Raises a ValidationError by field; writes nothing."""
    if not decision.changes_results:
        return
    checker = _CHECKS.get(decision.appeal.event.federation.game)
    if checker is not None:
        checker(decision)


def apply(decision) -> str | None:
    """Apply a published decision: "" when it changes nothing, None without a handler, else the version."""
    if not decision.changes_results:
        return ""
    handler = _HANDLERS.get(decision.appeal.event.federation.game)
    if handler is None:
        return None
    return str(handler(decision) or "")


_FILING_CHECKS: dict[str, Callable] = {}


def register_filing_check(game: str, check: Callable) -> None:
    """``check(session, entry, board_number, pairs)``: the pair numbers an appeal names (``pairs``: field ->
    label) against the session's results, when the game has them; a ValidationError by field otherwise."""
    _FILING_CHECKS[game] = check


def check_filing(session, entry, board_number, pairs) -> None:
    checker = _FILING_CHECKS.get(session.event.federation.game)
    if checker is not None:
        checker(session, entry, board_number, pairs)


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
