"""The one error the scoring engine raises, so callers (form, command line) catch bad input alone."""


class ScoringError(ValueError):
    """A bid, deal or silent achievement the rules do not allow; the message says what is wrong (in English,
    for the command line and logs). `code` and `params` name the refusal for a page that words it in the
    reader's language (`ulti.services.sheets.message`); a refusal without a code is shown as its message."""

    def __init__(self, message: str, code: str = "", **params):
        super().__init__(message)
        self.code, self.params = code, params
