from django.urls import path

from . import director, views

urlpatterns = [
    path("events/<int:pk>/", views.event_page, name="teams_event"),
    path("events/<int:pk>/rounds/<int:number>/", views.round_page, name="teams_round"),
    path("events/<int:pk>/standings/", views.standings_page, name="teams_standings"),
    path("events/<int:pk>/bracket/", views.bracket_page, name="teams_bracket"),
    path("events/<int:pk>/players/", views.players_page, name="teams_players"),
    path("events/<int:pk>/butler/", views.butler_page, name="teams_butler"),
    path("matches/<int:pk>/", views.match_page, name="teams_match"),
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
