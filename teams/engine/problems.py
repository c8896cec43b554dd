"""A refusal as the engine states it: an untranslated message and its values, translated by the caller.

The engine imports no Django, so it cannot translate; each message is marked with the local
`gettext_noop` (makemessages finds it), and the web or service layer renders it with gettext:
`problem.render(gettext)` translates the message, then each value that is itself a `Problem`.
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Marks a message for makemessages; translated where it is shown."""
    return message


class Problem:
    """One message: `msgid` (marked with `gettext_noop`) and the values its %(name)s placeholders take."""

    def __init__(self, msgid: str, **params):
        self.msgid = msgid
        self.params = params

    def render(self, gettext) -> str:
        text = gettext(self.msgid)
        if not self.params:
            return text
        return text % {k: v.render(gettext) if isinstance(v, Problem) else v for k, v in self.params.items()}

    def __str__(self):
        return self.render(str)

    def __repr__(self):
        return f"Problem({self.msgid!r}, **{self.params!r})"


class ParseError(ValueError):
    """Input the engine refuses: `problems`, each naming the line or the board; nothing is written."""

    def __init__(self, problems: Problem | list[Problem]):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


def problem_of(error: ValueError) -> Problem | str:
    """The reason a ValueError gives: the engine's Problem, or the text of another (untranslated) error."""
    if isinstance(error, ParseError) and len(error.problems) == 1:
        return error.problems[0]
    return str(error)
