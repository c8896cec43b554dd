"""The portal's search: players, clubs and events by name, accent- and case-insensitive.

Both sides are folded by ``federation.engine.text.search_key`` ("Székely" -> "szekely"): the stored
columns (``Person.search_name``, ``Club.search_name``, ``Event.search_title``, filled on save) and the
query. Every word of the query must occur in the column (LIKE '%word%'); on PostgreSQL the trigram GIN
indexes (federation 0007, tournaments 0005) serve those LIKEs, a near miss ("Szekly") is found by trigram
word similarity, and the hits are ordered by similarity. SQLite runs the same LIKEs without the fuzzy part.

Only what any visitor may see is returned: published events (``public_events_q``), active clubs, people
(whose page is public) by name and club only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.postgres.search import TrigramWordSimilarity
from django.db import connection, transaction
from django.db.models import Prefetch, Q, QuerySet

from federation.engine.text import search_key
from federation.models import Club, Membership, Person

from ..models import Event, public_events_q

LIMIT = 20
MIN_LENGTH = 2
MAX_LENGTH = 100
# Word similarity (0..1) a fuzzy hit needs on PostgreSQL (pg_trgm's own default is 0.6).
FUZZY_THRESHOLD = 0.5


@dataclass
class Results:
    query: str
    people: list = field(default_factory=list)
    clubs: list = field(default_factory=list)
    events: list = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.people or self.clubs or self.events)


def _matching(queryset: QuerySet, column: str, key: str, order: list[str], limit: int) -> list:
    words = key.split()
    every_word = Q()
    for word in words:
        every_word &= Q(**{f"{column}__contains": word})
    if connection.vendor != "postgresql":
        return list(queryset.filter(every_word).order_by(*order)[:limit])
    similarity = TrigramWordSimilarity(key, column)
    hits = list(
        queryset.filter(every_word).annotate(similarity=similarity).order_by("-similarity", *order)[:limit]
    )
    if len(hits) < limit and len(key) >= 3:
        # Near misses only when the exact words leave room: the fuzzy scan is the costly part.
        fuzzy = (
            queryset.filter(**{f"{column}__trigram_word_similar": key})
            .exclude(pk__in=[hit.pk for hit in hits])
            .annotate(similarity=similarity)
            .order_by("-similarity", *order)[: limit - len(hits)]
        )
        hits.extend(fuzzy)
    return hits


def search(query: str, limit: int = LIMIT) -> Results:
    """Players, clubs and public events matching ``query``; nothing for a query under two letters."""
    query = (query or "").strip()[:MAX_LENGTH]
    key = search_key(query)
    results = Results(query=query)
    if len(key.replace(" ", "")) < MIN_LENGTH:
        return results
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # For the `<%` operator of the fuzzy hits, in this transaction only.
                cursor.execute("SET LOCAL pg_trgm.word_similarity_threshold = %s", [FUZZY_THRESHOLD])
        _fill(results, key, limit)
    return results


def _fill(results: Results, key: str, limit: int) -> None:
    memberships = Prefetch(
        "memberships",
        queryset=Membership.objects.filter(is_active=True).select_related("federation", "club"),
    )
    results.people = _matching(
        Person.objects.prefetch_related(memberships),
        "search_name",
        key,
        ["last_name", "first_name", "pk"],
        limit,
    )
    results.clubs = _matching(
        Club.objects.filter(is_active=True).select_related("federation"), "search_name", key, ["name"], limit
    )
    results.events = _matching(
        Event.objects.filter(public_events_q()).select_related("federation", "club"),
        "search_title",
        key,
        ["-start_date", "pk"],
        limit,
    )


def members(query: str, limit: int = 10) -> list[Person]:
    """The person pickers' search: people with an active membership whose name matches ``query``
    (the same folded column and rules as the search page); nothing for a query under two letters."""
    key = search_key((query or "").strip()[:MAX_LENGTH])
    if len(key.replace(" ", "")) < MIN_LENGTH:
        return []
    memberships = Prefetch(
        "memberships",
        queryset=Membership.objects.filter(is_active=True).select_related("federation", "club"),
    )
    people = Person.objects.filter(memberships__is_active=True).distinct().prefetch_related(memberships)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL pg_trgm.word_similarity_threshold = %s", [FUZZY_THRESHOLD])
        return _matching(people, "search_name", key, ["last_name", "first_name", "pk"], limit)
