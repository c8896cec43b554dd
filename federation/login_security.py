"""Login lockout (django-axes), per username and per client address with separate limits.

Axes counts every failed login as an `AccessAttempt` row (username, address). A username is locked after
`AXES_FAILURE_LIMIT` failures within `AXES_COOLOFF_TIME` (from any address: guessing one account's password
from many places is stopped); an address after `AXES_IP_FAILURE_LIMIT` failures across all usernames (one
password tried on many accounts, "password spraying", is stopped). Both end by themselves after the cool-off,
and failures during a lockout do not extend it, so an attacker cannot keep the real user out for long. A
successful login clears only its own username's failures from its own address: logging in to one's own
account does not wipe out what the address did to other accounts.
"""

import math

from axes.conf import settings
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit, get_lockout_parameters
from axes.models import AccessAttempt
from django.db.models import Max, Q, Sum
from django.shortcuts import render
from django.utils import timezone


class LoginLockoutHandler(AxesDatabaseHandler):
    def get_failures(self, request, credentials=None) -> int:
        counts = {}
        parameters = get_lockout_parameters(request, credentials)
        for parameter, attempts in zip(parameters, self.get_user_attempts(request, credentials), strict=True):
            name = parameter if isinstance(parameter, str) else "+".join(parameter)
            counts[name] = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
        by_username = counts.get("username", 0)
        if counts.get("ip_address", 0) >= settings.AXES_IP_FAILURE_LIMIT:
            # Axes compares this number with the (per-username) failure limit: an address over its own,
            # higher limit is reported as at least that.
            return max(by_username, get_failure_limit(request, credentials))
        return by_username

    def reset_user_attempts(self, request, credentials=None) -> int:
        username = get_client_username(request, credentials)
        count, _ = AccessAttempt.objects.filter(
            username=username, ip_address=request.axes_ip_address
        ).delete()
        return count


def seconds_left(request, credentials=None):
    """Seconds until the lockout of this username or address ends."""
    cool_off = get_cool_off(request)
    now = timezone.now()
    username = get_client_username(request, credentials)
    latest = AccessAttempt.objects.filter(
        Q(username=username) | Q(ip_address=getattr(request, "axes_ip_address", None)),
        attempt_time__gte=now - cool_off,
    ).aggregate(latest=Max("attempt_time"))["latest"]
    if latest is None:
        return int(cool_off.total_seconds())
    return max(1, math.ceil((latest + cool_off - now).total_seconds()))


def lockout_response(request, original_response=None, credentials=None):
    """429 with Retry-After and the Hungarian page (AXES_LOCKOUT_CALLABLE)."""
    wait = seconds_left(request, credentials)
    response = render(
        request, "registration/locked_out.html", {"minutes": max(1, math.ceil(wait / 60))}, status=429
    )
    response["Retry-After"] = str(wait)
    return response
