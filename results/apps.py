from django.apps import AppConfig


class ResultsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "results"
    verbose_name = "Results pipeline"

    def ready(self):
        from federation.personal_data import register_eraser

        from .page_cache import connect_signals, erase_person

        connect_signals()
        register_eraser("results.page_cache", erase_person)
