"""The masterpoint source of bridge pair events for the rankings app (rankings/sources.py).

Final placings with each player's right by VSz 25, read from the stored event standings. An event is
final once every session that has results is published; until then the source has nothing to give.
"""

from fractions import Fraction

from django.db.models import Exists, OuterRef

from rankings.sources import EventResult, FinalPlacing, PlayerShare, event_facts, register_source

from ..models import EventStanding, PairSession, ResultVersion


def register() -> None:
    register_source("bridge", bridge_pair_result, formats=["pairs"])


def bridge_pair_result(event):
    """rankings source: fn(event) -> EventResult | None (None for other formats or while not final)."""
    if event.format != "pairs":
        return None
    # Which sessions have results, without reading their versions (each holds its uploaded file).
    has_results = Exists(ResultVersion.objects.filter(session=OuterRef("pk")))
    published = list(
        PairSession.objects.filter(event=event).filter(has_results).values_list("published_at", flat=True)
    )
    if not published or any(at is None for at in published):
        return None
    standings = list(
        EventStanding.objects.filter(event=event).select_related("pair").order_by("field", "order")
    )
    if not standings:
        return None
    placings = []
    for standing in standings:
        pair = standing.pair
        boards = standing.boards or 1
        players = tuple(
            PlayerShare(
                right["person_id"],
                boards_played_fraction=Fraction(right["boards"], boards),
                has_rights=right["has_rights"],
                substitute_for=right["substitute_for"],
            )
            for right in standing.rights
        )
        key = f"entry-{pair.entry_id}" if pair.entry_id else f"pair-{pair.pk}"
        placings.append(
            FinalPlacing(
                key,
                standing.place_from,
                standing.place_to,
                players,
                name=pair.display_name,
                score=f"{standing.percentage}%".replace(".", ","),
            )
        )
    version = max(s.event_version for s in standings)
    return EventResult(
        field_size=len(placings), version=f"bridge-pairs:{version}", placings=placings, **event_facts(event)
    )
