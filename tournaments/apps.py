from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self):
        from django.db.backends.signals import connection_created

        from federation.director_releases import register_give_back, register_release

        from .services import directors, personal_data, search

        personal_data.register()
        connection_created.connect(search.set_fuzzy_threshold, dispatch_uid="search_fuzzy_threshold")
        register_release(directors.release)
        register_give_back(directors.give_back)
