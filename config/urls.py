from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from federation.api import MeView
from federation.views.accounts import PasswordResetView
from federation.views.audit import audit_log
from federation.views.outbox import outbox
from rankings.views.people import my_page, person_detail
from tournaments.views.home import home

from .api import router

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password-reset/", PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password-reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"
    ),
    path("accounts/password-change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "accounts/password-change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("api/v1/me/", MeView.as_view(), name="api_me"),
    path("api/v1/", include(router.urls)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file (?script), so the CSP needs no inline script.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api_docs.html"),
        name="api_docs",
    ),
    path("audit/", audit_log, name="audit_log"),
    path("outbox/", outbox, name="outbox"),
    path("", home, name="home"),
    path("people/<int:pk>/", person_detail, name="person_detail"),
    path("me/", my_page, name="my_page"),
    path("", include("federation.urls")),
    path("", include("tournaments.urls")),
    path("bridge/", include("bridge.urls")),
    path("ulti/", include("ulti.urls")),
    path("teams/", include("teams.urls")),
    path("appeals/", include("appeals.urls")),
    path("rankings/", include("rankings.urls")),
]
