import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_wsgi_application()

# Anonymous polls of the live pages' fragments (issue #18) are answered from the shared cache in front of
# Django (results.live.FastPolls); every other request goes straight to Django.
from results.live import FastPolls  # noqa: E402  (after Django is set up)

application = FastPolls(django_application)
# The URL conf imported now, at the worker's start (or in gunicorn's master with --preload), not by the first
# request each worker answers: it tells the fast path which paths are the live pages and their fragments.
application.paths()
