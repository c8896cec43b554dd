from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/register/", views.register, name="register"),
    path("accounts/link/", views.link_member, name="link_member"),
    path("accounts/member-request/", views.member_request, name="member_request"),
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/token/", views.api_token, name="api_token"),
    path("clubs/", views.club_list, name="club_list"),
    path("clubs/<int:pk>/", views.club_detail, name="club_detail"),
    path("people/<int:pk>/", views.person_detail, name="person_detail"),
]
