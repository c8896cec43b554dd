"""The one error the scoring engine raises, so callers (form, command line) catch bad input alone.

A refusal a page can show is a message template marked with the local ``gettext_noop`` (makemessages
finds it; the engine imports no Django) and its named parameters, kept as the engine's own values: a
``Player`` (a player's key, which the page replaces by the name), a ``Bid``, a ``Component`` or
``SilentGame`` (game names the page words in the reader's language), a set of components (listed
alphabetically), a tuple of components (in the bid's spoken order, joined by "+"), or plain text and
numbers. ``str(error)`` is the template filled in English, for the command line and logs.
"""

from __future__ import annotations

from collections.abc import Callable


def gettext_noop(message: str) -> str:
    """Marks a message for makemessages; ``ulti.services.sheets.message`` translates it."""
    return message


class Player(str):
    """A player's key inside a refusal: the command line prints it quoted, a page prints the name."""


def word(value, name_of: Callable[[object], str]) -> str:
    """One parameter as text: `name_of` words a player, bid, component or silent game (English: `english`)."""
    if isinstance(value, frozenset | set):
        return ", ".join(sorted(word(v, name_of) for v in value))
    if isinstance(value, tuple | list):
        sep = " + " if value and not isinstance(value[0], Player) else ", "
        return sep.join(word(v, name_of) for v in value)
    return name_of(value)


def english(value) -> str:
    """The command line's wording: the bid's canonical name and a player's key quoted, labels of games."""
    if isinstance(value, Player):
        return repr(str(value))
    if hasattr(value, "components") and hasattr(value, "name"):  # a Bid (not imported: bids imports us)
        return repr(value.name)
    label = getattr(value, "label", None)
    return label if isinstance(label, str) else str(value)


class ScoringError(ValueError):
    """A bid, deal or silent achievement the rules do not allow.

    `template` is the (English, ``%(name)s``) message id and `params` its values; `code` names the few
    refusals callers tell apart. A refusal raised with plain text (the command line's own) has no params
    and is shown as written."""

    def __init__(self, template: str, code: str = "", **params):
        self.template, self.code, self.params = template, code, params
        super().__init__(self.render(english) if params else template)

    def render(self, name_of: Callable[[object], str], text: str | None = None) -> str:
        """`text` (the template, or its translation) filled with the params worded by `name_of`."""
        text = text or self.template
        return text % {k: word(v, name_of) for k, v in self.params.items()} if self.params else text
