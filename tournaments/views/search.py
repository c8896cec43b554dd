"""The search page (/search/?q=): players, clubs and public events; throttled per client address."""

from django.conf import settings
from django.shortcuts import render
from django.utils.translation import gettext as _

from federation.client_ip import client_ip
from federation.services.throttle import throttled

from ..services.search import MIN_LENGTH, search


def search_page(request):
    query = request.GET.get("q", "")
    context = {"query": query, "results": None, "min_length": MIN_LENGTH}
    if query.strip():
        wait = throttled([("search_ip", client_ip(request), settings.SEARCH_THROTTLE_PER_MINUTE, 60)])
        if wait:
            context["throttled"] = _("Too many searches. Try again in %(seconds)d seconds.") % {
                "seconds": wait
            }
            response = render(request, "tournaments/search.html", context, status=429)
            response["Retry-After"] = str(wait)
            return response
        context["results"] = search(query)
    return render(request, "tournaments/search.html", context)
