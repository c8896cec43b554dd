from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self):
        from federation.director_releases import register_give_back, register_release

        from .services import directors, personal_data

        personal_data.register()
        register_release(directors.release)
        register_give_back(directors.give_back)
