from django.apps import AppConfig


class BridgeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bridge"

    def ready(self):
        # The masterpoint source of pair events, registered in every process (web, worker, commands).
        from .services import ranking_source

        ranking_source.register()
