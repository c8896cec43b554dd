from django.urls import path

from . import views

urlpatterns = [
    path("accounts/register/", views.register, name="register"),
    path("accounts/register/done/", views.register_done, name="register_done"),
    path("accounts/verify/resend/", views.resend_verification, name="resend_verification"),
    path("accounts/verify/<str:token>/", views.verify_email, name="verify_email"),
    path("accounts/link/", views.link_member, name="link_member"),
    path("accounts/link/confirm/<str:token>/", views.link_confirm, name="link_confirm"),
    path("accounts/link-requests/", views.link_requests, name="link_requests"),
    path("accounts/link-requests/<int:pk>/", views.link_request_decide, name="link_request_decide"),
    path("accounts/member-request/", views.member_request, name="member_request"),
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/token/", views.api_token, name="api_token"),
    path("clubs/", views.club_list, name="club_list"),
    path("clubs/<int:pk>/", views.club_detail, name="club_detail"),
    path("people/<int:pk>/", views.person_detail, name="person_detail"),
]
