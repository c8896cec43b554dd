"""Announced session start times that may not be moved into the past (issue #15).

A game app whose secrets open when a session starts (bridge: sealed computer-dealt sets, VSz 21) registers
a check in its AppConfig.ready(); while any check holds a session, its start time can be moved later but
not into the past, by any path that saves the row: the announcement form, the admin (both through
`Session.clean`), the staff's "move date" (`workflow.move`) and, as the last net, `Session.save`.
Opening the secrets is the game app's own recorded fact (for bridge, bridge.SessionStart), never this time.
"""

from django.utils import timezone
from django.utils.translation import gettext as _

_checks = []


def register_sealed_check(check) -> None:
    """`check(session)` -> True while the tournaments.Session holds something sealed until its start."""
    if check not in _checks:
        _checks.append(check)


def is_sealed(session) -> bool:
    return session.pk is not None and any(check(session) for check in _checks)


def refusal(session, new_start, now=None) -> str:
    """Why `new_start` may not be saved for `session` ("" if it may): into the past while sealed."""
    if new_start is None or session.pk is None or new_start > (now or timezone.now()):
        return ""
    old = type(session).objects.filter(pk=session.pk).values_list("starts_at", flat=True).first()
    if old is None or old == new_start or not is_sealed(session):
        return ""
    return _(
        "The deals of this session are sealed until it starts, so its start time cannot be moved into the "
        "past. Give a later time, or start the session on the director's page."
    )
