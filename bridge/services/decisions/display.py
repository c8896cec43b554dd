"""What the director and the API see of the decisions: the affected ones as plain data (`describe`, the
confirmation page and the API's 409 answer) and those a version reflects (`summary`).
"""

from django.utils.translation import gettext as _

from ...models import PairSession, ResultVersion, SessionPair
from ..exports import pair_labels
from .layers import KINDS, delta_of, in_force, kind_of, label_of
from .reapply import Affected


def _result_text(row: dict | None) -> str:
    if row is None:
        return "—"
    if row.get("deal_group") is not None:
        plain = _result_text({**row, "deal_group": None})
        return _("%(result)s, deal %(group)s") % {"result": plain, "group": row["deal_group"]}
    if row.get("artificial"):
        return row["artificial"]
    parts = [row.get("contract") or "", row.get("declarer") or ""]
    if row.get("tricks") is not None:
        parts.append(str(row["tricks"]))
    if row.get("score") is not None:
        parts.append(f"{row['score']:+d}")
    return " ".join(p for p in parts if p) or "—"


def _value(row: dict | None) -> dict | None:
    if row is None:
        return None
    return {f: row.get(f) for f in ("contract", "declarer", "tricks", "score", "artificial")}


def _individual_sides(event_id: int):
    """side(players) -> {"number": "3-7", "name": "A / B"} of an individual event's two players."""
    from ...models import IndividualPlayer

    names = {p.number: p.display_name for p in IndividualPlayer.objects.filter(event_id=event_id)}

    def side(*numbers):
        return {
            "id": None,
            "number": "–".join(str(n) for n in numbers),
            "name": " / ".join(str(names.get(n, n)) for n in numbers),
        }

    return side


def describe(session, affected: list[Affected]) -> list[dict]:
    """The affected decisions as plain data: for the confirmation page and the API's 409 answer.
    `session`: the PairSession, or the IndividualEvent of an individual event's decisions."""
    individual = not isinstance(session, PairSession)
    seats = (
        {}
        if individual
        else {
            s.pk: s
            for s in SessionPair.objects.filter(section__session=session).select_related(
                "section", "pair__player1", "pair__player2"
            )
        }
    )
    labels = {} if individual else pair_labels(session)
    side = _individual_sides(session.event_id) if individual else None

    def pair(pair_id):
        if pair_id is None:
            return None
        seat = seats.get(pair_id)
        return {
            "id": pair_id,
            "number": labels.get(pair_id, ""),
            "name": seat.pair.display_name if seat else "",
        }

    out = []
    for item in affected:
        d = item.decision
        kind = kind_of(d, item.delta)
        conflicts = []
        for c in item.conflicts:
            if c.grouping:
                conflicts.append(
                    {
                        "board": c.board,
                        "ns": None,
                        "ew": None,
                        "upload": _value(c.upload),
                        "decision": {"deal_groups": True},
                        "upload_text": _("the board's tables changed"),
                        "decision_text": _("deal groups of a fouled board"),
                    }
                )
                continue
            if c.penalty:
                text = f"−{c.decision['percent']}%"
                conflicts.append(
                    {
                        "board": c.board,
                        "ns": pair(c.ns_id),
                        "ew": None,
                        "upload": _value(c.upload),
                        "decision": {"penalty_percent": str(c.decision["percent"])},
                        "upload_text": _("%(result)s, no penalty") % {"result": _result_text(c.upload)},
                        "decision_text": text,
                    }
                )
                continue
            if c.players:  # an individual event's row: N-S and E-W by the players' numbers
                north, south, east, west = c.players
                ns, ew = side(north, south), side(east, west)
            else:
                ns, ew = pair(c.ns_id), pair(c.ew_id)
            conflicts.append(
                {
                    "board": c.board,
                    "ns": ns,
                    "ew": ew,
                    "upload": _value(c.upload),
                    "decision": _value(c.decision),
                    "upload_text": _result_text(c.upload),
                    "decision_text": _result_text(c.decision),
                }
            )
        out.append(
            {
                "id": d.pk,
                "version": d.number,
                "kind": kind,
                "kind_display": str(KINDS[kind]),
                "label": label_of(d, kind),
                "by": d.uploaded_by.get_full_name() or d.uploaded_by.email or d.uploaded_by.username,
                "at": d.uploaded_at,
                "reason": d.note,
                "conflicts": conflicts,
            }
        )
    return out


def summary(version: ResultVersion | None) -> list[dict]:
    """What `version` reflects: each decision in force with its label and the boards it touched."""
    out = []
    for decision in in_force(version):
        delta = delta_of(decision)
        kind = kind_of(decision, delta)
        boards = sorted(
            {r["board"] for r in delta.rows}
            | {p["board"] for p in delta.penalties if p["board"]}
            | {key[0] for key in delta.groups}
        )
        out.append({"decision": decision, "kind": kind, "label": label_of(decision, kind), "boards": boards})
    return out
