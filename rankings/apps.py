from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "rankings"
    verbose_name = _("Rankings")

    def ready(self):
        from . import signals  # noqa: F401  (licence changes make the current lists stale)
