"""The client's IP address, as every throttle and the login lockout see it.

`X-Forwarded-For` is believed only as far as `TRUSTED_PROXY_COUNT` proxies of our own wrote it: with 0 (the
default: gunicorn answers the clients itself) the header is ignored, so a client cannot choose its address by
sending one. With N trusted proxies each appends the address it received the request from, so the client is
the N-th entry from the right; whatever a client wrote further left is not looked at.
"""

import ipaddress

from django.conf import settings

UNKNOWN = "0.0.0.0"


def _valid(address):
    try:
        return str(ipaddress.ip_address(address.strip()))
    except ValueError:
        return None


def client_ip(request):
    remote = request.META.get("REMOTE_ADDR", "") or ""
    proxies = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0)
    if proxies > 0:
        forwarded = [part for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= proxies:
            address = _valid(forwarded[-proxies])
            if address:
                return address
    # A request without a usable peer address (a test client, a Unix socket) still needs one that the
    # lockout can store in its IP column (PostgreSQL refuses anything else): all such requests share it.
    return _valid(remote) or UNKNOWN
