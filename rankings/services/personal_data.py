"""rankings' sections of the personal-data export (federation.personal_data): results, masterpoints,
ratings and qualifications."""

from federation import personal_data

from ..models import Award, PlayerRating, Qualification, RatingHistory
from .player_page import played_events


def _results(person, user):
    if person is None:
        return []
    return [
        {
            "event": p.event.title,
            "date": p.event.start_date,
            "place_from": p.place_from,
            "place_to": p.place_to,
            "field_size": p.field_size,
            "score": p.score,
            "masterpoints": p.masterpoints,
            "rating": p.rating,
            "rating_change": p.rating_change,
        }
        for p in played_events(person, limit=None)
    ]


def register():
    personal_data.register_section("results", _results)
    personal_data.register_section(
        "masterpoints",
        lambda p, u: (
            Award.objects.filter(person=p, is_current=True).select_related("event", "federation") if p else []
        ),
    )
    personal_data.register_section(
        "rating_history", lambda p, u: RatingHistory.objects.filter(person=p) if p else []
    )
    personal_data.register_section("ratings", lambda p, u: PlayerRating.objects.filter(person=p) if p else [])
    personal_data.register_section(
        "qualifications", lambda p, u: Qualification.objects.filter(person=p) if p else []
    )
