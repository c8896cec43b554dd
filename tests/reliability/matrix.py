"""The machinery of the permission matrix: discover URLs and API operations, request them as each role.

Outcomes are "allow" (2xx, 400 validation, a redirect that is not to a login page) or "deny" (401, 403,
404, 405, a redirect to a login page); an exception raised by a view is "error".
"""

import copy
import json
import os

from django.contrib import messages
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver

LOGIN_PREFIXES = ("/accounts/login/", "/admin/login/")


def walk(patterns=None, prefix="", namespace=None):
    """Every URL pattern of the URL conf (recursively, the DRF router's included): (name, route, pattern)."""
    if patterns is None:
        patterns = get_resolver().url_patterns
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = namespace
            if p.namespace:
                ns = f"{namespace}:{p.namespace}" if namespace else p.namespace
            yield from walk(p.url_patterns, prefix + str(p.pattern), ns)
        elif isinstance(p, URLPattern):
            name = p.name
            if name and namespace:
                name = f"{namespace}:{name}"
            yield name, prefix + str(p.pattern), p


def url_names():
    """Named URL patterns, the format-suffix variants of a route folded into the route's name."""
    names = {}
    for name, route, _pattern in walk():
        names.setdefault(name or f"<unnamed {route}>", route)
    return names


def classify(response):
    code = response.status_code
    if code in (401, 403, 404, 405):
        return "deny"
    if code in (301, 302, 303, 307, 308):
        location = response.get("Location", "")
        if location.startswith(LOGIN_PREFIXES):
            return "deny"
        # A service that refuses (tournaments' Refused, a wrong state) redirects back with an error message.
        queued = getattr(getattr(response.wsgi_request, "_messages", None), "_queued_messages", [])
        if any(m.level >= messages.ERROR for m in queued):
            return "deny"
        return "allow"
    if code >= 500:
        return "error"
    return "allow"


def request(client, method, url, **extra):
    """One request in a savepoint that is rolled back, so an allowed POST changes nothing for the next."""
    cookies = copy.deepcopy(client.cookies)  # a logout or login answer must not change the client's role
    with transaction.atomic():
        try:
            if method == "GET":
                response = client.get(url, **extra)
            else:
                response = client.generic(method, url, b"", content_type="application/json", **extra)
            outcome = classify(response)
            detail = response.status_code
        except Exception as error:  # a view that raises: a server error
            outcome, detail = "error", f"{type(error).__name__}: {str(error)[:200]}"
        transaction.set_rollback(True)
    client.cookies = cookies
    return outcome, detail


def dump(kind, key, method, observed):
    path = os.environ.get("RELIABILITY_DUMP")
    if not path:
        return
    with open(path, "a") as out:
        out.write(json.dumps({"kind": kind, "key": key, "method": method, "observed": observed}) + "\n")
