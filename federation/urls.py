from django.urls import path

from .views import accounts, directors, people

urlpatterns = [
    path("accounts/register/", accounts.register, name="register"),
    path("accounts/register/done/", accounts.register_done, name="register_done"),
    path("accounts/verify/resend/", accounts.resend_verification, name="resend_verification"),
    path("accounts/verify/<str:token>/", accounts.verify_email, name="verify_email"),
    path("accounts/link/", accounts.link_member, name="link_member"),
    path("accounts/link/confirm/<str:token>/", accounts.link_confirm, name="link_confirm"),
    path("accounts/link-requests/", accounts.link_requests, name="link_requests"),
    path("accounts/link-requests/<int:pk>/", accounts.link_request_decide, name="link_request_decide"),
    path("accounts/member-request/", accounts.member_request, name="member_request"),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/token/", accounts.api_token, name="api_token"),
    path("clubs/", people.club_list, name="club_list"),
    path("directors/", directors.register_home, name="director_register_home"),
    path("directors/<slug:code>/", directors.director_register, name="director_register"),
    path("directors/entry/<int:pk>/renew/", directors.director_renew, name="director_renew"),
    path("directors/entry/<int:pk>/revoke/", directors.director_revoke, name="director_revoke"),
]
