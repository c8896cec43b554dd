"""What the ulti table page hands its script (issue #18): the sheet so far, the bids with their parts and
the words of the picker, translated here so the script carries no text of its own."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..engine.sheet import BIDS, slots_of
from ..engine.table_entry import (
    KONTRA_LEVELS,
    QUICK_BIDS,
    REVOKE_TIMES,
    kontra_binds_both,
    outcomes_of,
    silent_games_for,
)
from ..services.table_entry import TableState
from .notes import (
    OFFENCE_LABELS,
    OUTCOME_LABELS,
    PHASE_LABELS,
    SILENT_CHOICE_LABELS,
    SILENT_LABELS,
    SLOT_LABELS,
    summarise,
)

# Which answers each silent game offers on the phone (as on the director's sheet form).
SILENT_OPTIONS = {
    "100": ("declarer", "defenders", "declarer_notrick", "defenders_notrick"),
    "aces": ("declarer", "defenders", "defenders_split"),
    "ulti": ("declarer", "defenders", "declarer_failed", "defenders_failed"),
    "durchmars": ("declarer", "defenders"),
}
# The line over the kontras, by `kontra_binds_both` (I.3 (3)): the plain form and the picker say the same.
KONTRA_RULES = {
    True: gettext_lazy(
        "Suited game: one defender's kontra counts for both defenders, so each part has one kontra. "
        "Mark who said it."
    ),
    False: gettext_lazy(
        "No-trump game: a kontra counts only for the defender who said it, and a rekontra only back to him."
    ),
}


def bid_label(name: str) -> str:
    """The bid's Hungarian name, its hyphens unbreakable ("40-100" stays on one line of a narrow sheet)."""
    bid = BIDS.get(name)
    return (bid.hungarian if bid else name).replace("-", "\u2011")


def bid_choices(silent_games) -> list[dict]:
    """Every bid with its parts, whether a kontra binds both defenders (one kontra per part) and the silent
    games worth asking about beside it (as the plain form)."""
    return [
        {
            "name": name,
            "label": bid.hungarian,
            "slots": slots_of(name),
            "kontra_binds_both": kontra_binds_both(name),
            "silent": silent_games_for(name, silent_games),
        }
        for name, bid in BIDS.items()
    ]


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
                # Shown under the bid on the sheet: what the bid and the forints alone do not tell.
                "detailed": bool(
                    entry.record.get("kontra") or entry.record.get("silent") or entry.record.get("revoke")
                ),
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
            "kontra": kontra_words(),
            "kontra_rules": {"both": str(KONTRA_RULES[True]), "own": str(KONTRA_RULES[False])},
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
            "impossible_doubled": _("The impossible part was doubled in the first round of kontras"),
            "nobody": _("none"),
            "conflict_reload": _("The sheet changed on another phone: it is shown again."),
        },
    }


def _choices(name: str, options, chosen: str) -> list[dict]:
    """Radio buttons (or options) of one field: value, label, whether it is the chosen one."""
    return [
        {"id": f"{name}-{i}", "value": str(value), "label": str(label), "checked": str(value) == chosen}
        for i, (value, label) in enumerate(options)
    ]


def kontra_words() -> list[str]:
    return [_("no kontra"), _("kontra"), _("rekontra")]


def revoke_times() -> list[tuple[str, str]]:
    out = []
    for value, (phase, offence) in REVOKE_TIMES.items():
        label = str(PHASE_LABELS[phase])
        if offence:
            label = f"{label}: {OFFENCE_LABELS[offence]}"
        out.append((value, label))
    return out


def plain_form(state: TableState, values: dict, number: int, silent_games, pick: bool = False) -> dict:
    """The plain form of a phone without JavaScript (`ulti.engine.table_entry.plain_record` reads it back).

    Step "pick": the declarer and the bid (a quick bid one tap, any other from the list), one outcome for
    the whole bid, saved at once or taken to step "details", which asks, for that bid and declarer only,
    each part's outcome (the "impossible part doubled" box under them, for the parts that can be
    impossible), the kontras (one per part in a suited game, one per defender and part in a no-trump game:
    I.3 (3)), the silent games the bid leaves open, and a revoke. The
    defaults are the common deal: every part made, no kontra, nothing silent, no revoke. ``values`` are
    the fields to show (a stored deal being corrected, or a refused form sent again); ``pick`` asks for step
    one even when they name a bid and a declarer (another bid for a deal being corrected)."""
    keys = [s.key for s in state.seats]
    declarer = values.get("declarer", "")
    bid = values.get("bid_other") or values.get("bid", "")
    two_bids = bool(values.get("bid_other") and values.get("bid")) and values["bid_other"] != values["bid"]
    correcting = number in state.deals
    form = {
        "number": number,
        "correcting": correcting,
        "step": "details" if declarer in keys and bid in BIDS and not (pick or two_bids) else "pick",
        "declarer": declarer,
        "bid": bid,
        "declarers": _choices(
            "plain-declarer", [(s.key, f"{s.position}. {s.name}") for s in state.seats], declarer
        ),
        "quick": _choices("plain-bid", [(name, bid_label(name)) for name in QUICK_BIDS], bid),
        "others": _choices(
            "plain-other", [(name, b.hungarian) for name, b in BIDS.items() if name not in QUICK_BIDS], bid
        ),
        "outcome": _choices(
            "plain-outcome", [(v, OUTCOME_LABELS[v]) for v in ("won", "lost")], values.get("outcome") or "won"
        ),
    }
    if form["step"] != "details":
        return form
    seat_of = {s.key: s for s in state.seats}
    defenders = [s for s in state.seats if s.key != declarer]
    every = values.get("outcome") or "won"
    levels = list(zip(KONTRA_LEVELS, kontra_words(), strict=True))
    both = kontra_binds_both(bid)
    parts = []
    for slot in slots_of(bid):
        if both:
            # One question for the part (I.3 (3)): nobody, or who said it and how far it went.
            chosen = values.get(f"k_{slot}") or next(
                (
                    f"{d.key}:{values[f'k_{slot}_{d.key}']}"
                    for d in defenders
                    if values.get(f"k_{slot}_{d.key}", "0") != "0"
                ),
                "0",
            )
            # Ids as the no-trump game's: k-<slot>-<key>-1 is that defender's kontra, -2 his rekontra.
            said = [
                {
                    "seat": d,
                    "choices": [
                        {
                            "id": f"k-{slot}-{d.key}-{level}",
                            "value": f"{d.key}:{level}",
                            "label": word,
                            "checked": f"{d.key}:{level}" == chosen,
                        }
                        for level, word in levels
                        if level
                    ],
                }
                for d in defenders
            ]
            none = {"id": f"k-{slot}-0", "value": "0", "label": _("no kontra"), "checked": chosen == "0"}
            kontras = {"name": f"k_{slot}", "none": none, "said": said}
        else:
            kontras = [
                {
                    "seat": d,
                    "choices": _choices(f"k-{slot}-{d.key}", levels, values.get(f"k_{slot}_{d.key}") or "0"),
                    "name": f"k_{slot}_{d.key}",
                }
                for d in defenders
            ]
        outcome = values.get(f"r_{slot}") or every
        parts.append(
            {
                "slot": slot,
                "label": str(SLOT_LABELS[slot]),
                "name": f"r_{slot}",
                "outcomes": _choices(
                    f"r-{slot}", [(v, OUTCOME_LABELS[v]) for v in outcomes_of(slot)], outcome
                ),
                "kontras": kontras,
            }
        )
    silent = []
    for game in silent_games_for(bid, silent_games):
        options = [("", _("none"))] + [(c, SILENT_CHOICE_LABELS[c]) for c in SILENT_OPTIONS[game]]
        silent.append(
            {
                "game": game,
                "name": f"s_{game}",
                "label": str(SILENT_LABELS[game]),
                "choices": _choices(f"s-{game}", options, values.get(f"s_{game}", "")),
            }
        )
    revoker = values.get("rv_player", "")
    form.update(
        declarer_seat=seat_of[declarer],
        bid_label=bid_label(bid),
        parts=parts,
        kontra_binds_both=both,
        kontra_rule=KONTRA_RULES[both],
        can_be_impossible=any(len(p["outcomes"]) > 2 for p in parts),
        impdbl=values.get("impdbl") == "1",
        silent=silent,
        revokers=_choices(
            "rv-player",
            [("", _("none"))] + [(s.key, f"{s.position}. {s.name}") for s in state.seats],
            revoker,
        ),
        revoke_times=_choices("rv-when", revoke_times(), values.get("rv_when") or "play"),
        extras_open=bool(silent and any(values.get(f"s_{g['game']}") for g in silent)) or bool(revoker),
    )
    return form
