"""An engine's explanation as a code with parameters: English text for logs and tools, data for the page.

Engines import no Django, so they cannot translate, and they know teams and players only by id. A `Note`
is a `str` (the English sentence, ids in it, so tools, logs and tests read it as before) that also keeps
its `msgid` (marked with the local `gettext_noop`, which makemessages finds) and its `params`. A parameter
that names a team or player is a `Ref` to its id; a parameter may itself be a `Note` (a reason inside a
sentence). The service turns a note into plain data with `as_data(name_of)`, supplying the names, and the
page renders that data with `render(data, gettext)` in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


def gettext_noop(message: str) -> str:
    """Marks a message for makemessages; translated where it is shown."""
    return message


class Ref:
    """A team or player the engine knows by id; the service replaces it by the name."""

    __slots__ = ("id",)

    def __init__(self, id):
        self.id = id

    def __str__(self):
        return str(self.id)

    def __repr__(self):
        return f"Ref({self.id!r})"

    def __eq__(self, other):
        return isinstance(other, Ref) and other.id == self.id

    def __hash__(self):
        return hash(("Ref", self.id))


class Note(str):
    """One sentence: `msgid` with %(name)s placeholders and their `params`; `parts` when several are joined."""

    msgid: str
    params: dict
    parts: tuple[Note, ...]
    sep: str

    def __new__(cls, msgid: str, **params):
        text = msgid % {k: str(v) for k, v in params.items()} if params else msgid
        note = super().__new__(cls, text)
        note.msgid, note.params, note.parts, note.sep = msgid, params, (), ""
        return note

    @classmethod
    def join(cls, notes: Iterable[str], sep: str = "; ") -> Note:
        """Several notes read as one ("a; b"), each kept whole for translation."""
        parts = tuple(n if isinstance(n, Note) else Note(n) for n in notes if n)
        if len(parts) == 1:
            return parts[0]
        note = super().__new__(cls, sep.join(parts))
        note.msgid, note.params, note.parts, note.sep = "", {}, parts, sep
        return note

    def as_data(self, name_of: Callable[[object], str] = str) -> dict:
        """JSON-ready: {"msgid", "params"} (names in place of ids) or {"parts", "sep"}."""
        if self.parts:
            return {"parts": [p.as_data(name_of) for p in self.parts], "sep": self.sep}
        return {"msgid": self.msgid, "params": {k: _value(v, name_of) for k, v in self.params.items()}}


def _value(value, name_of):
    if isinstance(value, Ref):
        return name_of(value.id)
    if isinstance(value, Note):
        return value.as_data(name_of)
    return value


def as_data(note: str, name_of: Callable[[object], str] = str) -> dict:
    """Any engine text as data: a plain string (from an engine not yet speaking in notes) as its msgid."""
    return note.as_data(name_of) if isinstance(note, Note) else {"msgid": str(note), "params": {}}


def render(data: dict, gettext: Callable[[str], str]) -> str:
    """The text of a note's data in the language `gettext` speaks; nested notes are translated too."""
    if "parts" in data:
        return data.get("sep", "; ").join(render(p, gettext) for p in data["parts"])
    msgid = data.get("msgid", "")
    params = data.get("params") or {}
    text = gettext(msgid) if msgid else ""
    if not params:
        return text
    values = {k: render(v, gettext) if isinstance(v, dict) else v for k, v in params.items()}
    try:
        return text % values
    except (KeyError, TypeError, ValueError):
        # A catalogue entry with a wrong placeholder must not break the page: the English reads.
        return msgid % values
