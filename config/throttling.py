"""The API throttles: DRF's anonymous / user rate throttles with two changes.

The rates are read from the settings when a throttle is made, not once at import (DRF's class attribute),
so `override_settings(REST_FRAMEWORK=...)` and the environment both reach them; and the client address is
`federation.client_ip.client_ip` (X-Forwarded-For only from TRUSTED_PROXY_COUNT trusted proxies), the same
address the login lockout and the account throttles use. Beyond a rate DRF answers 429 with Retry-After.
"""

from django.core.exceptions import ImproperlyConfigured
from rest_framework import throttling
from rest_framework.settings import api_settings

from federation.client_ip import client_ip


class _LiveRates:
    def get_rate(self):
        try:
            return api_settings.DEFAULT_THROTTLE_RATES[self.scope]
        except KeyError as error:
            raise ImproperlyConfigured(f"No default throttle rate set for '{self.scope}' scope") from error

    def get_ident(self, request):
        return client_ip(request)


class AnonRateThrottle(_LiveRates, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(_LiveRates, throttling.UserRateThrottle):
    pass
