"""What happens to the events a director's qualification covered when it ends (VSz 9).

Federation keeps the register but knows no events: the app that assigns directors to events (tournaments)
registers a hook in its AppConfig.ready(), as for the other registries. `federation.services.directors.revoke`
calls `release` inside its transaction; the expiry of a qualification (its `valid_until` passed) is found by
that app's own beat task, which calls the same hook.
"""

from collections.abc import Callable

Release = Callable[[object, object], int]

_hooks: list[Release] = []


def register_release(hook: Release) -> None:
    """`hook(qualification, user)` takes the director off the events the qualification covered that have not
    finished and returns how many events it released; `user` is None when the clock ended it."""
    if hook not in _hooks:
        _hooks.append(hook)


def release(qualification, user) -> int:
    """Run every registered hook; the number of events that lost the director."""
    return sum(hook(qualification, user) or 0 for hook in _hooks)
