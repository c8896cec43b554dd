from django.conf import settings
from django.utils import translation


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
