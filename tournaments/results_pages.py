"""Where an event's results are shown: a registry the game apps fill in their AppConfig.ready().

tournaments sits below the games, so it cannot name their pages or models. Each game registers, for the
formats it scores, the URL name of an event's results page (taking the event's pk) and a function returning
the ids of the events that have published results::

    register_results_page([Event.Format.PAIRS], "bridge_event", published_pair_events)

A format nobody registers has no results page: the event page
offers no results link and the results index does not list it.

The games also register where results are live (issue #18: entered at the tables, not yet published), so the
home page can send a spectator straight to them::

    register_live_pages(live_sessions)  # (event ids) -> LiveLinks of their sessions / rounds being played
"""

from dataclasses import dataclass

from django.db.models import Q
from django.urls import reverse


@dataclass(frozen=True)
class ResultsPage:
    url_name: str
    published: object  # () -> a queryset (or iterable) of the ids of events with published results


_pages: dict[str, ResultsPage] = {}


def register_results_page(formats, url_name, published) -> None:
    for format_ in formats:
        _pages[str(format_)] = ResultsPage(url_name, published)


def scored_formats() -> tuple[str, ...]:
    return tuple(_pages)


def results_url(event) -> str | None:
    """The event's results page, or None when its format has none."""
    page = _pages.get(event.format)
    return reverse(page.url_name, args=[event.pk]) if page else None


def published_q() -> Q:
    """Events of a scored format that have published results."""
    q = Q(pk__in=[])
    for format_, page in _pages.items():
        q |= Q(format=format_, pk__in=page.published())
    return q


@dataclass(frozen=True)
class LiveLink:
    """A session or round whose results are being entered at the tables: its live page."""

    event_id: int
    label: str  # what is being played, e.g. "1. forduló"
    url: str


_live_finders: list = []


def register_live_pages(find) -> None:
    """`find(event_ids)` returns the LiveLinks of those events' sessions or rounds that are live now."""
    _live_finders.append(find)


def live_links(event_ids) -> dict[int, list[LiveLink]]:
    """event id -> its live sessions / rounds, over every game."""
    ids = list(event_ids)
    out: dict[int, list[LiveLink]] = {}
    for find in _live_finders if ids else []:
        for link in find(ids):
            out.setdefault(link.event_id, []).append(link)
    return out
