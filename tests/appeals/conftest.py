"""Fixtures of the appeals tests: a bridge pairs event on the day, its players, director and committee."""

import datetime
from types import SimpleNamespace

import pytest
from django.utils import timezone, translation

from appeals import effects
from appeals.models import Intention
from appeals.services import committee, filing
from federation.models import Role
from tournaments.models import Entry, EntryMember, Event, Session

DAY = datetime.date(2026, 12, 5)


@pytest.fixture(autouse=True)
def _english():
    """Services answer in the active language; the tests read their English messages."""
    with translation.override("en"):
        yield


def at(hour, minute=0, day=DAY):
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour, minute)))


@pytest.fixture
def fake_effect():
    """Replace the bridge handler by one that records the decisions it was given."""
    applied = []

    def handler(decision):
        applied.append(decision)
        return f"fake-v{len(applied)}"

    # Without a check: these cases have no bridge results; the real handler and check come back after.
    with effects.replaced("bridge", handler):
        yield applied


@pytest.fixture
def world(db, mbsz, bridge_club, make_person, make_user):
    """A pairs event with two sessions, six pairs with logins, a director, staff and a 3+2 committee."""
    event = Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Őszi páros",
        format=Event.Format.PAIRS,
        event_class=Event.EventClass.CLUB,
        start_date=DAY,
        status=Event.Status.APPROVED,
        masterpoint_multiplier="1.00",
        appeal_deposit=3000,
        appeal_deadline_minutes=30,
    )
    s1 = Session.objects.create(event=event, name="1. forduló", starts_at=at(10))
    s2 = Session.objects.create(event=event, name="2. forduló", starts_at=at(15))

    def player(tag):
        user = make_user(f"{tag}@example.hu")
        return make_person(federation=mbsz, club=bridge_club, user=user, first_name=tag.capitalize())

    pairs = []
    for i in range(6):
        a, b = player(f"p{i}a"), player(f"p{i}b")
        entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE)
        EntryMember.objects.create(entry=entry, person=a, position=1, confirmed_at=at(8))
        EntryMember.objects.create(entry=entry, person=b, position=2, confirmed_at=at(8))
        pairs.append(entry)
    director = make_user("director@example.hu", kind=Role.DIRECTOR, event=event)
    staff = make_user("staff@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz)
    ethics = make_user("ethics@example.hu", kind=Role.ETHICS, federation=mbsz)
    disciplinary = make_user("fegyelmi@example.hu", kind=Role.DISCIPLINARY, federation=mbsz)
    members = []
    for i in range(5):
        user = make_user(f"committee{i}@example.hu")
        make_person(federation=mbsz, club=bridge_club, user=user, first_name=f"Tag{i}")
        user.refresh_from_db()
        members.append(committee.add_member(event, user, is_alternate=i >= 3, by=director))
    outsider = player("outsider")
    return SimpleNamespace(
        event=event,
        sessions=(s1, s2),
        pairs=pairs,
        director=director,
        staff=staff,
        ethics=ethics,
        disciplinary=disciplinary,
        members=members,
        outsider=outsider.user,
    )


def user_of(entry, position=0):
    return entry.members.order_by("position")[position].person.user


@pytest.fixture
def file_case(world):
    """File an appeal of pair 0 against pair 1 on board 7 of the first session (intention told in time)."""

    def file(entry=None, respondent=None, *, agree=True, deposit=True, board=7, now=None):
        entry = entry or world.pairs[0]
        respondent = respondent if respondent is not None else world.pairs[1]
        session = world.sessions[0]
        Intention.objects.create(
            session=session,
            entry=entry,
            board_number=board,
            source=Intention.Source.DIRECTOR,
            recorded_by=world.director,
            recorded_at=at(12, 30),
        )
        filing.end_session(session, world.director, at=at(13))
        appeal = filing.file_appeal(
            user_of(entry),
            session=session,
            entry=entry,
            respondent_entry=respondent,
            board_number=board,
            ns_pair="3",
            ew_pair="5",
            appellant_pair="3",
            director=world.director,
            ruling="Score stands: 4S= by N.",
            request="Adjust to 4S-1.",
            statement="The hesitation suggested the lead.",
            now=now or at(13, 10),
        )
        if agree:
            appeal = filing.agree(appeal, user_of(entry, 1), now=at(13, 15))
        if deposit:
            appeal = filing.confirm_deposit(appeal, world.director, now=at(13, 20))
        appeal.refresh_from_db()
        return appeal

    return file


@pytest.fixture
def heard_case(world, file_case):
    """A lodged case with its panel seated and the director and both parties heard."""
    from appeals.services import hearing, panel

    def make(**kwargs):
        appeal = file_case(**kwargs)
        panel.form_panel(appeal, world.director)
        chair = world.members[0].user
        for speaker in ("director", "appellant", "respondent"):
            hearing.record_statement(
                appeal, chair, speaker=speaker, speaker_name=speaker, text=f"{speaker} says"
            )
        appeal.refresh_from_db()
        return appeal

    return make


def decide(appeal, panel_users, *, votes=(True, True), **fields):
    """Propose with the first panel member, let the others vote, publish; returns the decision."""
    from appeals.services import decision as decisions

    values = dict(outcome="upheld", text="A döntés helyben marad.")
    values.update(fields)
    proposal = decisions.propose(appeal, panel_users[0], **values)
    for user, agrees in zip(panel_users[1:], votes, strict=False):
        decisions.vote(proposal, user, agrees)
    proposal.refresh_from_db()
    if proposal.status == "proposed":
        decisions.publish(proposal, panel_users[0])
        proposal.refresh_from_db()
    return proposal


@pytest.fixture
def scored_bridge_event(mbsz, make_user, django_capture_on_commit_callbacks):
    """A published 12-pair club event (masterpoints, deposit 2,000 Ft) with its committee of 3 + 2:
    ``scored_bridge_event(title, seed)`` -> (event, session, director)."""
    import random

    from bridge.services import setup, upload_readers, uploads
    from demo import bridge_sample as sample

    def make(title, seed):
        start = timezone.make_aware(datetime.datetime(2026, 11, 28, 10, 0))
        event = sample.event_with_pairs(mbsz, pairs=12, title=title, start=start)
        event.event_class, event.masterpoint_multiplier, event.appeal_deposit = "club", "1.00", 2000
        event.save()
        director = make_user("td@example.hu", kind=Role.DIRECTOR, event=event)
        for i in range(5):
            committee.add_member(event, make_user(f"ob{i}@example.hu"), is_alternate=i >= 3, by=director)
        session = setup.create_session(
            event,
            movement="mitchell",
            pairs=setup.pairs_from_entries(event),
            announced=event.sessions.first(),
            boards_per_round=3,
        )
        rows = sample.play(session, random.Random(seed))
        with django_capture_on_commit_callbacks(execute=True):
            uploads.upload(
                session, upload_readers.parse_pbn(sample.pbn_text(session, rows)), source="pbn", user=director
            )
        with django_capture_on_commit_callbacks(execute=True):
            setup.publish(session, director)
        return event, session, director

    return make
