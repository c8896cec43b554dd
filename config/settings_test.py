"""Settings for the test suite: the real settings with a test key and fast password hashing."""

import os

os.environ.setdefault("SECRET_KEY", "test-suite-key-not-secret-0123456789abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("PORTAL_URL", "https://versenyportal.example.hu")

from .settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
MEDIA_ROOT = str(BASE_DIR / "var" / "test-uploads")  # noqa: F405
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The suite makes far more API requests a minute from one address than a visitor; the throttle itself is
# tested with small rates (tests/security/test_throttles.py).
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"anon": "100000/min", "user": "100000/min"},
}
