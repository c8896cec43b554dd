"""Live public pages (issue #18), what the games share: a page of results entered at the tables, not yet
published by the director, polls a fragment of itself (`static/js/live.js`) with If-None-Match.

Two kinds of ETag, one per kind of answer:

* an anonymous visitor's fragment is the page cache's shared copy (`page_cache.cache_public_page`), and its
  tag is a digest of the fragment's bytes (`content_tag`): it moves only when what the fragment shows moves,
  not with every recompute of the event (a frequency sheet stays 304 while the standings change);
* a logged-in visitor's fragment is his own (personal bits), its tag `etag`: the event's "computed from
  version N" stamp (`RecomputeState`), the page cache's generation of the event and what the game adds (its
  publication, the page's kind and parameters), so an unchanged page costs a row read or two and one cache
  read, answered 304 before the fragment is rendered. That 304 comes before the game's permission check:
  safe, an ETag is only handed out with a page its client could see, and whatever changes who may see it
  bumps the event's generation and so the tag.

`FastPolls`, the WSGI layer in front of Django (config/wsgi.py), answers an anonymous poll from the page
cache's polled entry (the whole answer Django gave, `page_cache.store_poll`) with one cache read and no
database: 304 or the stored bytes, the headers exactly as Django sent them. It answers only what Django
answered before for the same raw inputs (path, query string, host and scheme, language cookie), only to a
request without a session, messages or Authorization header, and only while the scopes' generations are
those the entry was rendered under — or, while their visibility tokens are, the copy of a moment ago (a
recompute changes what a page shows, never who may see it; anything that may bumps the visibility token).
Anything else goes to Django, whose answer (if the page cache says it is a fresh shared copy) is kept for
the next polls.

A copy outdated by a recompute is rendered again at most every `LIVE_RENDER_SECONDS` (a live page itself:
`LIVE_PAGE_RENDER_SECONDS`), by one request at a time (a lock in the cache), and not on that request's
time: it is answered from the copy of a moment ago and the new copy is rendered after it, on a thread of the
worker's own (`LIVE_RENDER_IN_BACKGROUND`, on by default), so that no viewer waits for a rendering while a
copy he may see is at hand. On a live tournament day the standings change several times a second:
otherwise one poll in ~25 and nearly every page load would wait for a render (30-60 ms of CPU in a quiet
process, hundreds of ms on a busy one).

It answers the anonymous loads of the live pages themselves (`live_pages`, page-cached views) the same way:
their copy carries the visitor's CSRF token (the language switch form), so the stored answer keeps the page
cache's placeholder and each visitor gets his own token and cookie from Django's CSRF middleware
(`with_csrf_token`), as a page rendered or served by the page cache gives them. In production the reverse
proxy sends these requests to a gunicorn pool of their own (deploy/nginx.conf).
"""

import hashlib
import io
import logging
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.http import HttpResponseNotModified
from django.http.cookie import parse_cookie
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string

from . import page_cache
from .models import RecomputeState

log = logging.getLogger(__name__)

POLL_SECONDS = 5
# A live fragment is rendered again at most this often while its visibility has not changed: the polls in
# between get the copy of a moment ago (a result shows within this plus the recompute's lag).
RENDER_SECONDS = 0.25
# A live page itself (a viewer's first load, a reload) less often: its script asks for the fragment within
# POLL_SECONDS, which brings the standings of a moment ago; a page is rendered at ~2 to 4 times a fragment's
# cost (the layout around the same standings).
PAGE_RENDER_SECONDS = 2.0
RENDER_LOCK_SECONDS = 5
# What the view tells the WSGI layer (in request.META, the WSGI environ): the answer may be kept.
SHARED = "results.live.shared"
# The locale middleware whose inputs the fast path knows (the language cookie only); with any other the
# fast path is off.
LOCALE_MIDDLEWARE = "federation.middleware.HungarianFirstLocaleMiddleware"
OTHER_LOCALE_MIDDLEWARE = "django.middleware.locale.LocaleMiddleware"
# The URL names of the polled fragments (the games' urls.py register them with `polled_urls`) and of the
# live pages themselves (`live_pages`: their anonymous loads are answered the same way).
_POLLED: set[str] = set()
_PAGES: set[str] = set()


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
        token = page_cache.generation(page_cache.event_scope(event_id))
    except Exception:  # a cache that does not answer: the stamp alone (the pages are not cached then)
        token = ""
    text = "|".join([str(stamp), token, *(str(p) for p in parts)])
    return '"s' + hashlib.sha1(text.encode()).hexdigest()[:20] + '"'  # "s": never equal to a content tag


def content_tag(content: bytes) -> str:
    """The ETag of a shared fragment: a digest of its bytes."""
    return '"c' + hashlib.sha1(content).hexdigest()[:20] + '"'


def matches(tag: str, if_none_match: str) -> bool:
    return bool(tag) and tag in if_none_match


def not_modified(tag: str) -> HttpResponseNotModified:
    response = HttpResponseNotModified()
    response["ETag"] = tag
    return response


def _finish(response):
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language", "Accept-Encoding"))
    return response


# A shared fragment goes out gzipped to a client that takes it (browsers, phones): a 100-table session's
# standings are ~56 KB of HTML and ~7 KB gzipped, asked for by every viewer after each result. Compressed
# once per stored copy (the fast path keeps the gzipped answer apart from the plain one), never per poll.
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # as django.middleware.gzip reads Accept-Encoding
GZIP_MIN_BYTES = 200


def accepts_gzip(accept_encoding: str | None) -> bool:
    return bool(_ACCEPTS_GZIP.search(accept_encoding or ""))


def polled(request, tag: str | None, fragment):
    """A poll's answer: 304 when the client's copy carries the tag, else `fragment()` tagged (None: no such
    object, the fragment's own 404).

    `tag` is the logged-in visitor's ETag (`etag`, or a callable giving it). An anonymous visitor gets the
    page cache's shared fragment, tagged with its content digest, and the WSGI layer may keep the answer.
    """
    if page_cache.shareable_request(request):
        response = fragment()
        served = request.META.get(page_cache.SERVED)
        if response.status_code != 200:
            return _finish(response)
        shared = content_tag(response.content)
        gzipped = (
            accepts_gzip(request.headers.get("Accept-Encoding")) and len(response.content) >= GZIP_MIN_BYTES
        )
        if gzipped:
            shared = shared[:-1] + '-gz"'  # another representation of the same bytes: its own strong tag
        if served is not None and served["state"] != "stale" and not served["csrf"]:
            request.META[SHARED] = {**served, "etag": shared}
        if matches(shared, request.headers.get("If-None-Match", "")):
            state = response.get(page_cache.HEADER)
            response = not_modified(shared)
            if state is not None:  # as the fast path's 304 (the 200's headers without the body's)
                response[page_cache.HEADER] = state
        else:
            response["ETag"] = shared
            if gzipped:
                response.content = compress_string(response.content)
                response["Content-Encoding"] = "gzip"
        return _finish(response)
    if callable(tag):
        tag = tag()
    if tag is not None and matches(tag, request.headers.get("If-None-Match", "")):
        response = not_modified(tag)
    else:
        response = fragment()
        if tag is not None and response.status_code == 200:
            response["ETag"] = tag
    return _finish(response)


# --- the fast path: a WSGI layer in front of Django ------------------------------------------------------


def polled_urls(*names: str) -> None:
    """Register URL names whose view answers with `polled` (the fast path answers only these paths)."""
    _POLLED.update(names)


def live_pages(*names: str) -> None:
    """Register URL names of live pages (views decorated with `page_cache.cache_public_page`) whose anonymous
    loads the fast path answers from the page cache's copy, with each visitor's own CSRF token."""
    _PAGES.update(names)


def not_modified_headers(headers) -> list[tuple[str, str]]:
    """The 304's headers from the 200's, as Django's stack sends them (the live polls' tests compare the
    two): the same, without the body's type and encoding, its length 0 (CommonMiddleware's, of the empty
    304)."""
    kept = []
    for name, value in headers:
        lowered = name.lower()
        if lowered == "content-length":
            kept.append((name, "0"))
        elif lowered not in ("content-type", "content-encoding"):
            kept.append((name, value))
    return kept


def _language_ok() -> bool:
    middleware = settings.MIDDLEWARE
    return LOCALE_MIDDLEWARE in middleware and OTHER_LOCALE_MIDDLEWARE not in middleware


# The request inputs besides path, query and language cookie that Django reads to build these answers
# (request.get_host(), request.scheme / is_secure(): the SSL redirect, HSTS, absolute URLs).
_ADDRESS_KEYS = (
    "wsgi.url_scheme",
    "HTTP_HOST",
    "SERVER_NAME",
    "SERVER_PORT",
    "SCRIPT_NAME",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
)


class FastPolls:
    """WSGI middleware: answers anonymous polls of the live fragments from the page cache's polled entries.

    See the module's docstring for what it answers and what it leaves to Django (`app`).
    """

    def __init__(self, app, later=None):
        self.app = app
        # Runs a rendering after the answer (a callable taking a job): one thread of this worker's, made on
        # first use (after gunicorn's fork); the tests pass their own to run the jobs when they say.
        self._later = later
        self._paths = None
        self._scopes: dict[str, list[str]] = {}
        self._lock = threading.Lock()

    # Which requests it may answer.

    def paths(self):
        """The patterns of the paths it answers (the URL conf imported on the first call)."""
        return self._path_pattern()

    def _path_pattern(self):
        if self._paths is None:
            from django.urls import get_resolver

            resolver = get_resolver()
            resolver.url_patterns  # noqa: B018  the URL conf imported: its views register their names
            patterns = []
            for name in sorted(_POLLED | _PAGES):
                for _possibilities, pattern, _defaults, _converters in resolver.reverse_dict.getlist(name):
                    patterns.append(pattern)
            with self._lock:
                self._paths = [re.compile(p) for p in patterns]
        return self._paths

    def address(self, environ) -> str | None:
        """The raw inputs of the answer Django gives this request, as one string; None: not one to answer
        here (not a GET of a polled fragment, a session, messages or credentials, a language the locale
        middleware would not take as it is)."""
        if environ.get("REQUEST_METHOD") != "GET" or not _language_ok():
            return None
        if page_cache.timeout() <= 0 or "HTTP_AUTHORIZATION" in environ or settings.CSRF_USE_SESSIONS:
            return None
        paths = self._path_pattern()
        path = environ.get("PATH_INFO", "")
        relative = path[1:] if path.startswith("/") else path
        if not any(p.match(relative) for p in paths):
            return None
        cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
        if settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies:
            return None
        language = cookies.get(settings.LANGUAGE_COOKIE_NAME)
        if language is not None and language not in {code for code, _name in settings.LANGUAGES}:
            return None
        gzip = "gzip" if accepts_gzip(environ.get("HTTP_ACCEPT_ENCODING")) else ""
        parts = [path, environ.get("QUERY_STRING", ""), language or "", gzip]
        parts += [str(environ.get(key, "")) for key in _ADDRESS_KEYS]
        return "\x1f".join(parts)

    # The answers.

    def __call__(self, environ, start_response):
        address = self.address(environ)
        if address is None:
            return self.app(environ, start_response)
        try:
            entry, render = self._from_cache(environ, address)
        except Exception:  # the cache does not answer: Django (which renders then) answers
            log.exception("live polls: lookup failed for %s", environ.get("PATH_INFO"))
            entry, render = None, False
        if entry is None or (render and not _in_background()):
            return self._from_django(environ, start_response, address, render=render)
        if render:
            self._render_later(environ, address)
        headers, body = entry["headers"], entry["body"]
        if entry.get("csrf"):
            headers, body = with_csrf_token(environ, headers, body)
        return self._answer(environ, start_response, entry["etag"], headers, body)

    def _answer(self, environ, start_response, tag, headers, body):
        if matches(tag, environ.get("HTTP_IF_NONE_MATCH", "")):
            start_response("304 Not Modified", not_modified_headers(headers))
            return [b""]
        start_response("200 OK", list(headers))
        return [body]

    def _is_page(self, environ) -> bool:
        from django.urls import Resolver404, resolve

        try:
            return resolve(environ.get("PATH_INFO", "")).url_name in _PAGES
        except Resolver404:
            return False

    def _from_cache(self, environ, address) -> tuple[dict | None, bool]:
        """The entry to answer from (None: Django answers) and whether this request renders the address's
        new copy (it holds the address's lock then; the entry is the copy of a moment ago)."""
        scopes = self._scopes.get(address)
        entry, generations, visibility, rendering = page_cache.read_poll(address, scopes)
        if entry is None:
            return None, False
        if scopes is None or entry["scopes"] != scopes:
            if len(self._scopes) > 10_000:
                self._scopes.clear()
            self._scopes[address] = entry["scopes"]
            if scopes is not None:  # the address's scopes changed: read their tokens again
                entry, generations, visibility, rendering = page_cache.read_poll(address, entry["scopes"])
                if entry is None:
                    return None, False
        if entry["generations"] == generations:
            return entry, False
        if entry["visibility"] != visibility:
            return None, False  # who may see it may have changed: Django's permission check answers
        if rendering or time.time() - entry["at"] < render_seconds(entry.get("page", False)):
            return entry, False
        # Unless another request has just started rendering it, this one does.
        return entry, page_cache.lock_poll(address, RENDER_LOCK_SECONDS)

    def _render_later(self, environ, address):
        """Render the address's new copy after this answer, from a copy of its request (this request holds
        the address's lock; the rendering lets go of it; `_ask_django` leaves out its If-None-Match)."""
        detached = {**environ, "wsgi.input": io.BytesIO(), "CONTENT_LENGTH": "0"}
        try:
            if self._later is None:
                with self._lock:
                    if self._later is None:
                        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-render")
                        self._later = pool.submit
            self._later(lambda: self._render(detached, address))
        except Exception:  # (a worker shutting down): the next poll after the lock renders it
            log.exception("live polls: could not queue the rendering of %s", environ.get("PATH_INFO"))
            page_cache.unlock_poll(address)

    def _render(self, environ, address):
        """Django's answer to a copy of a request, kept for the next polls (nobody waits for it)."""
        try:
            self._from_django(environ, _discard, address, render=True)
        except Exception:
            log.exception("live polls: rendering %s failed", environ.get("PATH_INFO"))

    def _from_django(self, environ, start_response, address, render):
        """Django's answer (asked without If-None-Match, to have the whole of it), kept for the next polls
        when the view says it may be; `render`: this request holds the address's lock, let go after."""
        try:
            return self._ask_django(environ, start_response, address)
        finally:
            if render:
                page_cache.unlock_poll(address)

    def _ask_django(self, environ, start_response, address):
        asked = environ.pop("HTTP_IF_NONE_MATCH", None)
        captured = {}

        def capture(status, headers, exc_info=None):
            captured["status"], captured["headers"] = status, headers
            return captured.setdefault("written", []).append

        result = self.app(environ, capture)
        try:
            body = b"".join([*captured.get("written", []), *result])
        finally:
            if hasattr(result, "close"):
                result.close()
        status, headers = captured["status"], captured["headers"]
        if asked is not None:
            environ["HTTP_IF_NONE_MATCH"] = asked
        shared = environ.get(SHARED)
        served = environ.get(page_cache.SERVED)
        page = shared is None and served is not None and served["state"] != "stale" and self._is_page(environ)
        if page:
            shared = {**served, "etag": None}  # a live page: no ETag (its script polls the fragment)
        csrf = bool(shared and shared["csrf"])
        cookies = [v for k, v in headers if k.lower() == "set-cookie"]
        # A page's only cookie is the visitor's CSRF cookie, which the fast path sets as Django does.
        own_cookies = any(not (csrf and _is_csrf_cookie(v)) for v in cookies)
        if status.startswith("200") and shared is not None and not own_cookies:
            kept = [
                (k, "hit" if k == page_cache.HEADER else v) for k, v in headers if k.lower() != "set-cookie"
            ]
            page_cache.store_poll(
                address,
                {
                    "scopes": shared["scopes"],
                    "generations": shared["generations"],
                    "visibility": shared["visibility"],
                    "etag": shared["etag"],
                    "csrf": csrf,
                    "page": page,
                    "headers": kept,
                    "body": page_cache.strip_csrf(body) if csrf else body,
                    "at": time.time(),
                },
            )
        tag = next((v for k, v in headers if k.lower() == "etag"), None)
        if status.startswith("200") and tag:  # the 304 Django would have answered with If-None-Match
            return self._answer(environ, start_response, tag, headers, body)
        start_response(status, headers)
        return [body]


def render_seconds(page: bool) -> float:
    """How often an outdated copy is rendered again (LIVE_RENDER_SECONDS, LIVE_PAGE_RENDER_SECONDS)."""
    if page:
        return float(getattr(settings, "LIVE_PAGE_RENDER_SECONDS", PAGE_RENDER_SECONDS))
    return float(getattr(settings, "LIVE_RENDER_SECONDS", RENDER_SECONDS))


def _in_background() -> bool:
    return bool(getattr(settings, "LIVE_RENDER_IN_BACKGROUND", True))


def _discard(status, headers, exc_info=None):
    return lambda data: None


def _is_csrf_cookie(header: str) -> bool:
    return header.strip().startswith(settings.CSRF_COOKIE_NAME + "=")


def with_csrf_token(environ, headers, body):
    """A stored page's headers and body for this visitor: his CSRF secret (his cookie's, or a new one when he
    has none or a malformed one), a token masked from it in each form and the cookie set again, all by
    Django's CSRF middleware itself, as it does for a page rendered or served by the page cache."""
    from django.core.handlers.wsgi import WSGIRequest
    from django.http import HttpResponse
    from django.middleware.csrf import CsrfViewMiddleware

    request = WSGIRequest(environ)
    middleware = CsrfViewMiddleware(lambda _request: None)
    middleware.process_request(request)
    body = page_cache.fill_csrf(request, body)
    response = middleware.process_response(request, HttpResponse())
    kept = [(k, str(len(body)) if k.lower() == "content-length" else v) for k, v in headers]
    # (Django's WSGI handler sends the cookies after the other headers, in this form.)
    return kept + [("Set-Cookie", c.output(header="")) for c in response.cookies.values()], body
