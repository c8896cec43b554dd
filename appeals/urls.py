from django.urls import path

from .views import cases, desk, discipline, hearing

urlpatterns = [
    path("", cases.appeal_list, name="appeals"),
    path("<int:pk>/", cases.appeal_detail, name="appeal_detail"),
    path("<int:pk>/agree/", cases.appeal_agree, name="appeal_agree"),
    path("<int:pk>/decline/", cases.appeal_decline, name="appeal_decline"),
    path("<int:pk>/withdraw/", cases.appeal_withdraw, name="appeal_withdraw"),
    path("<int:pk>/deposit/", cases.appeal_deposit, name="appeal_deposit"),
    path("<int:pk>/attachments/", cases.attachment_upload, name="appeal_attachment_upload"),
    path("<int:pk>/attachments/<int:attachment_pk>/", cases.attachment_download, name="appeal_attachment"),
    path("<int:pk>/panel/", hearing.panel_form, name="appeal_panel"),
    path("<int:pk>/statements/", hearing.statement_add, name="appeal_statement"),
    path("<int:pk>/decisions/", hearing.decision_propose, name="appeal_propose"),
    path("<int:pk>/decisions/<int:decision_pk>/vote/", hearing.decision_vote, name="appeal_vote"),
    path("<int:pk>/decisions/<int:decision_pk>/publish/", hearing.decision_publish, name="appeal_publish"),
    path(
        "<int:pk>/decisions/<int:decision_pk>/withdraw/",
        hearing.decision_withdraw,
        name="appeal_withdraw_proposal",
    ),
    path("<int:pk>/second-instance/", hearing.second_file, name="appeal_second"),
    path("<int:pk>/second-instance/deposit/", hearing.second_deposit, name="appeal_second_deposit"),
    path("<int:pk>/second-instance/decision/", hearing.second_decide, name="appeal_second_decide"),
    path(
        "<int:pk>/second-instance/decisions/<int:decision_pk>/vote/",
        hearing.second_vote,
        name="appeal_second_vote",
    ),
    path("events/<int:pk>/", desk.event_desk, name="appeals_event"),
    path("events/<int:pk>/file/", cases.appeal_file, name="appeal_file"),
    path("events/<int:pk>/intention/", cases.intention_declare, name="appeal_intention_declare"),
    path("events/<int:pk>/intentions/", desk.intention_record, name="appeal_intention_record"),
    path("events/<int:pk>/committee/", desk.committee_add, name="appeals_committee_add"),
    path(
        "events/<int:pk>/committee/<int:member_pk>/remove/",
        desk.committee_remove,
        name="appeals_committee_remove",
    ),
    path("events/<int:pk>/committee/leave/", desk.committee_leave, name="appeals_committee_leave"),
    path(
        "events/<int:pk>/committee/<int:member_pk>/leave/",
        desk.committee_leave_decide,
        name="appeals_committee_leave_decide",
    ),
    path("events/<int:pk>/start/", desk.event_start, name="appeals_event_start"),
    path("events/<int:pk>/sessions/<int:session_pk>/end/", desk.session_end, name="appeals_session_end"),
    path("events/<int:pk>/discipline/", discipline.event_discipline, name="appeals_discipline"),
    path(
        "events/<int:pk>/discipline/<int:measure_pk>/consent/",
        discipline.measure_consent,
        name="appeals_consent",
    ),
    path(
        "events/<int:pk>/discipline/<int:measure_pk>/apply/",
        discipline.measure_apply,
        name="appeals_measure_apply",
    ),
    path("discipline/<slug:code>/", discipline.report_list, name="appeals_reports"),
    path("discipline/<slug:code>/<int:pk>/", discipline.report_detail, name="appeals_report"),
]
