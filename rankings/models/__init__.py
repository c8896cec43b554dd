"""Masterpoint ledger, award schemes, prize payments, ulti ratings, materialised lists and NUB seasons.

The ledger (``Award`` rows grouped in ``AwardVersion``s) is the one source every list is derived from:
re-awarding an event writes a new version and marks the older one superseded, never deleting or changing
an amount. ``ListEntry`` rows are materialised by Celery and stamped (``ListStamp``) with the data version
they reflect; pages never compute a list per request.

Split by topic: the ledger (schemes, awards, prize payments), the ulti rating, the materialised lists and
the NUB season.
"""

from .ledger import Award, AwardScheme, AwardVersion, PaymentResultChange, PrizePayment, RankingState, Reason
from .lists import ListEntry, ListKind, ListStamp
from .rating import PlayerRating, RatedEvent, RatingHistory
from .season import Qualification, Season, SeasonEntry, SeasonTeamEntry, SeasonTieChoice, Stage

__all__ = [
    "Award",
    "AwardScheme",
    "AwardVersion",
    "ListEntry",
    "ListKind",
    "ListStamp",
    "PaymentResultChange",
    "PlayerRating",
    "PrizePayment",
    "Qualification",
    "RankingState",
    "RatedEvent",
    "RatingHistory",
    "Reason",
    "Season",
    "SeasonEntry",
    "SeasonTeamEntry",
    "SeasonTieChoice",
    "Stage",
]
