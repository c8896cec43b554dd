"""The masterpoint source of bridge individual events for the rankings app (rankings/sources.py): final
placings from the stored individual standings once the results are published."""

from rankings.sources import EventResult, FinalPlacing, PlayerShare, event_facts, register_source

from ..models import IndividualEvent, IndividualStanding


def register() -> None:
    register_source("bridge", individual_result, formats=["individual"])


def _places(place: str) -> tuple[int, int]:
    first, _, last = place.partition("-")
    return int(first), int(last or first)


def individual_result(event):
    """rankings source: fn(event) -> EventResult | None (None while not published or not scored)."""
    if event.format != "individual":
        return None
    if not IndividualEvent.objects.filter(event=event, published_at__isnull=False).exists():
        return None
    standings = list(IndividualStanding.objects.filter(event=event).select_related("player").order_by("rank"))
    if not standings:
        return None
    placings = []
    for standing in standings:
        player = standing.player
        place_from, place_to = _places(standing.place)
        shares = (PlayerShare(player.person_id),) if player.person_id else ()
        key = f"entry-{player.entry_id}" if player.entry_id else f"individual-{player.pk}"
        placings.append(
            FinalPlacing(
                key,
                place_from,
                place_to,
                shares,
                name=player.display_name,
                score=f"{standing.percentage}%".replace(".", ","),
            )
        )
    version = max(s.version for s in standings)
    return EventResult(
        field_size=len(placings),
        version=f"bridge-individual:{version}",
        placings=placings,
        **event_facts(event),
    )
