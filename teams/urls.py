from django.urls import path

from .views import director, exports, pdf, public

urlpatterns = [
    path("events/<int:pk>/", public.event_page, name="teams_event"),
    path("events/<int:pk>/rounds/<int:number>/", public.round_page, name="teams_round"),
    path("events/<int:pk>/standings/", public.standings_page, name="teams_standings"),
    path("events/<int:pk>/bracket/", public.bracket_page, name="teams_bracket"),
    path("events/<int:pk>/standings.pdf", pdf.standings_pdf, name="teams_standings_pdf"),
    path("events/<int:pk>/usebio.xml", exports.export_usebio, name="teams_export_usebio"),
    path("events/<int:pk>/bracket.pdf", pdf.bracket_pdf, name="teams_bracket_pdf"),
    path("events/<int:pk>/players/", public.players_page, name="teams_players"),
    path("events/<int:pk>/butler/", public.butler_page, name="teams_butler"),
    path("matches/<int:pk>/", public.match_page, name="teams_match"),
    # The director's pages
    path("events/<int:pk>/setup/", director.setup_page, name="teams_setup"),
    path("events/<int:pk>/generate/", director.generate, name="teams_generate"),
    path("rounds/<int:pk>/publish/", director.publish, name="teams_publish"),
    path("rounds/<int:pk>/swap/", director.swap, name="teams_swap"),
    path("matches/<int:pk>/upload/", director.upload, name="teams_upload"),
    path("matches/<int:pk>/upload/confirm/", director.upload_confirm, name="teams_upload_confirm"),
    path("matches/<int:pk>/lineup/", director.lineup, name="teams_lineup"),
    path("matches/<int:pk>/decision/", director.decision, name="teams_decision"),
]
