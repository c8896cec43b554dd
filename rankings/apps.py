from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "rankings"
    verbose_name = _("Rankings")

    def ready(self):
        # signals: licence changes make the current lists stale. The services publish the tasks by name
        # (rankings.services.jobs), so that they never import tasks.py.
        from . import signals, tasks  # noqa: F401
        from .services import jobs

        jobs.register(
            process_event_results=tasks.process_event_results,
            reaward_scheme=tasks.reaward_scheme,
            recompute_lists=tasks.recompute_lists,
            recompute_season=tasks.recompute_season,
        )
        from .services import personal_data

        personal_data.register()
