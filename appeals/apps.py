from importlib.util import find_spec

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AppealsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "appeals"
    verbose_name = _("Appeals")

    def ready(self):
        from . import effects

        effects.register_builtin()
        if find_spec("ulti.services") and find_spec("ulti.services.adjustments"):
            from .ulti_effect import apply_ulti_decision, apply_ulti_measure, check_ulti_decision

            effects.register("ulti", apply_ulti_decision, check_ulti_decision)
            effects.register_measure("ulti", apply_ulti_measure)
