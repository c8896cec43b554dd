"""The table phones' guard, shared by the games' table entry pages (issue #18).

A table code is the permission and codes can be guessed, so every request of a phone page is counted per
client address, and an address that tried too many unknown codes (of either game: one counter) is refused
for a while, known codes included: 429 with Retry-After, as JSON to the page's script or as the game's
start page.
"""

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from federation.client_ip import client_ip
from federation.services.throttle import blocked, throttled

MISS_SCOPE = "table_miss"
MISS_WINDOW = 600  # seconds


def wait_for(request, scope: str) -> int:
    """Seconds this address must wait (it asks too often under `scope`, or guessed too many codes); else 0."""
    ip = client_ip(request)
    wait = throttled([(scope, ip, settings.TABLE_ENTRY_THROTTLE_PER_MINUTE, 60)])
    return max(wait, blocked(MISS_SCOPE, ip, settings.TABLE_CODE_MISSES, MISS_WINDOW))


def missed(request) -> None:
    """Count an unknown code against this address."""
    throttled([(MISS_SCOPE, client_ip(request), settings.TABLE_CODE_MISSES, MISS_WINDOW)])


def wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def refused(request, wait: int, start_template: str):
    text = _("Too many attempts. Try again in %(seconds)d seconds.") % {"seconds": wait}
    if wants_json(request):
        response = JsonResponse({"status": "throttled", "messages": [text]}, status=429)
    else:
        response = render(request, start_template, {"error": text}, status=429)
    response["Retry-After"] = str(wait)
    return response


def start_page(request, *, scope: str, find, template: str, table_url: str):
    """Where a player types his table's code (`?code=`): on to the table's page (`table_url`), or the game's
    start page again with the reason. `find(text)` is the game's code lookup (None: no such table)."""
    code = request.GET.get("code", "")
    if not code:
        return render(request, template, {})
    wait = wait_for(request, scope)
    if wait:
        return refused(request, wait, template)
    found = find(code)
    if found is None:
        missed(request)
        return render(request, template, {"error": _("There is no table with this code.")}, status=404)
    return redirect(table_url, found.code)
