from django.apps import AppConfig


class UltiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ulti"
