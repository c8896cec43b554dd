from django.apps import AppConfig


class BridgeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bridge"

    def ready(self):
        # Imported here, once the app registry is ready (models, services and tasks need it).
        from federation.personal_data import register_eraser
        from results.tasks import register_recompute
        from tournaments.scoring_programs import register_accepted_programs
        from tournaments.session_starts import register_sealed_check

        from . import tasks
        from .services import (
            BOARDS,
            HAND_RECORDS,
            INDIVIDUAL_SCOPE,
            SCOPE,
            cards,
            dealing,
            individual_source,
            program_check,
            ranking_source,
        )

        # The masterpoint source of pair events, registered in every process (web, worker, commands).
        ranking_source.register()
        individual_source.register()
        # The programs an announcement may name (VSz 26): those the federation accepted by its test.
        register_accepted_programs(program_check.accepted_names)

        # The recompute requests of the services (results.tasks.request_recompute), and the sweeper's
        # re-publishing of this scope's recompute when it was lost.
        register_recompute(SCOPE, tasks.recompute_pair_results)
        register_recompute(SCOPE, tasks.recompute_pair_boards, partial=BOARDS)
        register_recompute(SCOPE, tasks.compute_hand_records, partial=HAND_RECORDS)
        register_recompute(INDIVIDUAL_SCOPE, tasks.recompute_individual_results)

        # Erasure (GDPR): the convention card files of the erased person's pairs carry his name.
        register_eraser("bridge.convention_cards", cards.erase_person)

        # A session with sealed deals keeps its announced start out of the past (issue #15).
        register_sealed_check(dealing.announced_is_sealed)

        # A published session changes the event's cached public pages (results.page_cache).
        from results.page_cache import bump_event_on

        bump_event_on("bridge.PairSession")
        bump_event_on("bridge.IndividualEvent")
        # A session's first table code makes it live: the event page links it from then on.
        bump_event_on("bridge.TableCode", lambda code: code.session.event_id)

        # The results index and the event page link pair events to their results page (tournaments knows no
        # game app).
        from tournaments.models import Event
        from tournaments.results_pages import register_live_pages, register_results_page

        from .models import PairSession
        from .services.individual import published_events

        register_results_page(
            [Event.Format.PAIRS],
            "bridge_event",
            lambda: PairSession.objects.filter(published_at__isnull=False).values("event_id"),
        )
        # Individual events are scored too (issue #20): the announcement form offers the format again.
        register_results_page([Event.Format.INDIVIDUAL], "bridge_individual", published_events)
        # Sessions entered at the tables and not yet published: the home page's "live now".
        from .services import live as live_results

        register_live_pages(live_results.live_links)
