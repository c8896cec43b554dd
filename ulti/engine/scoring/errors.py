"""The one error the scoring engine raises, so callers (form, command line) catch bad input alone."""


class ScoringError(ValueError):
    """A bid, deal or silent achievement the rules do not allow; the message says what is wrong."""
