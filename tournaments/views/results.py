"""The results index: every public event with published results, whatever its game, linked to its page.

Which formats have results pages and which events have published ones, the game apps say through
`tournaments.results_pages` (filled in their AppConfig.ready()), so this layer names no game app.
"""

from django.core.paginator import Paginator
from django.shortcuts import render

from .. import results_pages
from ..filters import ResultsFilter
from ..queries import public_events

PER_PAGE = 50


def results_index(request):
    events = public_events().filter(results_pages.published_q())
    filterset = ResultsFilter(request.GET or None, queryset=events, formats=results_pages.scored_formats())
    refused = filterset.is_bound and not filterset.is_valid()
    events = filterset.qs.select_related("federation", "club").order_by("-start_date", "title", "pk")
    page = Paginator(events, PER_PAGE).get_page(request.GET.get("page"))
    rows = [(event, results_pages.results_url(event)) for event in page]
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "tournaments/results_index.html",
        {"filter": filterset, "rows": rows, "page": page, "query": query.urlencode()},
        status=400 if refused else 200,
    )
