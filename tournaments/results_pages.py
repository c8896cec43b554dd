"""Where an event's results are shown: a registry the game apps fill in their AppConfig.ready().

tournaments sits below the games, so it cannot name their pages or models. Each game registers, for the
formats it scores, the URL name of an event's results page (taking the event's pk) and a function returning
the ids of the events that have published results::

    register_results_page([Event.Format.PAIRS], "bridge_event", published_pair_events)

A format nobody registers has no results page: the event page
offers no results link and the results index does not list it.
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
