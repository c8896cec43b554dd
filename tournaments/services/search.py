"""The portal's search: players, clubs and events by name, accent- and case-insensitive.

Both sides are folded by ``federation.engine.text.search_key`` ("Székely" -> "szekely"): the stored
columns (``Person.search_name``, ``Club.search_name``, ``Event.search_title``, filled on save) and the
query. Names that start with the query come first (a people's b-tree prefix index on PostgreSQL,
federation 0010), then those where every word of the query occurs (LIKE '%word%'; on PostgreSQL the trigram
GIN indexes of federation 0007 and tournaments 0005 serve those LIKEs, best word similarity first), then on
PostgreSQL near misses ("Szekly", the GIN index's ``%>``; its threshold set once per connection). SQLite
runs the same LIKEs without the fuzzy part. For people each tier runs only while the ones before leave room
under the limit; clubs and events, far fewer, are ranked in one query.

Only what any visitor may see is returned: published events (``public_events_q``), active clubs, people
(whose page is public) by name and club only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.postgres.search import TrigramWordSimilarity
from django.db import connection
from django.db.models import Case, Exists, F, OuterRef, Prefetch, Q, QuerySet, Value, When
from django.db.models.functions import Collate

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


def set_fuzzy_threshold(sender, connection, **kwargs):
    """``connection_created`` receiver (``TournamentsConfig.ready``): the fuzzy tier's ``%>`` threshold on
    every new PostgreSQL connection, once, instead of a transaction and a SET LOCAL per search."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT set_config('pg_trgm.word_similarity_threshold', %s, false)", [str(FUZZY_THRESHOLD)]
            )


def _ordered_by_column(queryset: QuerySet, column: str) -> QuerySet:
    """In the folded column's order: on PostgreSQL byte order (COLLATE "C", the order of the b-tree
    prefix index), which for the folded ASCII text is the alphabet's."""
    if connection.vendor == "postgresql":
        return queryset.order_by(Collate(F(column), "C").asc(), "pk")
    return queryset.order_by(column, "pk")


def _conditions(column: str, key: str) -> tuple[Q, Q, Q | None]:
    """(starts with the query, every word occurs, near miss: PostgreSQL and three letters or more)."""
    every_word = Q()
    for word in key.split():
        every_word &= Q(**{f"{column}__contains": word})
    fuzzy = None
    if connection.vendor == "postgresql" and len(key) >= 3:
        fuzzy = Q(**{f"{column}__trigram_word_similar": key})
    return Q(**{f"{column}__startswith": key}), every_word, fuzzy


def _matching_people(queryset: QuerySet, key: str, limit: int) -> list:
    """Up to ``limit`` people in three tiers, each asked only while the ones before leave room:

    1. the name ("last first") starts with the query ("szekely a" -> "szekely arpad"), alphabetical: the
       b-tree prefix index (federation 0010) reads just ``limit`` rows however common the name;
    2. every word of the query occurs somewhere (LIKE '%word%', the trigram GIN index), best word
       similarity first on PostgreSQL, by name on SQLite;
    3. on PostgreSQL only, near misses ("szkely"): the ``%>`` operator (word similarity over
       ``FUZZY_THRESHOLD``) answered by the trigram GIN index.
    """
    order = ["last_name", "first_name", "pk"]
    prefix, every_word, fuzzy = _conditions("search_name", key)
    hits = list(_ordered_by_column(queryset.filter(prefix), "search_name")[:limit])
    if len(hits) >= limit:
        return hits
    contains = queryset.filter(every_word).exclude(prefix)
    if connection.vendor != "postgresql":
        return hits + list(contains.order_by(*order)[: limit - len(hits)])
    similarity = TrigramWordSimilarity(key, "search_name")
    hits += contains.annotate(similarity=similarity).order_by("-similarity", *order)[: limit - len(hits)]
    if len(hits) < limit and fuzzy is not None:
        # Near misses only when the exact words leave room: the fuzzy scan is the costly part.
        near = queryset.filter(fuzzy).exclude(every_word).annotate(similarity=similarity)
        hits += near.order_by("-similarity", *order)[: limit - len(hits)]
    return hits


def _matching_few(queryset: QuerySet, column: str, key: str, order: list[str], limit: int) -> list:
    """Clubs and events (thousands of rows, not a hundred thousand): the same tiers in one query, names
    starting with the query first, then every word found, then (PostgreSQL) the near misses by similarity."""
    prefix, every_word, fuzzy = _conditions(column, key)
    ranked = queryset.filter(every_word if fuzzy is None else every_word | fuzzy).annotate(
        tier=Case(When(prefix, then=Value(0)), When(every_word, then=Value(1)), default=Value(2))
    )
    if connection.vendor == "postgresql":
        ranked = ranked.annotate(similarity=TrigramWordSimilarity(key, column))
        return list(ranked.order_by("tier", "-similarity", *order)[:limit])
    return list(ranked.order_by("tier", *order)[:limit])


def search(query: str, limit: int = LIMIT) -> Results:
    """Players, clubs and public events matching ``query``; nothing for a query under two letters."""
    query = (query or "").strip()[:MAX_LENGTH]
    key = search_key(query)
    results = Results(query=query)
    if len(key.replace(" ", "")) < MIN_LENGTH:
        return results
    memberships = Prefetch(
        "memberships",
        queryset=Membership.objects.filter(is_active=True).select_related("federation", "club"),
    )
    results.people = _matching_people(Person.objects.prefetch_related(memberships), key, limit)
    results.clubs = _matching_few(
        Club.objects.filter(is_active=True).select_related("federation"), "search_name", key, ["name"], limit
    )
    results.events = _matching_few(
        Event.objects.filter(public_events_q()).select_related("federation", "club"),
        "search_title",
        key,
        ["-start_date", "pk"],
        limit,
    )
    return results


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
    active = Membership.objects.filter(person=OuterRef("pk"), is_active=True)
    people = Person.objects.filter(Exists(active)).prefetch_related(memberships)
    return _matching_people(people, key, limit)
