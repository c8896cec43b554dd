"""The recompute behind the Celery tasks (bridge.tasks), in the modules of its seams:

- event: the whole event (every session's latest version through the engine, the standings replaced);
- boards: one session's changed boards through the incremental engine (falls back to `event`);
- standings: the BoardScore, SessionStanding and EventStanding rows both write;
- hand_records: which sessions' deals need their double-dummy analysis;
- common: the rows read (seats, versions, sessions) and the engine's refusal.
"""

from .boards import recompute_boards
from .common import ScoringError
from .event import recompute_event, record_failure

__all__ = ["ScoringError", "recompute_boards", "recompute_event", "record_failure"]
