"""Ordering a ranking list with shared places (pure: no Django).

Entries with equal scores share a place ("3-4"); the order in which they are printed inside the shared
place comes from a separate display key (name, then id), so the same input always prints the same list
whatever order it arrived in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["Ranked", "place_label", "rank"]

T = TypeVar("T")


def place_label(place_from: int, place_to: int) -> str:
    """ "3" for a place of its own, "3-4" for a shared one."""
    return str(place_from) if place_from == place_to else f"{place_from}-{place_to}"


@dataclass(frozen=True)
class Ranked(Generic[T]):
    position: int  # 1.. in display order, unique
    place_from: int
    place_to: int
    item: T

    @property
    def place(self) -> str:
        return place_label(self.place_from, self.place_to)

    @property
    def shared(self) -> bool:
        return self.place_from != self.place_to


def rank(
    items: Iterable[T], score: Callable[[T], object], order_key: Callable[[T], object]
) -> list[Ranked[T]]:
    """Rank items by ``score`` (higher is better, compared as a whole); equal scores share a place.

    ``order_key`` orders items inside a shared place (ascending) and must tell every two items apart
    (end it with an id) for the result to be independent of the input order.
    """
    ordered = sorted(items, key=order_key)
    ordered.sort(key=score, reverse=True)  # stable: equal scores keep the display order
    ranked: list[Ranked[T]] = []
    i = 0
    while i < len(ordered):
        j = i
        s = score(ordered[i])
        while j + 1 < len(ordered) and score(ordered[j + 1]) == s:
            j += 1
        for k in range(i, j + 1):
            ranked.append(Ranked(position=k + 1, place_from=i + 1, place_to=j + 1, item=ordered[k]))
        i = j + 1
    return ranked
