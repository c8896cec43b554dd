"""Services of ulti events: load models, call the pure engines, write in one transaction.

Every refusal is an ``UltiError`` carrying translated messages for the director; nothing is written then.
"""

from results import tasks as results_tasks

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
    results.tasks.register_recompute (UltiConfig.ready()), so services never import ulti.tasks."""
    results_tasks.request_recompute(SCOPE, event_id)


__all__ = ["SCOPE", "UltiError", "request_recompute"]
