from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "rankings"
    verbose_name = _("Rankings")

    def ready(self):
        from . import (
            signals,  # noqa: F401  (licence changes make the current lists stale)
            tasks,
        )
        from .services import jobs

        # The services publish these by name (rankings.services.jobs), so they never import tasks.py.
        jobs.register(
            process_event_results=tasks.process_event_results,
            reaward_scheme=tasks.reaward_scheme,
            recompute_lists=tasks.recompute_lists,
            recompute_season=tasks.recompute_season,
        )
