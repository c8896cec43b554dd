"""Services of the teams app: load models, call an engine, write the result in one transaction.

`setup` (the event's options and its teams), `pairing` (generate, publish, edit a round), `uploads` (the
one way a match's result gets in: read, parse, store), `results` (versions of results and line-ups,
decisions), `recompute` (the task's work), `source` (final result for the rankings).
"""


class Refused(Exception):
    """A director's action the rules do not allow; `messages` say why, nothing was written."""

    def __init__(self, *messages):
        self.messages = [str(m) for m in messages]
        super().__init__("; ".join(self.messages))
