from django.urls import path

from .views import (
    announcements,
    calendar,
    clubs,
    director_alerts,
    entries,
    entry_changes,
    entry_lists,
    ledger,
    payment_pdfs,
    payments,
    region_notices,
    results,
    search,
)

urlpatterns = [
    path("clubs/<int:pk>/", clubs.club_detail, name="club_detail"),
    path("search/", search.search_page, name="search"),
    path("calendar/", calendar.calendar, name="calendar"),
    path("calendar/<int:year>/", calendar.calendar, name="calendar_year"),
    path("calendar/<int:year>/<int:month>/", calendar.calendar, name="calendar_month"),
    path("results/", results.results_index, name="results"),
    path("calendar.ics", calendar.calendar_ics, name="calendar_ics"),
    path(
        "calendar/federation/<slug:code>.ics",
        calendar.calendar_ics_federation,
        name="calendar_ics_federation",
    ),
    path("calendar/club/<int:pk>.ics", calendar.calendar_ics_club, name="calendar_ics_club"),
    path("calendar/region/<int:pk>.ics", calendar.calendar_ics_region, name="calendar_ics_region"),
    path("events/manage/", announcements.organiser_events, name="organiser_events"),
    path("director/alerts/", director_alerts.alerts, name="director_alerts"),
    path("events/review/", announcements.approval_queue, name="approval_queue"),
    path("events/new/", announcements.event_create, name="event_create"),
    path("events/<int:pk>/", calendar.event_detail, name="event_detail"),
    path("events/<int:pk>/event.ics", calendar.event_ics, name="event_ics"),
    path("events/<int:pk>/edit/", announcements.event_edit, name="event_edit"),
    path("events/<int:pk>/submit/", announcements.event_step, {"step": "submit"}, name="event_submit"),
    path("events/<int:pk>/propose/", announcements.event_step, {"step": "propose"}, name="event_propose"),
    path("events/<int:pk>/approve/", announcements.event_step, {"step": "approve"}, name="event_approve"),
    path("events/<int:pk>/return/", announcements.event_reason_step, {"step": "return"}, name="event_return"),
    path("events/<int:pk>/move/", announcements.event_reason_step, {"step": "move"}, name="event_move"),
    path("events/<int:pk>/cancel/", announcements.event_reason_step, {"step": "cancel"}, name="event_cancel"),
    path("events/<int:pk>/director/", announcements.event_assign_director, name="event_assign_director"),
    path("events/<int:pk>/enter/", entries.entry_create, name="entry_create"),
    path("events/<int:pk>/entries/", entries.manage_entries, name="manage_entries"),
    path("events/<int:pk>/entries.pdf", entry_lists.entry_list_pdf, name="entry_list_pdf"),
    path("events/<int:pk>/entries.csv", entry_lists.entry_list_export, {"fmt": "csv"}, name="entry_list_csv"),
    path(
        "events/<int:pk>/entries.xlsx", entry_lists.entry_list_export, {"fmt": "xlsx"}, name="entry_list_xlsx"
    ),
    path("events/<int:pk>/entries/add/", entries.entry_add, name="entry_add"),
    path("events/<int:pk>/fees/", ledger.fee_ledger, name="fee_ledger"),
    path("federations/<slug:code>/fees/", ledger.club_fee_summary, name="club_fee_summary"),
    path("federations/<slug:code>/fees/<int:year>/", ledger.club_fee_summary, name="club_fee_summary_year"),
    path("entries/<int:pk>/payments/", payments.entry_payments, name="entry_payments"),
    path(
        "entries/<int:pk>/payments/<int:payment_pk>/receipt.pdf",
        payment_pdfs.payment_receipt,
        name="payment_receipt",
    ),
    path("clubs/<int:pk>/bank-statement/", payments.bank_statement, name="club_bank_statement"),
    path(
        "federations/<slug:code>/bank-statement/", payments.bank_statement, name="federation_bank_statement"
    ),
    path("federations/<slug:code>/settlement/", payments.settlement, name="settlement"),
    path(
        "federations/<slug:code>/settlement/<int:year>/<int:month>/",
        payments.settlement,
        name="settlement_month",
    ),
    path(
        "federations/<slug:code>/settlement/<int:year>/<int:month>.csv",
        payments.settlement_csv,
        name="settlement_csv",
    ),
    path(
        "federations/<slug:code>/settlement/<int:year>/<int:month>.pdf",
        payment_pdfs.settlement_pdf,
        name="settlement_pdf",
    ),
    path("clubs/<int:pk>/settlement/", payments.settlement, name="club_settlement"),
    path(
        "clubs/<int:pk>/settlement/<int:year>/<int:month>/", payments.settlement, name="club_settlement_month"
    ),
    path(
        "clubs/<int:pk>/settlement/<int:year>/<int:month>.csv",
        payments.settlement_csv,
        name="club_settlement_csv",
    ),
    path(
        "clubs/<int:pk>/settlement/<int:year>/<int:month>.pdf",
        payment_pdfs.settlement_pdf,
        name="club_settlement_pdf",
    ),
    path("my-entries/", entries.my_entries, name="my_entries"),
    path("entries/<int:pk>/confirm/", entries.entry_confirm, name="entry_confirm"),
    path("entries/<int:pk>/decline/", entries.entry_decline, name="entry_decline"),
    path("entries/<int:pk>/withdraw/", entries.entry_withdraw, name="entry_withdraw"),
    path("entries/<int:pk>/no-show/", entries.entry_no_show, name="entry_no_show"),
    path("events/<int:pk>/pick-player/", entry_changes.player_pick, name="player_pick"),
    path("entries/<int:pk>/replace/", entry_changes.entry_replace, name="entry_replace"),
    path("entry-changes/<int:pk>/accept/", entry_changes.change_accept, name="entry_change_accept"),
    path("entry-changes/<int:pk>/decline/", entry_changes.change_decline, name="entry_change_decline"),
    path("entries/<int:pk>/division/", entries.entry_move_division, name="entry_move_division"),
    path("region-notices/", region_notices.region_notice_list, name="region_notice_list"),
    path(
        "region-notices/<int:pk>/consent/", region_notices.region_notice_consent, name="region_notice_consent"
    ),
]
