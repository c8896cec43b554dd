from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from . import effects


class AppealsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "appeals"
    verbose_name = _("Appeals")

    def ready(self):
        # The games' handlers import the game apps' models and services: wired once every app is loaded.
        from . import bridge_effect, ulti_effect

        effects.register("bridge", bridge_effect.apply_bridge_decision, bridge_effect.check_bridge_decision)
        effects.register_filing_check("bridge", bridge_effect.check_bridge_filing)
        effects.register_measure("bridge", bridge_effect.apply_bridge_measure)
        effects.register("ulti", ulti_effect.apply_ulti_decision, ulti_effect.check_ulti_decision)
        effects.register_measure("ulti", ulti_effect.apply_ulti_measure)
        from bridge import exclusion_reports

        from .services import discipline, personal_data

        personal_data.register()
        exclusion_reports.register(discipline.report_event_exclusion)
