from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class UltiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ulti"
    verbose_name = _("Ulti")

    def ready(self):
        from .services import source

        source.register()

        # The recompute sweeper (results.tasks) re-publishes this scope's recompute when it was lost.
        from results.tasks import register_recompute

        from . import tasks
        from .models import SCOPE

        register_recompute(SCOPE, tasks.recompute_ulti_event)
