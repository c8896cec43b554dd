import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _

from config.query import BadQuery

logger = logging.getLogger(__name__)


class HungarianFirstLocaleMiddleware:
    """Hungarian unless the visitor chose English with the language switch (the cookie it sets).

    Django's LocaleMiddleware would follow the browser's Accept-Language; a Hungarian federation's portal
    speaks Hungarian first, whatever language the browser was installed in.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        self.supported = {code for code, _ in settings.LANGUAGES}

    def __call__(self, request):
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in self.supported else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        translation.deactivate()
        return response


class DatabaseUnavailableMiddleware:
    """A lost database connection (PostgreSQL restarting, failing over) answers 503 with Retry-After instead
    of a 500: the request's transaction is already rolled back, so the client may simply try again.

    The answer is built without the database (no base template: its context processors read the session);
    Django closes the broken connection when the request finishes (close_old_connections).
    """

    RETRY_AFTER_SECONDS = 5

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.error("database unavailable during %s %s: %s", request.method, request.path, exception)
        message = _(
            "The database is briefly unavailable; nothing was saved. Please try again in a few seconds."
        )
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": str(message)}, status=503)
        else:
            title = _("Service temporarily unavailable")
            response = HttpResponse(
                format_html(
                    '<!doctype html><html lang="{}"><head><meta charset="utf-8"><title>{}</title></head>'
                    "<body><h1>{}</h1><p>{}</p></body></html>",
                    translation.get_language() or settings.LANGUAGE_CODE,
                    title,
                    title,
                    message,
                ),
                status=503,
            )
        response["Retry-After"] = str(self.RETRY_AFTER_SECONDS)
        return response


class BadQueryMiddleware:
    """A query-string value a page cannot use (config.query.BadQuery: a huge or non-numeric id, say)
    answers 400 with the reason, in the portal's layout, instead of Django's bare "Bad Request (400)"."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, BadQuery):
            return None
        return render(request, "bad_query.html", {"message": str(exception)}, status=400)
