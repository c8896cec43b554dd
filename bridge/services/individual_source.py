"""The masterpoint source of bridge individual events for the rankings app (rankings/sources.py): final
placings from the stored individual standings once the results are published, each number's share going
to whoever keeps the rights by VSz 25 (the pairs' `roster.player_rights`: under half of the boards, no
right; between the original and his substitute, who played more, the original when equal)."""

from fractions import Fraction

from rankings.sources import EventResult, FinalPlacing, PlayerShare, event_facts, register_source

from ..models import IndividualEvent, IndividualStanding, IndividualSubstitution
from .roster import player_rights


def register() -> None:
    register_source("bridge", individual_result, formats=["individual"])


def _places(place: str) -> tuple[int, int]:
    first, _, last = place.partition("-")
    return int(first), int(last or first)


def _shares(standing, subs) -> tuple[PlayerShare, ...]:
    person = standing.player.person_id
    if person is None:
        return ()
    if not subs:
        return (PlayerShare(person),)
    boards = standing.boards or 1
    rights = player_rights(
        standing.boards, [person], [(person, s.substitute_id, len(s.boards)) for s in subs]
    )
    return tuple(
        PlayerShare(
            right.person_id,
            boards_played_fraction=Fraction(right.boards, boards),
            has_rights=right.has_rights,
            substitute_for=right.substitute_for,
        )
        for right in rights
    )


def individual_result(event):
    """rankings source: fn(event) -> EventResult | None (None while not published or not scored)."""
    if event.format != "individual":
        return None
    if not IndividualEvent.objects.filter(event=event, published_at__isnull=False).exists():
        return None
    standings = list(IndividualStanding.objects.filter(event=event).select_related("player").order_by("rank"))
    if not standings:
        return None
    substitutions: dict[int, list] = {}
    for sub in IndividualSubstitution.objects.filter(event=event):
        substitutions.setdefault(sub.player_id, []).append(sub)
    placings = []
    for standing in standings:
        player = standing.player
        place_from, place_to = _places(standing.place)
        shares = _shares(standing, substitutions.get(player.pk, []))
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
