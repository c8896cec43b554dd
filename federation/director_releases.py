"""What happens to the events a director's qualification covered when it ends or changes (VSz 9).

Federation keeps the register but knows no events: the app that assigns directors to events (tournaments)
registers a hook in its AppConfig.ready(), as for the other registries. `federation.services.directors.revoke`
calls `release` inside its transaction; the expiry of a qualification (its `valid_until` passed) is found by
that app's own beat task, which calls the same hook. Every other change of a qualification (a renewal with
a new validity or level, a restored revocation) calls `release` (the events it no longer covers) and then
`give_back` (the events it covers again that were released because of it and still have no director).
"""

from collections.abc import Callable

Release = Callable[[object, object], int]

_hooks: list[Release] = []
_give_back_hooks: list[Release] = []


def register_release(hook: Release) -> None:
    """`hook(qualification, user)` takes the director off the events the qualification covered that have not
    finished and returns how many events it released; `user` is None when the clock ended it."""
    if hook not in _hooks:
        _hooks.append(hook)


def release(qualification, user) -> int:
    """Run every registered hook; the number of events that lost the director."""
    return sum(hook(qualification, user) or 0 for hook in _hooks)


def register_give_back(hook: Release) -> None:
    """`hook(qualification, user)` gives the qualification back the events not yet finished that it covers
    again, released because of it and with no director named since; returns how many."""
    if hook not in _give_back_hooks:
        _give_back_hooks.append(hook)


def give_back(qualification, user) -> int:
    """Run every registered give-back hook; the number of events that got the director back."""
    return sum(hook(qualification, user) or 0 for hook in _give_back_hooks)
