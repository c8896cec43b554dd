from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

# The built-in rule sets' names as people call them (tournaments.rule_sets shows them instead of the keys).
RULE_SET_NAMES = {"mausz": _("MAUSZ 2013"), "szolnok": _("Szolnok club rules")}


def rule_set_names():
    return RULE_SET_NAMES


class UltiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ulti"
    verbose_name = _("Ulti")

    def ready(self):
        from .services import source

        source.register()

        # The recompute sweeper (results.tasks) re-publishes this scope's recompute when it was lost.
        from results.tasks import register_recompute

        from . import tasks
        from .models import SCOPE

        register_recompute(SCOPE, tasks.recompute_ulti_event)

        # A published round changes the event's cached public pages (results.page_cache).
        from results.page_cache import bump_event_on

        from .models import Stage

        def round_event_id(round_):
            return Stage.objects.filter(groups__id=round_.group_id).values_list("event_id", flat=True).first()

        bump_event_on("ulti.Round", round_event_id)

        # A round's first table code makes its public pages live (services.live).
        def code_event_id(code):
            return (
                Stage.objects.filter(groups__rounds__tables__id=code.table_id)
                .values_list("event_id", flat=True)
                .first()
            )

        bump_event_on("ulti.TableCode", code_event_id)

        # The announcement form offers the engine's rule sets (tournaments knows no game app).
        from tournaments.rule_sets import register_rule_sets

        from .engine.rulesets import ruleset_keys

        register_rule_sets(ruleset_keys, rule_set_names)

        # The results index and the event page link ulti events to their results page.
        from tournaments.models import Event
        from tournaments.results_pages import register_live_pages, register_results_page

        from .models import Round

        register_results_page(
            [Event.Format.ULTI_INDIVIDUAL, Event.Format.ULTI_TEAM, Event.Format.SPORT_ULTI],
            "ulti_event",
            lambda: Round.objects.filter(published_at__isnull=False).values("group__stage__event_id"),
        )
        # Rounds entered at the tables and not yet published: the home page's "live now".
        from .services import live as live_results

        register_live_pages(live_results.live_links)
