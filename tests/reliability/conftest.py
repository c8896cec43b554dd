"""One seeded world for the reliability tests: `seed_demo` once per test module, rolled back afterwards.

The demo data is loaded inside an outer transaction (like Django's `TestCase.setUpClass`), each test runs
in a savepoint within it, and the whole world is rolled back when the module ends, so nothing leaks into
the rest of the suite when it shares an xdist worker's database.
"""

import datetime
from dataclasses import dataclass, field

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import seeded_demo

ROLES = [
    "anonymous",
    "player",
    "other_player",
    "club_admin",
    "other_club_admin",
    "director",
    "other_director",
    "appeals",
    "other_appeals",
    "ethics",
    "disciplinary",
    "staff_mbsz",
    "staff_mausz",
    "superuser",
]


@dataclass
class World:
    users: dict = field(default_factory=dict)  # role -> User (None for anonymous)
    kwargs: dict = field(default_factory=dict)  # url name -> kwargs
    api_pk: dict = field(default_factory=dict)  # router basename -> pk of the object its detail routes get
    objects: dict = field(default_factory=dict)  # name -> object


def _user(email, *, superuser=False):
    User = get_user_model()
    user, _ = User.objects.get_or_create(username=email, defaults={"email": email})
    if superuser:
        user.is_superuser = user.is_staff = True
        user.save()
    return user


def _build_world():
    from appeals.models import Appeal, CommitteeMember, Decision
    from bridge.models import AcceptedProgram, CorrectionRequest, PairSession
    from federation.models import Club, Federation, Person, QualifiedDirector, Region, Role
    from rankings.models import Qualification, Season
    from teams.models import Match
    from teams.models import Round as TeamRound
    from tournaments.models import Entry, EntryChange, Event, Payment
    from ulti.models import Group, Stage, Table, UltiEvent
    from ulti.models import Round as UltiRound

    w = World()
    mbsz = Federation.objects.get(code="mbsz")
    mausz = Federation.objects.get(code="mausz")
    pair_event = Event.objects.get(pk=PairSession.objects.order_by("pk").first().event_id)
    team_event = Event.objects.get(pk=TeamRound.objects.order_by("pk").first().event_id)
    ulti_event = Event.objects.get(pk=UltiEvent.objects.order_by("event_id").first().event_id)
    appeal = Appeal.objects.order_by("pk").first()
    appeal_event = appeal.event
    club = Club.objects.get(pk=appeal_event.club_id)
    other_club = Club.objects.filter(federation=mbsz).exclude(pk=club.pk).order_by("pk").first()
    other_event = (
        Event.objects.filter(federation=mbsz)
        .exclude(pk__in=[pair_event.pk, team_event.pk, appeal_event.pk])
        .order_by("pk")[0]
    )

    users = w.users
    users["anonymous"] = None
    users["player"] = _user("jatekos@demo.hu")
    users["club_admin"] = _user("klub.bridzs@demo.hu")
    users["director"] = _user("vezeto@demo.hu")
    users["appeals"] = _user("fellebbezes@demo.hu")
    users["ethics"] = _user("etika@demo.hu")
    users["disciplinary"] = _user("fegyelmi@demo.hu")
    users["staff_mbsz"] = _user("staff.mbsz@demo.hu")
    users["staff_mausz"] = _user("staff.mausz@demo.hu")
    users["superuser"] = _user("admin@demo.hu", superuser=True)
    # The demo director runs the pair, team and appeals events; make him the ulti event's director too.
    Role.objects.get_or_create(user=users["director"], kind=Role.DIRECTOR, event=ulti_event)

    # Roles the demo data does not have: somebody else's pair, club, event and panel.
    player_person = users["player"].person
    pair_entry = Entry.objects.filter(event=pair_event, members__person=player_person).first()
    other_entry = (
        Entry.objects.filter(event=pair_event)
        .exclude(pk=getattr(pair_entry, "pk", None))
        .exclude(members__person__user__isnull=False)
        .order_by("pk")
        .first()
    )
    other_person = other_entry.members.order_by("pk").first().person
    users["other_player"] = _user("masik.jatekos@reliability.test")
    Person.objects.filter(pk=other_person.pk).update(user=users["other_player"])
    users["other_club_admin"] = _user("masik.klub@reliability.test")
    Role.objects.get_or_create(user=users["other_club_admin"], kind=Role.CLUB_ADMIN, club=other_club)
    users["other_director"] = _user("masik.vezeto@reliability.test")
    Role.objects.get_or_create(user=users["other_director"], kind=Role.DIRECTOR, event=other_event)
    users["other_appeals"] = _user("masik.fellebbezes@reliability.test")
    Role.objects.get_or_create(user=users["other_appeals"], kind=Role.APPEALS, event=other_event)

    session = PairSession.objects.filter(event=pair_event).order_by("pk").first()
    team_round = TeamRound.objects.filter(event=team_event).order_by("number").first()
    match = Match.objects.filter(round__event=team_event).order_by("pk").first()
    stage = Stage.objects.filter(event=ulti_event).order_by("pk").first()
    group = Group.objects.filter(stage=stage).order_by("pk").first()
    ulti_round = UltiRound.objects.filter(group=group).order_by("number").first()
    table = Table.objects.filter(round=ulti_round).order_by("pk").first()
    ulti_person = table.seats.order_by("pk").first().participant.person_id
    correction = CorrectionRequest.objects.order_by("pk").first()
    decision = Decision.objects.filter(appeal=appeal).order_by("pk").first()
    member = CommitteeMember.objects.filter(committee__event=appeal_event).order_by("pk").first()
    season = Season.objects.order_by("pk").first()
    qualification = Qualification.objects.order_by("pk").first()
    region = Region.objects.order_by("pk").first()
    appeal_session = appeal.session
    my_entry = Entry.objects.filter(members__person=player_person).order_by("-pk").first()
    # A pending replacement in the player's entry, offered to "other_player" (entry changes' pages).
    change = EntryChange.objects.create(
        entry=my_entry,
        old_person=my_entry.members.exclude(person=player_person).order_by("position").first().person,
        new_person=other_person,
        position=my_entry.members.exclude(person=player_person).order_by("position").first().position,
        requested_by=users["player"],
    )
    # A payment of the player's entry, for its receipt.
    receipt_payment = Payment.objects.create(
        entry=my_entry,
        amount=2000,
        method=Payment.Method.CASH,
        paid_on=my_entry.event.start_date,
        recorded_by=_user("payment.recorder@example.hu"),
    )

    w.objects.update(
        mbsz=mbsz,
        mausz=mausz,
        pair_event=pair_event,
        team_event=team_event,
        ulti_event=ulti_event,
        appeal_event=appeal_event,
        appeal=appeal,
        other_event=other_event,
        club=club,
        session=session,
        entry=my_entry,
    )
    year = pair_event.starts_on.year if hasattr(pair_event, "starts_on") else 2026
    # One entry of MBSz's register of qualified directors (VSz 9), for its renew / revoke pages.
    register_entry = QualifiedDirector.objects.create(
        federation=mbsz,
        person=player_person,
        level=QualifiedDirector.CLUB,
        valid_from=datetime.date(2026, 1, 1),
        valid_until=datetime.date(2027, 12, 31),
    )
    pk = {
        "director_renew": register_entry.pk,
        "director_revoke": register_entry.pk,
        "director_restore": register_entry.pk,
        # federation
        "club_detail": club.pk,
        "person_detail": player_person.pk,
        # tournaments
        "calendar_ics_club": club.pk,
        "calendar_ics_region": region.pk,
        "entry_confirm": my_entry.pk,
        "entry_decline": my_entry.pk,
        "entry_withdraw": my_entry.pk,
        "entry_no_show": my_entry.pk,
        "entry_move_division": my_entry.pk,
        "entry_payments": my_entry.pk,
        "club_bank_statement": club.pk,
        "club_settlement": club.pk,
        "entry_replace": my_entry.pk,
        "entry_change_accept": change.pk,
        "entry_change_decline": change.pk,
        "player_pick": pair_event.pk,
        # bridge
        "bridge_event": pair_event.pk,
        "bridge_event_pdf": pair_event.pk,
        "bridge_setup": pair_event.pk,
        "bridge_corrections": pair_event.pk,
        "bridge_event_psychs": pair_event.pk,
        "bridge_correction_decide": correction.pk,
        # teams
        "teams_publish": team_round.pk,
        "teams_swap": team_round.pk,
        "teams_match": match.pk,
        "teams_upload": match.pk,
        "teams_upload_confirm": match.pk,
        "teams_lineup": match.pk,
        "teams_decision": match.pk,
        # ulti
        "ulti_next_stage": stage.pk,
        "ulti_generate": group.pk,
        "ulti_schedule": group.pk,
        "ulti_round": ulti_round.pk,
        "ulti_round_pdf": ulti_round.pk,
        "ulti_round_csv": ulti_round.pk,
        "ulti_live_round": ulti_round.pk,
        "ulti_publish_results": ulti_round.pk,
        "ulti_publish": ulti_round.pk,
        "ulti_round_edit": ulti_round.pk,
        "ulti_cards": ulti_round.pk,
        "ulti_upload": ulti_round.pk,
        "ulti_upload_confirm": ulti_round.pk,
        "ulti_versions": ulti_round.pk,
        "ulti_sheet": table.pk,
        "ulti_correct_table": table.pk,
        "ulti_sheet_confirm": table.pk,
        "ulti_sheet_preview": table.pk,
        "ulti_sheet_print": table.pk,
        # rankings
        "rankings_confirm": qualification.pk,
        "rankings_decline": qualification.pk,
    }
    kwargs = {name: {"pk": value} for name, value in pk.items()}
    for name in (
        "teams_event",
        "teams_standings",
        "teams_bracket",
        "teams_players",
        "teams_butler",
        "teams_standings_pdf",
        "teams_bracket_pdf",
        "teams_export_usebio",
    ):
        kwargs[name] = {"pk": team_event.pk}
    kwargs["teams_setup"] = kwargs["teams_generate"] = {"pk": team_event.pk}
    kwargs["teams_round"] = {"pk": team_event.pk, "number": team_round.number}
    for name in (
        "ulti_event",
        "ulti_standings",
        "ulti_live_standings",
        "ulti_standings_pdf",
        "ulti_standings_csv",
        "ulti_standings_xlsx",
        "ulti_start",
        "ulti_settings",
        "ulti_recompute",
    ):
        kwargs[name] = {"pk": ulti_event.pk}
    kwargs["ulti_player"] = {"pk": ulti_event.pk, "person": ulti_person or player_person.pk}
    # The teams' table exists for a team ulti event only (the demo plays one).
    ulti_team_event = Event.objects.filter(
        format=Event.Format.ULTI_TEAM, pk__in=UltiEvent.objects.values("event_id")
    ).order_by("pk")[0]
    for name in ("ulti_team_standings_csv", "ulti_team_standings_xlsx"):
        kwargs[name] = {"pk": ulti_team_event.pk}
    for name in (
        "bridge_session",
        "bridge_session_pdf",
        "bridge_frequencies",
        "bridge_frequencies_pdf",
        "bridge_hand_records",
        "bridge_hand_records_pdf",
        "bridge_export_pbn",
        "bridge_export_usebio",
        "bridge_upload",
        "bridge_versions",
        "bridge_upload_confirm",
        "bridge_publish",
        "bridge_adjust",
        "bridge_guide_cards",
        "bridge_roster",
        "bridge_dealing",
        "bridge_start_session",
        "bridge_session_statistics",
        "bridge_correction_request",
        "bridge_psychs",
    ):
        kwargs[name] = {"pk": session.pk}
    kwargs["bridge_traveller"] = {"pk": session.pk, "board": 1}
    # Table entry (issue #18): the session's table codes and control room, one table's phone page.
    from bridge.services import table_entry

    kwargs["bridge_table_codes"] = kwargs["bridge_control_room"] = {"pk": session.pk}
    kwargs["bridge_round_clock"] = {"pk": session.pk}
    for name in (
        "bridge_next_round",
        "bridge_table_correction",
        "bridge_live_standings",
        "bridge_live_boards",
    ):
        kwargs[name] = {"pk": session.pk}
    kwargs["bridge_table"] = {"code": table_entry.create_codes(session, users["director"])[0].code}
    # Ulti table entry (issue #18): the round's table codes, control room and clock, one table's phone.
    from ulti.services import table_entry as ulti_table_entry

    for name in ("ulti_table_codes", "ulti_control_room", "ulti_round_clock"):
        kwargs[name] = {"pk": ulti_round.pk}
    kwargs["ulti_table"] = {"code": ulti_table_entry.create_codes(ulti_round, users["director"])[0].code}
    # The player's pair's convention card (VSz 15), uploaded as a PDF: its page and its file.
    from django.core.files.uploadedfile import SimpleUploadedFile

    from bridge.models import Pair, SessionPair
    from bridge.services import cards

    my_pair = Pair.objects.filter(event=pair_event).filter(player1=player_person).first() or Pair.objects.get(
        event=pair_event, player2=player_person
    )
    card = cards.submit_file(my_pair, users["player"], SimpleUploadedFile("card.pdf", b"%PDF-1.4\n%%EOF\n"))
    kwargs["bridge_pair_card"] = {"pk": my_pair.pk}
    kwargs["bridge_card_file"] = {"pk": card.pk}
    kwargs["bridge_fouled_board"] = {"pk": session.pk, "board": 1}
    kwargs["bridge_version_restore"] = {"pk": session.pk, "number": 1}
    # A pair seated in that session (ids are not 1 on PostgreSQL once earlier tests used the sequence).
    seated = SessionPair.objects.filter(section__session=session).order_by("pk").first()
    kwargs["bridge_score_card"] = kwargs["bridge_score_card_pdf"] = {"pk": session.pk, "pair": seated.pk}
    # Bridge individual events (issue #20): the demo individual, published, run by the demo director.
    individual_event = Event.objects.filter(
        format=Event.Format.INDIVIDUAL, bridge_individual__isnull=False
    ).first()
    for name in (
        "bridge_individual",
        "bridge_individual_boards",
        "bridge_individual_pdf",
        "bridge_individual_boards_pdf",
        "bridge_individual_upload",
        "bridge_individual_publish",
        "bridge_individual_decide",
        "bridge_individual_upload_confirm",
    ):
        kwargs[name] = {"pk": individual_event.pk}
    kwargs["bridge_individual_player"] = {"pk": individual_event.pk, "number": 1}
    # Event pages of the tournaments app: the appeals demo event (a pair event of club 1 run by the director).
    for name in (
        "event_detail",
        "event_ics",
        "event_edit",
        "event_submit",
        "event_propose",
        "event_approve",
        "event_return",
        "event_move",
        "event_cancel",
        "event_assign_director",
        "entry_create",
        "manage_entries",
        "entry_list_pdf",
        "entry_list_csv",
        "entry_list_xlsx",
        "entry_add",
        "fee_ledger",
    ):
        kwargs[name] = {"pk": appeal_event.pk}
    kwargs["calendar_year"] = {"year": year}
    kwargs["calendar_month"] = {"year": year, "month": 11}
    kwargs["calendar_ics_federation"] = {"code": "mbsz"}
    kwargs["bridge_program_check"] = {"pk": mbsz.pk}
    accepted = AcceptedProgram.objects.create(
        federation=mbsz,
        program="Tesztprogram 1.0",
        report={},
        report_pdf=b"%PDF-1.4",
        accepted_by=users["staff_mbsz"],
    )
    kwargs["bridge_accepted_program_report"] = {"pk": mbsz.pk, "accepted_pk": accepted.pk}
    kwargs["bridge_federation_psychs"] = {"pk": mbsz.pk}
    kwargs["club_fee_summary"] = {"code": "mbsz"}
    kwargs["director_register"] = {"code": "mbsz"}
    kwargs["club_fee_summary_year"] = {"code": "mbsz", "year": year}
    kwargs["federation_bank_statement"] = kwargs["settlement"] = {"code": "mbsz"}
    kwargs["settlement_month"] = kwargs["settlement_csv"] = {"code": "mbsz", "year": year, "month": 11}
    kwargs["settlement_pdf"] = kwargs["settlement_csv"]
    kwargs["payment_receipt"] = {"pk": my_entry.pk, "payment_pk": receipt_payment.pk}
    kwargs["club_settlement_month"] = kwargs["club_settlement_csv"] = kwargs["club_settlement_pdf"] = {
        "pk": club.pk,
        "year": year,
        "month": 11,
    }
    for name in (
        "rankings_masterpoints",
        "rankings_masterpoints_csv",
        "rankings_masterpoints_xlsx",
        "rankings_scheme",
    ):
        kwargs[name] = {"code": "mbsz"}
    kwargs["rankings_rating"] = kwargs["rankings_rating_csv"] = kwargs["rankings_rating_xlsx"] = {
        "code": "mausz"
    }  # the ulti live rating
    kwargs["rankings_player"] = {"code": "mbsz", "person_id": player_person.pk}
    season_code = Federation.objects.get(pk=season.federation_id).code
    for name in (
        "rankings_season",
        "rankings_season_invite",
        "rankings_season_recompute",
        "rankings_season_tie",
    ):
        kwargs[name] = {"code": season_code, "year": season.year}
    kwargs["rankings_event"] = {"event_id": pair_event.pk}
    from rankings.models import Award as LedgerRow

    certified = LedgerRow.objects.filter(is_current=True).order_by("pk").first()
    kwargs["rankings_certificate"] = {"event_id": certified.event_id, "person_id": certified.person_id}
    # appeals
    for name in (
        "appeal_detail",
        "appeal_agree",
        "appeal_decline",
        "appeal_withdraw",
        "appeal_deposit",
        "appeal_attachment_upload",
        "appeal_panel",
        "appeal_statement",
        "appeal_propose",
        "appeal_second",
        "appeal_second_deposit",
        "appeal_second_decide",
    ):
        kwargs[name] = {"pk": appeal.pk}
    if decision is not None:
        kwargs["appeal_vote"] = kwargs["appeal_publish"] = {"pk": appeal.pk, "decision_pk": decision.pk}
        kwargs["appeal_withdraw_proposal"] = {"pk": appeal.pk, "decision_pk": decision.pk}
        kwargs["appeal_second_vote"] = {"pk": appeal.pk, "decision_pk": decision.pk}
    for name in (
        "appeals_event",
        "appeal_file",
        "appeal_intention_declare",
        "appeal_intention_record",
        "appeals_committee_add",
        "appeals_event_start",
        "appeals_discipline",
    ):
        kwargs[name] = {"pk": appeal_event.pk}
    kwargs["appeals_committee_remove"] = {"pk": appeal_event.pk, "member_pk": member.pk}
    kwargs["appeals_committee_leave"] = {"pk": appeal_event.pk}
    kwargs["appeals_committee_leave_decide"] = {"pk": appeal_event.pk, "member_pk": member.pk}
    kwargs["appeals_session_end"] = {"pk": appeal_event.pk, "session_pk": appeal_session.pk}
    kwargs["appeals_reports"] = {"code": "mbsz"}
    kwargs["password_reset_confirm"] = {"uidb64": "MQ", "token": "set-password"}
    kwargs["verify_email"] = kwargs["link_confirm"] = {"token": "no-such-token"}
    # A member of the demo club asks to be linked; his record has no e-mail, so the club or the staff approves.
    from federation.models import LinkRequest, Membership

    unlinked = Membership.objects.filter(club=club, person__user__isnull=True).order_by("pk").first()
    requester = _user("link.requester@example.hu")
    link_request = LinkRequest.objects.create(
        user=requester, person=unlinked.person, federation=mbsz, club=club, method=LinkRequest.BY_APPROVAL
    )
    kwargs["link_request_decide"] = {"pk": link_request.pk}
    # Personal data, licences, member requests and region notices: one object of each.
    from federation.models import ErasureRequest, Licence, LicenceFee, MemberRequest
    from federation.services.mail_preferences import token_for
    from tournaments.models import RegionNotice

    erasure_request = ErasureRequest.objects.create(person=player_person, requested_by=users["player"])
    for name in ("erasure_confirm", "erasure_cancel", "erasure_decide"):
        kwargs[name] = {"pk": erasure_request.pk}
    kwargs["my_data_export"] = {"fmt": "json"}
    kwargs["mail_preferences_link"] = {"token": token_for("jatekos@demo.hu")}
    kwargs["data_basis"] = {"pk": unlinked.person_id}
    ulti_holder = Person.objects.get(pk=ulti_person)
    licence, _ = Licence.objects.get_or_create(person=ulti_holder, federation=mausz, year=year)
    kwargs["licence_revoke"] = {"pk": licence.pk}
    fee, _ = LicenceFee.objects.get_or_create(licence=licence, defaults={"amount": 3000})
    kwargs["licence_fee_paid"] = {"pk": fee.pk}
    member_request = MemberRequest.objects.create(
        user=requester, federation=mbsz, club=club, first_name="Kérő", last_name="Tag",
        birth_date="1990-01-01", gender="M",
    )  # fmt: skip
    kwargs["member_request_decide"] = {"pk": member_request.pk}
    notice, _ = RegionNotice.objects.get_or_create(
        person=ulti_holder,
        federation=mausz,
        season=year,
        defaults={"region": Region.objects.filter(federation=mausz).order_by("pk").first()},
    )
    kwargs["region_notice_consent"] = {"pk": notice.pk}
    w.kwargs = kwargs

    from rankings.models import Award as RankingAward
    from rankings.models import AwardScheme, ListEntry, PlayerRating, SeasonEntry

    def first(model):
        obj = model.objects.order_by("pk").first()
        return obj.pk if obj else None

    w.api_pk = {
        "federation": mbsz.pk,
        "region": region.pk,
        "club": club.pk,
        "person": player_person.pk,
        "event": appeal_event.pk,
        "entry": my_entry.pk,
        "bridge-session": session.pk,
        "bridge-event": pair_event.pk,
        "bridge-correction": correction.pk,
        "ulti-round": ulti_round.pk,
        "ulti-group": group.pk,
        "ranking-list": first(ListEntry),
        "ranking-award": first(RankingAward),
        "ranking-rating": first(PlayerRating),
        "ranking-scheme": first(AwardScheme),
        "ranking-season-entry": first(SeasonEntry),
        "ranking-qualification": qualification.pk,
        "team-round": team_round.pk,
        "team-match": match.pk,
        "appeal": appeal.pk,
        "appeal-event": appeal_event.pk,
    }
    return w


def pytest_collection_modifyitems(items):
    """Give each schemathesis operation its own node id (test_api_operation[GET /api/v1/clubs/]).

    schemathesis 4.32 names its items per operation but passes no callspec, and pytest 9.2 builds a node id
    from the callspec only, so all ~90 operations shared one id: under pytest-xdist they were reported as
    one test, and `pytest "<id>"` could not pick one operation.
    """
    for item in items:
        if getattr(item, "operation_label", None) and item.name.endswith("]") and item._id.params is None:
            item._id = item._id.with_params(item.name[item.name.index("[") + 1 : -1])


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The demo world plus the roles it lacks; rolled back when the module's tests are done."""
    with seeded_demo(django_db_blocker, _build_world) as built:
        yield built
