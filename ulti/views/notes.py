"""Words for stored data: the draw's explanations and a score sheet line, translated when shown."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from federation.engine import notes as engine_notes


def describe(note: dict) -> dict:
    """{"text": ..., "level": "info" | "warning" | "muted"} for one stored explanation of a draw."""
    kind = note.get("kind")
    if kind == "seeded":
        text = _(
            "Round 1 is seeded by the live ratings: every table gets one player from each third of the list."
        )
        return {"text": text, "level": "info"}
    if kind == "bye":
        return {"text": _("%(player)s has the bye (erőnyerő).") % note, "level": "info"}
    if kind == "second_bye":
        return {
            "text": _("%(player)s gets a second bye: everybody has had one already.") % note,
            "level": "warning",
        }
    if kind == "repeat":
        return {"text": _("Table %(table)s: %(a)s and %(b)s meet again.") % note, "level": "warning"}
    if kind == "pulled":
        text = _("Table %(table)s: %(player)s was moved up so that nobody meets an earlier opponent.") % note
        return {"text": text, "level": "info"}
    if kind == "kirkman":
        text = (
            _("All-play-all schedule for %(players)s players, checked: every pair meets exactly once.") % note
        )
        return {"text": text, "level": "info"}
    if kind == "schedule":
        text = (
            _(
                "All-play-all schedule for %(players)s players: %(repeats)s repeat meeting(s), %(missing)s pair(s) "
                "never meet (no perfect schedule exists for this field)."
            )
            % note
        )
        return {"text": text, "level": "warning"}
    if kind == "manual":
        warnings = note.get("warnings") or []
        text = _("Tables edited by hand.") + (" " + " ".join(warnings) if warnings else "")
        return {"text": text, "level": "warning" if warnings else "info"}
    if kind == "engine" and "text" not in note:
        return {"text": engine_notes.render(note, _), "level": "muted"}
    return {"text": note.get("text", ""), "level": "muted"}


SLOT_LABELS = {
    "parti": gettext_lazy("parti"),
    "hundred": gettext_lazy("40-100 / 20-100"),
    "ulti": gettext_lazy("ulti"),
    "aces": gettext_lazy("four aces"),
    "durchmars": gettext_lazy("durchmars"),
    "betli": gettext_lazy("betli"),
}
# "failed", "made" mean other things elsewhere in the portal: the context keeps the ulti words.
OUTCOME_LABELS = {
    "won": pgettext_lazy("ulti", "made"),
    "lost": pgettext_lazy("ulti", "failed"),
    "impossible": pgettext_lazy("ulti", "impossible"),
}
SILENT_LABELS = {
    "100": gettext_lazy("silent 100"),
    "aces": gettext_lazy("silent four aces"),
    "ulti": gettext_lazy("silent ulti"),
    "durchmars": gettext_lazy("silent durchmars"),
}
SILENT_CHOICE_LABELS = {
    "declarer": gettext_lazy("declarer"),
    "defenders": gettext_lazy("defenders"),
    "defenders_split": gettext_lazy("defenders, split (does not count)"),
    "declarer_failed": gettext_lazy("declarer, failed"),
    "defenders_failed": gettext_lazy("defenders, failed"),
    "declarer_notrick": gettext_lazy("declarer, melds only, no trick (does not count)"),
    "defenders_notrick": gettext_lazy("defenders, melds only, no trick (does not count)"),
}
PHASE_LABELS = {
    "deal": gettext_lazy("while dealing"),
    "bidding": gettext_lazy("in the bidding"),
    "play": gettext_lazy("in play"),
}
OFFENCE_LABELS = {
    "talon": gettext_lazy("talon"),
    "trump suit": gettext_lazy("trump suit revealed"),
}


def summarise(record: dict, keys: list[str]) -> str:
    """One line of what happened in a deal, for the printed sheet: outcomes, kontras, silent games, revoke."""

    def seat(key):
        return str(keys.index(key) + 1) if key in keys else "?"

    parts = []
    for slot, outcome in record.get("results", {}).items():
        text = f"{SLOT_LABELS.get(slot, slot)} {OUTCOME_LABELS.get(outcome, outcome)}"
        levels = record.get("kontra", {}).get(slot, {})
        for key, level in levels.items():
            word = _("kontra") if int(level) == 1 else _("rekontra")
            text += f", {word} ({seat(key)})"
        parts.append(text)
    for game, choice in record.get("silent", {}).items():
        parts.append(f"{SILENT_LABELS.get(game, game)}: {SILENT_CHOICE_LABELS.get(choice, choice)}")
    revoke = record.get("revoke")
    if revoke:
        text = _("revoke by %(seat)s %(phase)s") % {
            "seat": seat(revoke.get("player")),
            "phase": PHASE_LABELS.get(revoke.get("phase"), ""),
        }
        parts.append(text)
    return "; ".join(parts)
