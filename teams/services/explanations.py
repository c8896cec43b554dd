"""A pairing's explanation as stored: the engine's note with the teams' names, translated when shown.

Round.explanation and Match.explanation are text columns; a note is kept there as JSON ({"msgid", "params"}
or {"parts"}, see federation.engine.notes) so each reader gets it in his own language. Text written before
(or by hand) is not JSON and is shown through gettext as it stands.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext

from federation.engine import notes

_NAME_CHARS = 60  # a team's name inside a stored note; keeps a match's note within its 500 characters


def stored(note: str, names: dict | None = None, limit: int | None = None) -> str:
    """The JSON of `note`, every team id replaced by its name (from `names`); within `limit` characters."""

    def name_of(team_id):
        return str((names or {}).get(team_id, team_id))[:_NAME_CHARS]

    data = notes.as_data(note, name_of)
    text = json.dumps(data, ensure_ascii=False)
    while limit is not None and len(text) > limit and len(data.get("parts", ())) > 1:
        data["parts"] = data["parts"][:-1]  # the first parts say the most (ranks, rematch)
        text = json.dumps(data, ensure_ascii=False)
    if limit is not None and len(text) > limit:
        return str(note)[:limit]
    return text


def shown(text: str) -> str:
    """The explanation in the active language."""
    if not text:
        return ""
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict):
            return notes.render(data, gettext)
    return gettext(text)
