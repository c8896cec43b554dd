from django.urls import path

from .models import ListKind
from .views import certificates, events, lists, players, schemes, seasons

urlpatterns = [
    path("", lists.index, name="rankings"),
    path(
        "<slug:code>/masterpoints/",
        lists.ranking_list,
        {"kind": ListKind.ANNUAL},
        name="rankings_masterpoints",
    ),
    path(
        "<slug:code>/masterpoints.csv",
        lists.ranking_csv,
        {"kind": ListKind.ANNUAL},
        name="rankings_masterpoints_csv",
    ),
    path(
        "<slug:code>/masterpoints.xlsx",
        lists.ranking_csv,
        {"kind": ListKind.ANNUAL, "fmt": "xlsx"},
        name="rankings_masterpoints_xlsx",
    ),
    path("<slug:code>/rating/", lists.ranking_list, {"kind": ListKind.RATING}, name="rankings_rating"),
    path("<slug:code>/rating.csv", lists.ranking_csv, {"kind": ListKind.RATING}, name="rankings_rating_csv"),
    path(
        "<slug:code>/rating.xlsx",
        lists.ranking_csv,
        {"kind": ListKind.RATING, "fmt": "xlsx"},
        name="rankings_rating_xlsx",
    ),
    path("<slug:code>/players/<int:person_id>/", players.player, name="rankings_player"),
    path("<slug:code>/scheme/", schemes.scheme, name="rankings_scheme"),
    path("<slug:code>/season/<int:year>/", seasons.season, name="rankings_season"),
    path("<slug:code>/season/<int:year>/invite/", seasons.season_invite, name="rankings_season_invite"),
    path("<slug:code>/season/<int:year>/tie/", seasons.season_tie, name="rankings_season_tie"),
    path(
        "<slug:code>/season/<int:year>/recompute/", seasons.season_recompute, name="rankings_season_recompute"
    ),
    path("events/<int:event_id>/", events.event_awards, name="rankings_event"),
    path(
        "events/<int:event_id>/certificates/<int:person_id>.pdf",
        certificates.certificate_pdf,
        name="rankings_certificate",
    ),
    path("qualifications/<int:pk>/confirm/", seasons.respond, {"answer": "confirm"}, name="rankings_confirm"),
    path("qualifications/<int:pk>/decline/", seasons.respond, {"answer": "decline"}, name="rankings_decline"),
]
