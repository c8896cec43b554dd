"""Services of ulti events: load models, call the pure engines, write in one transaction.

Every refusal is an ``UltiError`` carrying translated messages for the director; nothing is written then.
"""

from ..models import SCOPE


class UltiError(ValueError):
    """Input the director must fix; ``messages`` lists every problem found (translated)."""

    def __init__(self, messages):
        if isinstance(messages, str):
            messages = [messages]
        self.messages = [str(m) for m in messages]
        super().__init__("; ".join(self.messages))


__all__ = ["SCOPE", "UltiError"]
