"""Services of ulti events: load models, call the pure engines, write in one transaction.

Every refusal is an ``UltiError`` carrying translated messages for the director; nothing is written then.
"""

from config.celery import enqueue_on_commit
from results.tasks import RECOMPUTE_TASKS

from ..models import SCOPE


class UltiError(ValueError):
    """Input the director must fix; ``messages`` lists every problem found (translated)."""

    def __init__(self, messages):
        if isinstance(messages, str):
            messages = [messages]
        self.messages = [str(m) for m in messages]
        super().__init__("; ".join(self.messages))


def request_recompute(event_id: int) -> None:
    """The event's recompute, published after the commit: the task ulti registered with
    results.tasks.register_recompute (UltiConfig.ready()), so services never import ulti.tasks.

    One message per call, as before: results.tasks.request_recompute sends one per transaction, and an
    upload after an uncommitted one in the same transaction then publishes nothing that
    captureOnCommitCallbacks sees (tests/ulti/test_decision_layers.py: a ruling, then the upload).
    """
    enqueue_on_commit(RECOMPUTE_TASKS[SCOPE], event_id)


__all__ = ["SCOPE", "UltiError", "request_recompute"]
