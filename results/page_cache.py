"""A shared cache of the public pages that change only when results are recomputed.

Anonymous GETs of a decorated view are stored in Django's cache (Redis in production: CACHE_URL) under a key
made of the view, the language, the host, the path, the allowed query parameters and the *generation* of every
scope the page depends on (``event:<id>``, ``rankings:<federation code>``, ``calendar``, and on every page
``people``, bumped by an erasure: no stored copy shows an erased name). A generation is a
random token kept in the cache without expiry; :func:`bump` replaces it after a commit (the recompute, a
rankings list rebuild, a publish or an edit of the event), which orphans every page stored under the old token.
Pages also expire after ``PAGE_CACHE_SECONDS`` (default 300), which bounds whatever depends on the clock (the
correction window) or on rows saved without a bump.

Each scope also has a *visibility* token, replaced by every bump except a recompute's (``visibility=False``: a
recompute changes what a page shows, never who may see it; every save that can is bumped through the model
signals below). A copy whose visibility token is no longer current is never served in place of a fresh one:
not as the "previous copy" while another request renders (below), not by the live polls' fast path.

The live pages' polled fragments (``results.live``, issue #18) are also kept here as *polled entries*: the
whole answer Django gave an anonymous poll (headers and body, its content ETag, the scopes' generations and
visibility tokens it was rendered under), keyed by the raw request inputs that can change it, so the WSGI
layer in front of Django (``results.live.FastPolls``) answers a poll with one cache read and no database.

What is never shared: pages of logged-in users (they show personal bits: the navbar, "my pair", director
links), requests with pending messages, responses other than a plain 200, and the CSRF token — the language
switch form carries one on every page, so the stored copy keeps a placeholder and each visitor gets their own
token when the copy is served.
"""

import hashlib
import logging
import re
import uuid
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils import translation

log = logging.getLogger(__name__)

PREFIX = "pages"
CSRF_PLACEHOLDER = b"__page_cache_csrf_token__"
_CSRF_INPUT = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*(")')
MAX_QUERY_VALUE = 40
RENDER_LOCK_SECONDS = 10
HEADER = "X-Page-Cache"
# The scope every stored page depends on besides its own: whatever may show a person's name (an erasure).
PEOPLE = "people"


_PROCESS_LOCAL = (
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
)


def timeout() -> int:
    """Seconds a page is kept; 0 when pages are not cached at all.

    A bump must reach every process that serves pages: with a process-local cache (the default locmem
    without CACHE_URL) that holds only while tasks run in-process too (Celery eager: development, tests).
    With a broker and a separate worker, pages are cached only in a shared cache (Redis: CACHE_URL).
    """
    seconds = int(getattr(settings, "PAGE_CACHE_SECONDS", 300))
    if settings.CACHES["default"]["BACKEND"] in _PROCESS_LOCAL and not settings.CELERY_TASK_ALWAYS_EAGER:
        return 0
    return seconds


def _gen_key(scope: str) -> str:
    return f"{PREFIX}:gen:{scope}"


def _vis_key(scope: str) -> str:
    return f"{PREFIX}:vis:{scope}"


def bump_now(*scopes: str, visibility: bool = True) -> None:
    """Give each scope a new generation (and, unless `visibility` is False, a new visibility token): every
    page stored under the old one is no longer found.

    A cache that does not answer must not fail the recompute or the save that bumps: the pages then live
    until they expire (PAGE_CACHE_SECONDS), and the error is logged.
    """
    tokens = {_gen_key(scope): uuid.uuid4().hex for scope in scopes}
    if visibility:
        tokens.update({_vis_key(scope): uuid.uuid4().hex for scope in scopes})
    try:
        cache.set_many(tokens, None)
    except Exception:
        log.exception("page cache: could not bump %s", ", ".join(scopes))


def bump(*scopes: str, visibility: bool = True) -> None:
    """Bump the scopes now and again after the current transaction commits.

    Now, so a later read in the same transaction (or a test, whose transaction never commits) sees a fresh
    page; after the commit, because a request that read the first new generation while the transaction was
    still open may have stored a page rendered from the old rows under it.

    `visibility=False` only for a change that cannot change who may see any page of the scopes (the
    recompute's new standings): the live polls may then serve the copy they hold while one request renders
    the new one. Anything else keeps the default.
    """
    if scopes:
        bump_now(*scopes, visibility=visibility)
        if transaction.get_connection().in_atomic_block:
            transaction.on_commit(lambda: bump_now(*scopes, visibility=visibility))


def event_scope(event_id) -> str:
    return f"event:{event_id}"


def rankings_scope(code) -> str:
    return f"rankings:{code}"


CALENDAR = "calendar"


def token_keys(scopes) -> tuple[list[str], list[str]]:
    """The cache keys of the scopes' generations and visibility tokens."""
    return [_gen_key(scope) for scope in scopes], [_vis_key(scope) for scope in scopes]


def _current(keys, found) -> list[str]:
    values = []
    for key in keys:
        value = found.get(key)
        if value is None:  # never bumped, or evicted: start a new token (another process may win)
            cache.add(key, uuid.uuid4().hex, None)
            value = cache.get(key) or "none"
        values.append(value)
    return values


def tokens(scopes) -> tuple[list[str], list[str]]:
    """The scopes' current generations and visibility tokens (one cache read)."""
    gen_keys, vis_keys = token_keys(scopes)
    found = cache.get_many(gen_keys + vis_keys)
    return _current(gen_keys, found), _current(vis_keys, found)


def _generations(scopes) -> list[str]:
    return tokens(scopes)[0]


def generation(scope: str) -> str:
    """The scope's current generation: it changes with every bump (a cheap validator for an ETag)."""
    return _generations([scope])[0]


def _query_part(request, params) -> str | None:
    """The allowed query parameters in a fixed order; None when the request has any other one."""
    if not request.GET:
        return ""
    if not params:
        return None
    parts = []
    for name in request.GET:
        if name not in params:
            return None
    for name in params:
        values = request.GET.getlist(name)
        if len(values) > 1 or any(len(v) > MAX_QUERY_VALUE for v in values):
            return None
        if values:
            parts.append(f"{name}={values[0]}")
    return "&".join(parts)


def _has_messages(request) -> bool:
    storage = getattr(request, "_messages", None)
    if storage is None:
        return False
    return bool(getattr(storage, "_queued_messages", None)) or bool(len(storage))


def shareable_request(request) -> bool:
    """An anonymous GET without pending messages, the page cache on: it may get the shared copy."""
    return (
        request.method == "GET"
        and timeout() > 0
        and not request.user.is_authenticated
        and not _has_messages(request)
    )


def _shareable_response(request, response) -> bool:
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not _has_messages(request)
        and "private" not in response.get("Cache-Control", "")
    )


def strip_csrf(content: bytes) -> bytes:
    return _CSRF_INPUT.sub(rb"\1" + CSRF_PLACEHOLDER + rb"\2", content)


def fill_csrf(request, content: bytes) -> bytes:
    if CSRF_PLACEHOLDER not in content:
        return content
    parts = content.split(CSRF_PLACEHOLDER)
    filled = [parts[0]]
    for part in parts[1:]:
        filled.append(get_token(request).encode("ascii"))
        filled.append(part)
    return b"".join(filled)


def _address(request, name, query) -> list[str]:
    return [
        name,
        translation.get_language() or settings.LANGUAGE_CODE,
        request.get_host(),
        request.path,
        query,
    ]


def _digest(parts) -> str:
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def _page_key(address, scopes, generations) -> str:
    return f"{PREFIX}:page:{_digest(address + list(scopes) + list(generations))}"


def page_scopes(scopes) -> list[str]:
    """The scopes a stored page depends on: its own and `PEOPLE`."""
    return [*scopes, PEOPLE]


def page_key(request, name, scopes, query) -> str:
    """Where the page of the scopes' current generations is stored (`scopes`: the page's own)."""
    scopes = page_scopes(scopes)
    return _page_key(_address(request, name, query), scopes, _generations(scopes))


def latest_key(request, name, query) -> str:
    """Where the last page rendered for this address is kept, whatever its generation."""
    return f"{PREFIX}:latest:{_digest(_address(request, name, query))}"


def _quietly(operation, *args) -> bool:
    try:
        operation(*args)
    except Exception:
        log.exception("page cache: %s failed", operation.__name__)
        return False
    return True


# What the page cache tells the live polls about the answer it gave (request.META, the WSGI environ): the
# scopes, their generations and visibility tokens read before the view ran, whether it was a fresh copy
# ("hit", "miss") or the previous one ("stale"), and whether the page carries a CSRF token.
SERVED = "results.page_cache.served"


def _store(request, response, key, previous_key, visibility) -> bool:
    stored = (strip_csrf(response.content), response["Content-Type"], visibility)
    if _quietly(cache.set_many, {key: stored, previous_key: stored}, timeout()):
        response[HEADER] = "miss"
        return True
    return False


def _serve(request, stored, state) -> HttpResponse:
    content, content_type, _visibility = stored
    response = HttpResponse(fill_csrf(request, content), content_type=content_type)
    response[HEADER] = state
    return response


def _stored(value):
    """A stored copy as (content, content type, visibility tokens); None for anything else (a copy written
    in another shape by an older release is not served)."""
    return value if isinstance(value, tuple) and len(value) == 3 else None


def _record(request, state, scopes, generations, visibility, content) -> None:
    request.META[SERVED] = {
        "state": state,
        "scopes": list(scopes),
        "generations": list(generations),
        "visibility": list(visibility),
        # the page carries the visitor's CSRF token (the language switch form): whoever serves a copy of it
        # fills in each visitor's own (results.live.FastPolls: as the CSRF middleware does)
        "csrf": CSRF_PLACEHOLDER in content or _CSRF_INPUT.search(content) is not None,
    }


def cache_public_page(scopes, params=()):
    """Serve anonymous GETs of the view from the shared cache.

    ``scopes(request, **kwargs)`` returns the scopes the page depends on (None or empty: not cached, e.g. the
    object does not exist); ``params`` are the query parameters the page reads — a request with any other
    one is not cached.

    After a bump one request renders the page again; visitors who ask for it while that rendering runs (up
    to RENDER_LOCK_SECONDS) get the previous copy instead of rendering it too, so a recompute under load
    costs one rendering per page, not one per waiting visitor — unless the bump may have changed who may
    see the page (its visibility token moved): then every visitor waits for the page's own answer.
    """

    def decorator(view):
        name = f"{view.__module__}.{view.__name__}"

        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not shareable_request(request):
                return view(request, *args, **kwargs)
            query = _query_part(request, params)
            found_scopes = scopes(request, **kwargs) if query is not None else None
            if not found_scopes:
                return view(request, *args, **kwargs)
            found_scopes = page_scopes(found_scopes)
            try:
                generations, visibility = tokens(found_scopes)
                address = _address(request, name, query)
                key = _page_key(address, found_scopes, generations)
                previous_key = latest_key(request, name, query)
                stored = _stored(cache.get(key))
                if stored is not None:
                    _record(request, "hit", found_scopes, generations, visibility, stored[0])
                    return _serve(request, stored, "hit")
                lock = f"{key}:rendering"
                locked = cache.add(lock, 1, RENDER_LOCK_SECONDS)
                previous = None if locked else _stored(cache.get(previous_key))
                if previous is not None and previous[2] == visibility:
                    _record(request, "stale", found_scopes, generations, visibility, previous[0])
                    return _serve(request, previous, "stale")
            except Exception:  # the cache does not answer: the page is rendered as if it were not cached
                log.exception("page cache: lookup failed for %s", request.path)
                return view(request, *args, **kwargs)
            try:
                try:
                    response = view(request, *args, **kwargs)
                except Exception:  # a 404, a refusal raised: no previous copy for the others either
                    if locked:
                        _quietly(cache.delete, previous_key)
                    raise
                if _shareable_response(request, response):
                    if _store(request, response, key, previous_key, visibility):
                        _record(request, "miss", found_scopes, generations, visibility, response.content)
                elif locked:  # no longer a page for everybody (gone, refused): no previous copy either
                    _quietly(cache.delete, previous_key)
            finally:
                if locked:
                    _quietly(cache.delete, lock)
            return response

        wrapped.page_cache_name = name
        return wrapped

    return decorator


# The live polls' entries (results.live.FastPolls): the answer Django gave an anonymous poll, as sent.


def poll_key(address: str) -> str:
    return f"{PREFIX}:poll:{hashlib.sha256(address.encode()).hexdigest()}"


def poll_lock_key(address: str) -> str:
    return f"{poll_key(address)}:rendering"


def store_poll(address: str, entry: dict) -> None:
    """Keep a poll's answer (a dict: scopes, generations, visibility, etag, headers, body, at)."""
    _quietly(cache.set, poll_key(address), entry, timeout())


def read_poll(address: str, scopes=None) -> tuple[dict | None, list, list, bool]:
    """The address's polled entry, the current generations and visibility tokens of its scopes (`scopes`
    when the caller knows them, else the entry's: then a second read) and whether a request renders it
    now. Raises when the cache does not answer."""
    entry_key, lock_key = poll_key(address), poll_lock_key(address)
    if scopes is None:
        entry = cache.get(entry_key)
        if not isinstance(entry, dict):
            return None, [], [], False
        scopes = entry["scopes"]
        gen_keys, vis_keys = token_keys(scopes)
        found = cache.get_many([lock_key, *gen_keys, *vis_keys])
    else:
        gen_keys, vis_keys = token_keys(scopes)
        found = cache.get_many([entry_key, lock_key, *gen_keys, *vis_keys])
        entry = found.get(entry_key)
        if not isinstance(entry, dict) or entry["scopes"] != list(scopes):
            return (entry if isinstance(entry, dict) else None), [], [], False
    generations = [found.get(k) for k in gen_keys]
    visibility = [found.get(k) for k in vis_keys]
    return entry, generations, visibility, lock_key in found


def lock_poll(address: str, seconds: float) -> bool:
    """Take the address's rendering lock (True) unless another request holds it."""
    return cache.add(poll_lock_key(address), 1, seconds)


def unlock_poll(address: str) -> None:
    _quietly(cache.delete, poll_lock_key(address))


# Scopes of the usual page kinds.


def erase_person(identity) -> list[str]:
    """Erasure (GDPR art. 17, `federation.personal_data.register_eraser`): every stored page and polled entry
    may show the erased person's name (entries, results, rankings), and none is served again; nothing of his
    is kept here otherwise."""
    bump(PEOPLE)
    return []


def by_event(request, pk, **kwargs):
    return [event_scope(pk)]


def by_federation_code(request, code, **kwargs):
    return [rankings_scope(code)]


def calendar_scope(request, **kwargs):
    return [CALENDAR]


# Saves that change what these pages show without a recompute: the event itself (approval, edits,
# cancellation), its sessions and divisions, and (registered by the game apps with `bump_event_on`) a
# published bridge session or team / ulti round.


def _event_changed(sender, instance, **kwargs):
    bump(event_scope(instance.pk), CALENDAR)


def _event_part_changed(sender, instance, **kwargs):
    bump(event_scope(instance.event_id), CALENDAR)


def _own_event_id(instance):
    return getattr(instance, "event_id", None)


def bump_event_on(label: str, event_id_of=_own_event_id) -> None:
    """Bump the pages of the event `event_id_of(row)` whenever a row of the model `label` is saved or deleted.

    A game app calls it from its AppConfig.ready() for what it publishes (a bridge session, a team or ulti
    round), so that results knows no game app.
    """

    def changed(sender, instance, **kwargs):
        event_id = event_id_of(instance)
        if event_id is not None:
            bump(event_scope(event_id))

    for signal, what in ((post_save, "save"), (post_delete, "delete")):
        signal.connect(changed, sender=label, weak=False, dispatch_uid=f"page_cache_{label}_{what}")


def _federation_changed(sender, instance, **kwargs):
    bump(rankings_scope(instance.code), CALENDAR)


def connect_signals():
    """Called from ResultsConfig.ready()."""
    for signal, what in ((post_save, "save"), (post_delete, "delete")):
        signal.connect(_event_changed, sender="tournaments.Event", dispatch_uid=f"page_cache_event_{what}")
        for label in ("tournaments.Session", "tournaments.Division", "tournaments.Entry"):
            signal.connect(_event_part_changed, sender=label, dispatch_uid=f"page_cache_{label}_{what}")
        signal.connect(
            _federation_changed, sender="federation.Federation", dispatch_uid=f"page_cache_fed_{what}"
        )
