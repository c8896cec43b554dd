from django.urls import path

from .views import dealing, decisions, director, players, program_check, public, rulings

urlpatterns = [
    path("", public.results_index, name="bridge_results"),
    path("events/<int:pk>/", public.event_page, name="bridge_event"),
    path("events/<int:pk>/setup/", director.event_setup, name="bridge_setup"),
    path("events/<int:pk>/corrections/", director.corrections_queue, name="bridge_corrections"),
    path("sessions/<int:pk>/", public.session_page, name="bridge_session"),
    path("sessions/<int:pk>/boards/", public.frequencies, name="bridge_frequencies"),
    path("sessions/<int:pk>/pairs/<int:pair>/", public.score_card, name="bridge_score_card"),
    path("sessions/<int:pk>/hands/", public.hand_records, name="bridge_hand_records"),
    path("sessions/<int:pk>/results.pbn", public.export_pbn, name="bridge_export_pbn"),
    path("sessions/<int:pk>/usebio.xml", public.export_usebio, name="bridge_export_usebio"),
    path("sessions/<int:pk>/upload/", director.upload, name="bridge_upload"),
    path("sessions/<int:pk>/traveller/<int:board>/", director.traveller, name="bridge_traveller"),
    path("sessions/<int:pk>/upload/confirm/", decisions.upload_confirm, name="bridge_upload_confirm"),
    path("sessions/<int:pk>/versions/", decisions.version_history, name="bridge_versions"),
    path(
        "sessions/<int:pk>/versions/<int:number>/restore/",
        decisions.version_restore,
        name="bridge_version_restore",
    ),
    path("sessions/<int:pk>/publish/", director.publish, name="bridge_publish"),
    path("sessions/<int:pk>/adjust/", director.adjust, name="bridge_adjust"),
    path("sessions/<int:pk>/fouled/<int:board>/", rulings.fouled_board, name="bridge_fouled_board"),
    path("sessions/<int:pk>/psychs/", rulings.psych_register, name="bridge_psychs"),
    path("events/<int:pk>/psychs/", rulings.event_psychs, name="bridge_event_psychs"),
    path("sessions/<int:pk>/movement/", director.guide_cards, name="bridge_guide_cards"),
    path("sessions/<int:pk>/roster/", director.roster_page, name="bridge_roster"),
    path("sessions/<int:pk>/dealing/", dealing.dealing_page, name="bridge_dealing"),
    path("sessions/<int:pk>/start/", dealing.start_session, name="bridge_start_session"),
    path("sessions/<int:pk>/deal-statistics/", dealing.session_statistics, name="bridge_session_statistics"),
    path("sessions/<int:pk>/correction/", players.correction_request, name="bridge_correction_request"),
    path("corrections/<int:pk>/decide/", director.decide_correction, name="bridge_correction_decide"),
    path("federations/<int:pk>/program-check/", program_check.program_check, name="bridge_program_check"),
    path("deal-statistics/", dealing.any_statistics, name="bridge_deal_statistics"),
]
