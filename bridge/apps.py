from django.apps import AppConfig


class BridgeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bridge"

    def ready(self):
        # The masterpoint source of pair events, registered in every process (web, worker, commands).
        from .services import ranking_source

        ranking_source.register()

        # The recompute sweeper (results.tasks) re-publishes this scope's recompute when it was lost.
        from results.tasks import register_recompute

        from . import tasks
        from .services import SCOPE

        register_recompute(SCOPE, tasks.recompute_pair_results)

        # A session with sealed deals keeps its announced start out of the past (issue #15).
        from tournaments.session_starts import register_sealed_check

        from .services import dealing

        register_sealed_check(dealing.announced_is_sealed)

        # A published session changes the event's cached public pages (results.page_cache).
        from results.page_cache import bump_event_on

        bump_event_on("bridge.PairSession")
