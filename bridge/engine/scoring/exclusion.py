"""Exclusion of a pair by the director (VSz 23) and its effect on the standings.

VSz 23 lets the director exclude the offenders "from the session, or a part of it, or the whole event";
excluding from the whole event needs the consent of the Appeals Committee as well. The rule names the
measure, not its scoring; the portal reads it as the withdrawal rule reads a pair that plays no further
board (VSz 25): what the pair was excluded from is taken out of the standings.

- From the whole event: every result of the pair, in every session, is taken out, so it is not ranked;
  each opponent of a meeting taken out gets average-plus (VSz 25, 29), as an innocent side.
- From a session: its results of that session are taken out, the other sessions stand; from a part of the
  session: its results on the boards named (the boards it no longer plays) are taken out. Its opponents on
  those boards get average-plus; the excluded pair scores nothing on them (matchpoints are totalled, VSz 26).
"""

from dataclasses import dataclass

SESSION, EVENT = "session", "event"
SCOPES = (SESSION, EVENT)


@dataclass(frozen=True)
class Exclusion:
    pair: int  # the event's pair
    scope: str  # SESSION or EVENT
    session: int  # the number of the session it was excluded in
    boards: frozenset[int] = frozenset()  # SESSION: the boards it no longer plays; empty: the whole session


def refusal(scope: str, boards, committee_consent: bool) -> str | None:
    """Why the measure cannot be recorded as given (a code the service translates), or None."""
    if scope not in SCOPES:
        return "unknown_scope"
    if scope == EVENT and not committee_consent:
        return "needs_committee"  # VSz 23: exclusion from the event needs the Appeals Committee's consent
    if scope == EVENT and boards:
        return "boards_with_event"
    if any(board < 1 for board in boards):
        return "bad_board"
    return None


def boards_out(exclusion: Exclusion, session: int) -> frozenset[int] | None:
    """The boards of session number `session` whose results of the pair leave the standings: None for all of
    them, an empty set for none."""
    if exclusion.scope == EVENT:
        return None
    if session != exclusion.session:
        return frozenset()
    return exclusion.boards or None


def ranked(exclusion: Exclusion) -> bool:
    """An excluded pair stays in the event's standings unless it was excluded from the whole event."""
    return exclusion.scope != EVENT


def out_by_session(exclusions, sessions) -> dict[int, dict[int, frozenset[int] | None]]:
    """Session number -> {pair: boards out (None: all)} over every measure, for the sessions numbered in
    `sessions`; several measures of a pair in one session add up (a whole-session one covers the rest)."""
    out: dict[int, dict[int, frozenset[int] | None]] = {}
    for number in sessions:
        for exclusion in exclusions:
            boards = boards_out(exclusion, number)
            if boards is not None and not boards:
                continue
            here = out.setdefault(number, {})
            if exclusion.pair in here:
                before = here[exclusion.pair]
                here[exclusion.pair] = None if before is None or boards is None else before | boards
            else:
                here[exclusion.pair] = boards
    return out
