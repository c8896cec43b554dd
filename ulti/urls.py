from django.urls import path

from .views import director, exports, live, public, sheets, tables

urlpatterns = [
    path("", public.index, name="ulti_index"),
    path("events/<int:pk>/", public.event_page, name="ulti_event"),
    path("events/<int:pk>/standings/", public.standings, name="ulti_standings"),
    path("events/<int:pk>/standings/live/", live.standings_fragment, name="ulti_live_standings"),
    path("events/<int:pk>/standings.pdf", exports.standings_pdf, name="ulti_standings_pdf"),
    path(
        "events/<int:pk>/standings.csv", exports.standings_export, {"fmt": "csv"}, name="ulti_standings_csv"
    ),
    path(
        "events/<int:pk>/standings.xlsx",
        exports.standings_export,
        {"fmt": "xlsx"},
        name="ulti_standings_xlsx",
    ),
    path(
        "events/<int:pk>/team-standings.csv",
        exports.team_standings_export,
        {"fmt": "csv"},
        name="ulti_team_standings_csv",
    ),
    path(
        "events/<int:pk>/team-standings.xlsx",
        exports.team_standings_export,
        {"fmt": "xlsx"},
        name="ulti_team_standings_xlsx",
    ),
    path("events/<int:pk>/players/<int:person>/", public.player_card, name="ulti_player"),
    path("events/<int:pk>/start/", director.start, name="ulti_start"),
    path("events/<int:pk>/settings/", director.save_settings, name="ulti_settings"),
    path("events/<int:pk>/recompute/", director.recompute, name="ulti_recompute"),
    path("stages/<int:pk>/next/", director.next_stage, name="ulti_next_stage"),
    path("groups/<int:pk>/draw/", director.generate, name="ulti_generate"),
    path("groups/<int:pk>/schedule/", director.schedule, name="ulti_schedule"),
    path("rounds/<int:pk>/", public.round_page, name="ulti_round"),
    path("rounds/<int:pk>/live/", live.round_fragment, name="ulti_live_round"),
    path("rounds/<int:pk>/results-publish/", tables.publish_results, name="ulti_publish_results"),
    path("rounds/<int:pk>/results.csv", exports.round_csv, name="ulti_round_csv"),
    path("rounds/<int:pk>/results.pdf", exports.round_pdf, name="ulti_round_pdf"),
    path("rounds/<int:pk>/publish/", director.publish, name="ulti_publish"),
    path("rounds/<int:pk>/edit/", director.edit, name="ulti_round_edit"),
    path("rounds/<int:pk>/cards/", director.cards, name="ulti_cards"),
    path("rounds/<int:pk>/upload/", director.upload, name="ulti_upload"),
    path("rounds/<int:pk>/upload/confirm/", director.upload_confirm, name="ulti_upload_confirm"),
    path("rounds/<int:pk>/versions/", director.versions, name="ulti_versions"),
    path("rounds/<int:pk>/table-codes/", tables.table_codes, name="ulti_table_codes"),
    path("rounds/<int:pk>/control-room/", tables.control_room, name="ulti_control_room"),
    path("rounds/<int:pk>/clock/", tables.start_round_clock, name="ulti_round_clock"),
    path("table/", tables.table_start, name="ulti_table_start"),
    path("table/<str:code>/", tables.table_page, name="ulti_table"),
    path("tables/<int:pk>/sheet/", sheets.sheet_form, name="ulti_sheet"),
    path("tables/<int:pk>/sheet/confirm/", sheets.sheet_confirm, name="ulti_sheet_confirm"),
    path("tables/<int:pk>/sheet/preview/", sheets.sheet_preview, name="ulti_sheet_preview"),
    path("tables/<int:pk>/sheet/print/", public.sheet_print, name="ulti_sheet_print"),
]
