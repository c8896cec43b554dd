"""Who hears of an exclusion from the whole event (VSz 23): a registry the appeals app fills.

VSz 23: excluding a pair from the event needs the Appeals Committee's consent, and the director must report
such a serious breach to the federation's Disciplinary Committee ("A súlyos fegyelmezetlenséget a tornavezető
köteles jelenteni az MBSz Fegyelmi Bizottságának is"). The disciplinary cases live in `appeals`, which is
above bridge: `appeals.apps.AppealsConfig.ready()` registers the hook that opens the case and mails the
pair's players, the event's director, the federation's staff and the committee. `roster.record_exclusion`
calls `event_exclusion_recorded` inside its transaction; an exclusion from a session (or its boards) is the
director's own measure and opens no case.
"""

from collections.abc import Callable

Hook = Callable[[object, object], object]

_hooks: list[Hook] = []


def register(hook: Hook) -> None:
    """`hook(exclusion, user)`: the exclusion (a `bridge.Exclusion` from the whole event) was recorded; the
    hook returns the cases it opened (a list)."""
    if hook not in _hooks:
        _hooks.append(hook)


def unregister(hook: Hook) -> None:
    if hook in _hooks:
        _hooks.remove(hook)


def event_exclusion_recorded(exclusion, user) -> list:
    """Run every registered hook; the cases they opened, in order."""
    return [case for hook in _hooks for case in (hook(exclusion, user) or [])]
