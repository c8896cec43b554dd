"""Counting attempts in the cache: the throttles of the account pages (linking, registration, resend).

A fixed window per key: the first attempt starts it, every attempt counts (atomically: `cache.incr`), and an
attempt beyond `limit` in the window is refused until the window ends. The cache is the project's (Redis in
production, so the count is shared by every worker; per process in the tests' locmem).
"""

import hashlib
import time

from django.core.cache import cache


def _key(scope, value):
    digest = hashlib.sha256(f"{scope}:{str(value).casefold()}".encode()).hexdigest()[:32]
    return f"throttle:{scope}:{digest}"


def _count(key, window, now):
    cache.add(f"{key}:start", now, timeout=window)
    cache.add(key, 0, timeout=window)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(f"{key}:start", now, timeout=window)
        cache.set(key, 1, timeout=window)
        return 1


def throttled(checks):
    """Count one attempt against every (scope, value, limit, window) of `checks`.

    Returns 0 when the attempt is allowed, otherwise the seconds until every limit it broke is free again.
    """
    now = time.time()
    wait = 0
    for scope, value, limit, window in checks:
        key = _key(scope, value)
        if _count(key, window, now) > limit:
            start = cache.get(f"{key}:start") or now
            wait = max(wait, int(start + window - now) + 1)
    return wait


def blocked(scope, value, limit, window):
    """Seconds until `value` may try again when its attempts of `scope` already passed `limit`, else 0.

    Counts nothing: a page checks it before the work whose failures it counts (a guessed table code)."""
    key = _key(scope, value)
    if (cache.get(key) or 0) <= limit:
        return 0
    now = time.time()
    start = cache.get(f"{key}:start") or now
    return max(int(start + window - now) + 1, 1)
