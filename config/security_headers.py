"""Security response headers that Django's SecurityMiddleware and django-csp do not set."""

from django.conf import settings


class PermissionsPolicyMiddleware:
    """Sends ``Permissions-Policy`` (settings.PERMISSIONS_POLICY) on every response that has none yet."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = getattr(settings, "PERMISSIONS_POLICY", "")

    def __call__(self, request):
        response = self.get_response(request)
        if self.policy and "Permissions-Policy" not in response:
            response["Permissions-Policy"] = self.policy
        return response
