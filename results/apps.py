from django.apps import AppConfig


class ResultsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "results"
    verbose_name = "Results pipeline"

    def ready(self):
        from .page_cache import connect_signals

        connect_signals()
