from django.apps import AppConfig
from django.utils.module_loading import autodiscover_modules


class FederationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "federation"

    def ready(self):
        from . import audit

        audit.register_models()
        from .services import privacy

        # federation's sections first, so the export reads from the account down to the games.
        privacy.register_sections()
        # Every installed app declares its `rules` permissions in its own permissions.py.
        autodiscover_modules("permissions")
