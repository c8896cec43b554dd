from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "teams"
    verbose_name = _("Team events")

    def ready(self):
        # In ready(): these import models, which cannot be loaded before the app registry is.
        from results.tasks import register_recompute

        from . import tasks
        from .models import SCOPE
        from .services import source

        source.register()
        # The recompute sweeper (results.tasks) re-publishes this scope's recompute when it was lost, and
        # the services ask for it with results.tasks.request_recompute(SCOPE, event_id).
        register_recompute(SCOPE, tasks.recompute_event)

        # A published round changes the event's cached public pages (results.page_cache).
        from results.page_cache import bump_event_on

        bump_event_on("teams.Round")

        # The results index and the event page link team events to their results page.
        from tournaments.models import Event
        from tournaments.results_pages import register_results_page

        from .models import Round

        register_results_page(
            [Event.Format.TEAMS],
            "teams_event",
            lambda: Round.objects.filter(published_at__isnull=False).values("event_id"),
        )
