"""Demo appeals on the demo pair event ("Demo páros verseny"): its committee, one decided case, one open case.

Deterministic and idempotent: the committee, the entries and the cases are made only when missing. Rows are
written directly (no e-mails), with timeline rows, at the times of the event's own sessions; the demo event
lies a fortnight ahead (demo/federation.py), so its sessions, cases and decisions are dated then.

Logins (password as in demo/federation.py): fellebbezes@demo.hu sits on both panels, with
obizottsag2@demo.hu and obizottsag3@demo.hu; obizottsag4@ and obizottsag5@demo.hu are the alternates;
vezeto@demo.hu is the director who ruled.
"""

import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from appeals.models import (
    Appeal,
    Committee,
    CommitteeMember,
    Consent,
    Decision,
    EventStart,
    Intention,
    PanelSeat,
    SessionEnd,
    Statement,
    TimelineEntry,
    Vote,
)
from appeals.services.panel import PARTNER_LOOKBACK_DAYS
from demo.federation import DEMO_PASSWORD
from federation.models import Federation, Membership, Role
from tournaments.models import Entry, EntryMember, Event, Session

A = TimelineEntry.Action
TITLE = "Demo páros verseny"
PAIRS = 8


def _at(day, hour, minute=0):
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour, minute)))


def _sessions(event):
    sessions = list(event.sessions.order_by("starts_at"))
    if len(sessions) >= 2:
        return sessions
    for name, hour in (("1. forduló", 10), ("2. forduló", 15))[len(sessions) :]:
        sessions.append(Session.objects.create(event=event, name=name, starts_at=_at(event.start_date, hour)))
    return sessions


def _people(federation, count, exclude=()):
    """Members without a login or a suspension, in member-number order (the same every run)."""
    found = (
        Membership.objects.filter(
            federation=federation, is_active=True, person__user__isnull=True, person__suspensions__isnull=True
        )
        .exclude(person__in=exclude)
        .select_related("person", "club")
        .order_by("member_number")
    )
    return list(found[:count])


def _entries(event, federation):
    entries = list(event.entries.filter(status=Entry.Status.ACTIVE).order_by("pk"))
    if len(entries) >= 4:
        return entries
    members = _people(federation, 2 * PAIRS)
    at = _at(event.start_date - datetime.timedelta(days=10), 19)
    for i in range(0, len(members) - 1, 2):
        entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE, entered_at=at)
        for pos, m in enumerate(members[i : i + 2]):
            EntryMember.objects.create(
                entry=entry, person=m.person, position=pos + 1, home_club=m.club, confirmed_at=at
            )
        entries.append(entry)
    return entries


def _committee(event, federation, director, entries):
    committee = Committee.objects.filter(event=event).first()
    if committee is not None:
        return committee
    committee = Committee.objects.create(
        event=event, formed_by=director, formed_at=_sessions(event)[0].starts_at
    )
    users = get_user_model().objects
    seats = [(users.get(username="fellebbezes@demo.hu"), None)]
    # Members who played nowhere in the last year: impartial on any case of the event (appeals/services/panel.py).
    since = event.start_date - datetime.timedelta(days=PARTNER_LOOKBACK_DAYS)
    played = EntryMember.objects.filter(entry__event__start_date__gte=since).values("person")
    for i, membership in enumerate(_people(federation, 4, exclude=played), start=2):
        email = f"obizottsag{i}@demo.hu"
        user, created = users.get_or_create(username=email, defaults={"email": email})
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        membership.person.user = user
        membership.person.save(update_fields=["user"])
        seats.append((user, membership.person))
    for i, (user, person) in enumerate(seats):
        CommitteeMember.objects.create(
            committee=committee,
            user=user,
            person=person,
            is_alternate=i >= 3,
            added_by=director,
            added_at=committee.formed_at,
        )
        Role.objects.get_or_create(user=user, kind=Role.APPEALS, event=event)
    return committee


def _log(appeal, action, actor, at, note=""):
    TimelineEntry.objects.create(appeal=appeal, action=action, actor=actor, at=at, note=note)


def _case(
    event, session, number, entry, opponents, director, panel, *, board, ruling, request, statement, at
):
    """A case filed, agreed, paid and seated, with the director heard; the caller decides it or not."""
    end = at - datetime.timedelta(minutes=10)
    SessionEnd.objects.get_or_create(session=session, defaults={"ended_at": end, "recorded_by": director})
    Intention.objects.create(
        session=session,
        entry=entry,
        board_number=board,
        source=Intention.Source.DIRECTOR,
        recorded_by=director,
        recorded_at=end - datetime.timedelta(minutes=40),
    )
    players = [m.person for m in entry.members.order_by("position")]
    appeal = Appeal.objects.create(
        event=event,
        number=number,
        session=session,
        board_number=board,
        ns_pair=str(2 * number),
        ew_pair=str(2 * number + 5),
        appellant_pair=str(2 * number),
        entry=entry,
        respondent_entry=opponents,
        director=director,
        director_name="Hajdu Gábor",
        ruling=ruling,
        request=request,
        statement=statement,
        status=Appeal.Status.HEARING,
        filed_by=director,
        filed_at=at,
        deposit_amount=event.appeal_deposit,
        deposit_paid_at=at + datetime.timedelta(minutes=6),
        deposit_received_by=director,
    )
    for i, person in enumerate(players):
        Consent.objects.create(appeal=appeal, person=person, agreed_at=at + datetime.timedelta(minutes=2 * i))
    _log(appeal, A.INTENTION, director, end - datetime.timedelta(minutes=40))
    _log(appeal, A.FILED, None, at, f"{players[0]}: {request}")
    _log(appeal, A.AGREED, None, at + datetime.timedelta(minutes=2), str(players[-1]))
    _log(appeal, A.DEPOSIT, director, at + datetime.timedelta(minutes=6), f"{event.appeal_deposit} Ft")
    _log(appeal, A.LODGED, director, at + datetime.timedelta(minutes=6))
    seated_at = at + datetime.timedelta(minutes=15)
    for member in panel:
        PanelSeat.objects.create(appeal=appeal, member=member, seated_by=director, seated_at=seated_at)
        _log(appeal, A.PANEL, director, seated_at, member.name)
    heard = seated_at + datetime.timedelta(minutes=10)
    Statement.objects.create(
        appeal=appeal,
        speaker=Statement.Speaker.DIRECTOR,
        speaker_name="Hajdu Gábor",
        text=ruling,
        recorded_by=panel[0].user,
        recorded_at=heard,
    )
    _log(appeal, A.STATEMENT, panel[0].user, heard, "Hajdu Gábor")
    return appeal


def _decide(appeal, panel, at):
    for speaker, entry in (
        (Statement.Speaker.APPELLANT, appeal.entry),
        (Statement.Speaker.RESPONDENT, appeal.respondent_entry),
    ):
        Statement.objects.create(
            appeal=appeal,
            speaker=speaker,
            speaker_name=entry.display_name,
            recorded_by=panel[0].user,
            recorded_at=at,
            text="A játékos elmondta a maga változatát a licitmenetről.",
        )
        _log(appeal, A.STATEMENT, panel[0].user, at, entry.display_name)
    published = at + datetime.timedelta(minutes=30)
    decision = Decision.objects.create(
        appeal=appeal,
        outcome=Decision.Outcome.UPHELD,
        status=Decision.Status.PUBLISHED,
        unfounded=True,
        text=(
            "A bizottság meghallgatta a versenybírót és a feleket. A hezitálás nem volt egyértelmű, és a "
            "választott indulás a licitmenet alapján kézenfekvő. A versenybírói döntés helyben marad; az óvás "
            "megalapozatlan, az óvási díj a rendezőé (VSz 22)."
        ),
        board_number=appeal.board_number,
        ns_pair=appeal.ns_pair,
        ew_pair=appeal.ew_pair,
        proposed_by=panel[0].user,
        proposed_at=at + datetime.timedelta(minutes=20),
        published_at=published,
        published_by=panel[0].user,
    )
    _log(appeal, A.PROPOSED, panel[0].user, decision.proposed_at, decision.get_outcome_display())
    for i, member in enumerate(panel):
        Vote.objects.create(
            decision=decision,
            user=member.user,
            agrees=True,
            voted_at=decision.proposed_at + datetime.timedelta(minutes=i),
        )
        _log(appeal, A.VOTED, member.user, decision.proposed_at + datetime.timedelta(minutes=i))
    appeal.status = Appeal.Status.DECIDED
    appeal.deposit_outcome = Appeal.Deposit.KEPT
    appeal.save(update_fields=["status", "deposit_outcome"])
    _log(appeal, A.PUBLISHED, panel[0].user, published, decision.text)


@transaction.atomic
def seed(out=None):
    mbsz = Federation.objects.filter(code="mbsz").first()
    event = Event.objects.filter(federation=mbsz, title=TITLE).order_by("pk").first() if mbsz else None
    director = get_user_model().objects.filter(username="vezeto@demo.hu").first()
    if event is None or director is None:
        if out:
            out.write("appeals: no demo pair event, nothing to do")
        return
    if not event.appeal_deposit:
        event.appeal_deposit = 3000
        event.save(update_fields=["appeal_deposit"])
    sessions = _sessions(event)
    entries = _entries(event, mbsz)
    committee = _committee(event, mbsz, director, entries)
    EventStart.objects.get_or_create(
        event=event, defaults={"started_at": sessions[0].starts_at, "started_by": director}
    )
    if not Appeal.objects.filter(event=event).exists():
        panel = [m for m in committee.members.order_by("is_alternate", "pk") if not m.is_alternate][:3]
        first_end = sessions[0].starts_at + datetime.timedelta(hours=4)
        decided = _case(
            event,
            sessions[0],
            1,
            entries[0],
            entries[1],
            director,
            panel,
            board=5,
            ruling="Kelet hezitált 2♥ után; a versenybíró szerint Nyugat indulása nem a jogosulatlan információn "
            "alapult: az eredmény áll (4♠ É, 620).",
            request="Módosított eredményt: 4♠ -1 (Law 16).",
            statement="Partnerem hosszan gondolkodott, Nyugat ezután pikket indult, amit nélküle nem tett volna.",
            at=first_end + datetime.timedelta(minutes=20),
        )
        _decide(decided, panel, first_end + datetime.timedelta(minutes=70))
        second_end = sessions[1].starts_at + datetime.timedelta(hours=4)
        _case(
            event,
            sessions[1],
            2,
            entries[2],
            entries[3],
            director,
            panel,
            board=14,
            ruling="Téves magyarázat (Law 21): a versenybíró 3NT -1-et ítélt 3NT= helyett.",
            request="Az eredeti eredmény (3NT=, 600) visszaállítását.",
            statement="A konvenciókártyán a 2♣ licit helyesen szerepel; az ellenfél nem kérdezett rá.",
            at=second_end + datetime.timedelta(minutes=15),
        )
    if out:
        out.write(
            f"appeals: committee of {committee.members.count()} on {event.title}, "
            f"{Appeal.objects.filter(event=event).count()} cases"
        )
