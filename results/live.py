"""Live public pages (issue #18), what the games share: a page of results entered at the tables, not yet
published by the director, polls a fragment of itself (`static/js/live.js`) with If-None-Match.

`etag` is the fragment's validator: the event's "computed from version N" stamp (`RecomputeState`), the page
cache's generation of the event (bumped after every recompute's commit and every save that changes what the
pages show) and what the game adds (its publication, the page's kind and parameters), so an unchanged page
costs an indexed row read or two and one cache read. `polled` answers 304 while the tag has not moved, and
otherwise the fragment (served through the page cache by the game's view), tagged.

The 304 is answered before the game's permission check. That is safe: an ETag is only handed out with a page
its client could see, and whatever changes who may see it bumps the event's generation and so the tag.
"""

import hashlib

from django.conf import settings
from django.http import HttpResponseNotModified
from django.utils.cache import patch_vary_headers

from .models import RecomputeState
from .page_cache import HEADER, event_scope, generation

POLL_SECONDS = 5


def poll_seconds() -> int:
    """How often a live page asks again (the LIVE_POLL_SECONDS setting; the browser tests shorten it)."""
    return int(getattr(settings, "LIVE_POLL_SECONDS", POLL_SECONDS))


def etag(event_id: int, scope: str, *parts) -> str:
    """The ETag of a live fragment of the event's results of `scope` (the game's recompute scope)."""
    stamp = (
        RecomputeState.objects.filter(event_id=event_id, scope=scope)
        .values_list("computed_version", "latest_version", "error")
        .first()
    )
    try:
        token = generation(event_scope(event_id))
    except Exception:  # a cache that does not answer: the stamp alone (the pages are not cached then)
        token = ""
    text = "|".join([str(stamp), token, *(str(p) for p in parts)])
    return '"' + hashlib.sha1(text.encode()).hexdigest()[:20] + '"'


def not_modified(tag: str) -> HttpResponseNotModified:
    response = HttpResponseNotModified()
    response["ETag"] = tag
    return response


def polled(request, tag: str | None, fragment):
    """A poll's answer: 304 when the client's copy carries `tag`, else `fragment()` tagged (None: no such
    object, the fragment's own 404)."""
    if tag is not None and tag in request.headers.get("If-None-Match", ""):
        response = not_modified(tag)
    else:
        response = fragment()
        # A copy served while another request renders the new one may be older than the tag: no tag then,
        # so the next poll asks again.
        if tag is not None and response.status_code == 200 and response.get(HEADER) != "stale":
            response["ETag"] = tag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response
