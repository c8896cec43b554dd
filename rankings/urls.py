from django.urls import path

from . import views
from .models import ListKind

urlpatterns = [
    path("", views.index, name="rankings"),
    path(
        "<slug:code>/masterpoints/",
        views.ranking_list,
        {"kind": ListKind.ANNUAL},
        name="rankings_masterpoints",
    ),
    path(
        "<slug:code>/masterpoints.csv",
        views.ranking_csv,
        {"kind": ListKind.ANNUAL},
        name="rankings_masterpoints_csv",
    ),
    path("<slug:code>/rating/", views.ranking_list, {"kind": ListKind.RATING}, name="rankings_rating"),
    path("<slug:code>/rating.csv", views.ranking_csv, {"kind": ListKind.RATING}, name="rankings_rating_csv"),
    path("<slug:code>/players/<int:person_id>/", views.player, name="rankings_player"),
    path("<slug:code>/scheme/", views.scheme, name="rankings_scheme"),
    path("<slug:code>/season/<int:year>/", views.season, name="rankings_season"),
    path("<slug:code>/season/<int:year>/invite/", views.season_invite, name="rankings_season_invite"),
    path(
        "<slug:code>/season/<int:year>/recompute/", views.season_recompute, name="rankings_season_recompute"
    ),
    path("events/<int:event_id>/", views.event_awards, name="rankings_event"),
    path("qualifications/<int:pk>/confirm/", views.respond, {"answer": "confirm"}, name="rankings_confirm"),
    path("qualifications/<int:pk>/decline/", views.respond, {"answer": "decline"}, name="rankings_decline"),
]
