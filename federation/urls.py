from django.urls import path

from .views import accounts, membership, people, privacy

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
    path("privacy/", privacy.privacy_notice, name="privacy_notice"),
    path("accounts/my-data/", privacy.my_data, name="my_data"),
    path("accounts/my-data/export.<str:fmt>", privacy.my_data_export, name="my_data_export"),
    path("accounts/erasure/", privacy.erasure_request, name="erasure_request"),
    path("accounts/erasure/<int:pk>/confirm/", privacy.erasure_confirm, name="erasure_confirm"),
    path("accounts/erasure/<int:pk>/cancel/", privacy.erasure_cancel, name="erasure_cancel"),
    path("accounts/mail-preferences/", privacy.mail_preferences_page, name="mail_preferences"),
    path("mail-preferences/<str:token>/", privacy.mail_preferences_link, name="mail_preferences_link"),
    path("erasure-requests/", privacy.erasure_requests, name="erasure_requests"),
    path("erasure-requests/<int:pk>/", privacy.erasure_decide, name="erasure_decide"),
    path("people/<int:pk>/data-basis/", privacy.data_basis, name="data_basis"),
    path("licences/", membership.licence_list, name="licence_list"),
    path("licences/<int:pk>/revoke/", membership.licence_revoke, name="licence_revoke"),
    path("licences/fees/<int:pk>/paid/", membership.licence_fee_paid, name="licence_fee_paid"),
    path("member-requests/", membership.member_request_list, name="member_request_list"),
    path("member-requests/<int:pk>/", membership.member_request_decide, name="member_request_decide"),
]
