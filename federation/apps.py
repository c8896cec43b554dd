from django.apps import AppConfig


class FederationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "federation"

    def ready(self):
        from . import audit

        audit.register_models()
