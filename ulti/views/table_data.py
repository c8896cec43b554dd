"""What the ulti table page hands its script (issue #18): the sheet so far, the bids with their parts and
the words of the picker, translated here so the script carries no text of its own."""

from django.utils.translation import gettext as _

from ..engine.sheet import BIDS, slots_of
from ..services.table_entry import TableState
from .notes import OUTCOME_LABELS, PHASE_LABELS, SILENT_CHOICE_LABELS, SILENT_LABELS, SLOT_LABELS, summarise

# Which answers each silent game offers on the phone (as on the director's sheet form).
SILENT_OPTIONS = {
    "100": ("declarer", "defenders", "declarer_notrick", "defenders_notrick"),
    "aces": ("declarer", "defenders", "defenders_split"),
    "ulti": ("declarer", "defenders", "declarer_failed", "defenders_failed"),
    "durchmars": ("declarer", "defenders"),
}


def bid_label(name: str) -> str:
    """The bid's Hungarian name, its hyphens unbreakable ("40-100" stays on one line of a narrow sheet)."""
    bid = BIDS.get(name)
    return (bid.hungarian if bid else name).replace("-", "\u2011")


def bid_choices() -> list[dict]:
    return [{"name": name, "label": bid.hungarian, "slots": slots_of(name)} for name, bid in BIDS.items()]


def entry_data(entry) -> dict | None:
    if entry is None:
        return None
    return {
        "id": entry.pk,
        "kind": entry.kind,
        "number": entry.number,
        "bid": entry.record.get("bid", ""),
        "label": bid_label(entry.record.get("bid", "")),
        "forints": entry.forints,
        "applied": entry.upload_id is not None,
        "problem": entry.problem,
    }


def sheet_data(state: TableState) -> dict:
    keys = [s.key for s in state.seats]
    running = dict.fromkeys(keys, 0)
    deals = []
    for entry in state.ordered:
        for key in keys:
            running[key] += int(entry.forints.get(key, 0))
        deals.append(
            {
                "id": entry.pk,
                "number": entry.number,
                "declarer": entry.record.get("declarer"),
                "bid": entry.record.get("bid"),
                "label": bid_label(entry.record.get("bid", "")),
                "summary": summarise(entry.record, keys),
                "record": entry.record,
                "forints": entry.forints,
                "running": dict(running),
            }
        )
    head = state.head
    silent_words = {game: str(label) for game, label in SILENT_LABELS.items()}
    return {
        "seats": [{"key": s.key, "pk": s.pk, "name": s.name, "position": s.position} for s in state.seats],
        "deals": deals,
        "head": head.pk if head else None,
        "required": state.required,
        "unit": state.unit,
        "status": state.status,
        "words": {
            "slots": {slot: str(label) for slot, label in SLOT_LABELS.items()},
            "outcomes": {k: str(v) for k, v in OUTCOME_LABELS.items()},
            "silent": silent_words,
            "silent_choices": {k: str(v) for k, v in SILENT_CHOICE_LABELS.items()},
            "silent_options": {k: list(v) for k, v in SILENT_OPTIONS.items()},
            "phases": {k: str(v) for k, v in PHASE_LABELS.items()},
            "kontra": [_("no kontra"), _("kontra"), _("rekontra")],
            "deal": _("Deal %(n)s"),
            "queued": _("waiting to be sent"),
            "offline": _("No network: the entry is kept on this phone and sent when the network is back."),
            "sent": _("Kept entries sent."),
            "pick_declarer": _("Tap the declarer first."),
            "pick_bid": _("Tap the bid."),
            "declarer": _("Declarer"),
            "bid": _("Bid"),
            "other_bid": _("Other bid…"),
            "extras": _("Kontra, silent achievements, revoke"),
            "save": _("Save the deal"),
            "correcting": _("correction"),
            "new_deal": _("New deal instead"),
            "revoke": _("Revoke (renonsz)"),
            "nobody": _("none"),
            "conflict_reload": _("The sheet changed on another phone: it is shown again."),
        },
    }
