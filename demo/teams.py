"""Demo team event: 14 teams of seeded MBSz members, 7 Swiss rounds of 8 boards, then a knockout of the
top 8 (quarter-finals, semi-finals, final; 16 boards in two halves) with a consolation bracket.

Everything goes through the services a director uses - generate, publish, upload (PBN, CSV, score card,
IMP result), line-ups - and the recompute task, run in-process. Deterministic (seeded generators, a
recorded draw seed) and idempotent: an event that already has rounds is left alone.
"""

import datetime
import random
import zlib

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from demo import teams_play as demo_play
from federation.models import Federation, Membership, Role
from results.models import VersionedUpload
from teams import tasks
from teams.engine.parsed import ParsedBoard, ParsedResult
from teams.models import Match, Progress, TeamEvent
from teams.services import pairing, results
from teams.services.setup import roster_entries
from teams.services.uploads import parse_csv, parse_pbn
from tournaments.engine import eligibility
from tournaments.models import Entry, EntryMember, Event
from tournaments.services.player_facts import event_terms, player_facts

TITLE = "Országos Csapatbajnokság (bemutató)"
TEAM_NAMES = [
    "Kontra", "Rekontra", "Szlem", "Impasz", "Három Szan", "Négy Pikk", "Squeeze",
    "Dupla Impasz", "Bubi Brigád", "Dáma Klub", "Ütésszámlálók", "Vulnerábilisok", "Robber", "Kiosztók",
]  # fmt: skip
SIZES = [4, 4, 5, 4, 6, 4, 5, 4, 4, 6, 4, 5, 4, 4]
DEAL_SEED = "5eed" * 10  # the demo's dealing seed (a real event keeps its seed secret until play ends)
DRAW_SEED = "d3a7" * 10


def seed(out=None):
    mbsz = Federation.objects.filter(code="mbsz").first()
    if mbsz is None:
        return
    with transaction.atomic():
        event = _event(mbsz)
        if event.team_rounds.exists():
            if out:
                out.write(f"teams: {event.title} already played")
            return
        director = _director(event)
        _entries(event)
        TeamEvent.objects.update_or_create(
            event=event,
            defaults=dict(
                pairing_format=TeamEvent.Format.SWISS,
                first_round=TeamEvent.FirstRound.DRAW,
                rounds=7,
                boards_per_match=8,
                knockout_teams=8,
                knockout_boards=16,
                consolation=True,
            ),
        )
        _play(event, director)
    if out:
        out.write(f"teams: {event.title} played ({event.team_rounds.count()} rounds)")


def _event(mbsz) -> Event:
    event = Event.objects.filter(federation=mbsz, title=TITLE).first()
    if event is not None:
        return event
    start = timezone.localdate() - datetime.timedelta(days=12)
    return Event.objects.create(
        federation=mbsz,
        title=TITLE,
        format=Event.Format.TEAMS,
        event_class=Event.EventClass.CHAMPIONSHIP,
        status=Event.Status.APPROVED,
        start_date=start,
        end_date=start + datetime.timedelta(days=1),
        movement="Svájci rendszer, 7 forduló × 8 leosztás, majd 8 csapatos KO (16 leosztás) vigaszággal",
        boards=56 + 48,
        venue="MBSz Bridzsház",
        director_name="Demo Tornavezető",
        masterpoint_multiplier="2.00",
        members_only=True,
        published_at=timezone.now() - datetime.timedelta(days=60),
    )


def _director(event):
    users = get_user_model().objects
    director = users.filter(username="vezeto@demo.hu").first() or users.filter(is_superuser=True).first()
    if director is None:
        director = users.create_user(username="csapat.vezeto@demo.hu", email="csapat.vezeto@demo.hu")
    Role.objects.get_or_create(user=director, kind=Role.DIRECTOR, event=event)
    return director


def _entries(event):
    if roster_entries(event).count() >= len(TEAM_NAMES):
        return
    rng = random.Random(zlib.crc32(event.title.encode()))
    members = Membership.objects.filter(
        federation=event.federation, is_active=True, person__suspensions__isnull=True
    ).select_related("person", "club")
    pool = sorted(members, key=lambda m: m.member_number)
    player = next((m for m in pool if m.person.user and m.person.user.username == "jatekos@demo.hu"), None)
    rng.shuffle(pool)
    if player is not None:  # the demo player's own team shows "my team's score card"
        pool.remove(player)
        pool.insert(0, player)
    terms = event_terms(event)
    entered_at = timezone.now() - datetime.timedelta(days=30)
    made, start = 0, 0
    while made < len(TEAM_NAMES) and start < len(pool):
        size = SIZES[made]
        group = pool[start : start + size]
        start += size
        if len(group) < size:
            break
        facts = [player_facts(event, m.person) for m in group]
        if eligibility.check_entry(terms, facts, TEAM_NAMES[made]):
            continue
        entry = Entry.objects.create(
            event=event,
            team_name=TEAM_NAMES[made],
            entered_at=entered_at + datetime.timedelta(hours=made),
            entered_by=group[0].person.user,
        )
        for position, m in enumerate(group, start=1):
            EntryMember.objects.create(
                entry=entry,
                person=m.person,
                position=position,
                is_captain=position == 1,
                home_club=m.club,
                confirmed_at=entry.entered_at,
            )
        made += 1


def _play(event, director):
    strength = {}
    for round_no in range(1, 7 + 4):
        round_ = pairing.generate_round(event, director, seed=DRAW_SEED if round_no == 1 else None)
        if not strength:
            rng = random.Random(7)
            strength = {t.pk: rng.uniform(-1.2, 1.2) for t in event.teams.all()}
        pairing.publish_round(round_, director)
        _results(event, round_, director, strength)
        tasks.recompute_event.apply(args=(event.pk,))
        if Progress.objects.filter(event=event, is_final=True).exists():
            break


def _results(event, round_, director, strength):
    deals = demo_play.boards_of_round(DEAL_SEED, round_.number, round_.boards)
    for match in round_.matches.filter(away__isnull=False).select_related("home", "away").order_by("table"):
        rng = random.Random(round_.number * 1000 + match.table)
        rows = demo_play.play_match(deals, strength[match.home_id], strength[match.away_id], rng)
        _lineup(match, director)
        if round_.number == 1:
            content = demo_play.as_pbn(rows, deals, event.title)
            results.upload_result(
                match, director, parse_pbn(content), source=VersionedUpload.Source.PBN, content=content,
                file_name=f"fordulo1-asztal{match.table}.pbn",
            )  # fmt: skip
        elif round_.number == 2:
            content = demo_play.as_csv(rows)
            results.upload_result(
                match, director, parse_csv(content), source=VersionedUpload.Source.CSV, content=content,
                file_name=f"fordulo2-asztal{match.table}.csv",
            )  # fmt: skip
        elif round_.number == 4 and match.table == 7:
            # A result phoned in as IMPs only: no score card, still VPs and standings.
            scored = _parsed(rows)
            margin = sum(b.open_ns - b.closed_ns for b in scored.boards)
            results.upload_result(
                match, director, results.imps_result(max(margin // 40, 0), max(-margin // 40, 0))
            )
        else:
            parsed = _parsed(rows)
            if round_.number == 3 and match.table == 1:
                # A first version with a typo, then the correction: the score card shows both versions.
                wrong = ParsedResult((ParsedBoard(parsed.boards[0].board, 0, 0),) + parsed.boards[1:])
                results.upload_result(match, director, wrong, note="első beírás")
                results.upload_result(
                    match,
                    director,
                    parsed,
                    source=VersionedUpload.Source.CORRECTION,
                    note="javítás: 1. leosztás",
                )
            else:
                results.upload_result(match, director, parsed)


def _parsed(rows) -> ParsedResult:
    by_board = {}
    for board, room, contract, declarer, tricks, score in rows:
        made = "" if tricks is None else tricks - int(contract[0]) - 6
        shown = (
            "Pass" if contract == "PASS" else f"{contract} {declarer} {'=' if made == 0 else f'{made:+d}'}"
        )
        by_board.setdefault(board, {})[room] = (score, shown)
    return ParsedResult(
        tuple(
            ParsedBoard(b, r["open"][0], r["closed"][0], r["open"][1], r["closed"][1])
            for b, r in sorted(by_board.items())
        )
    )


def _lineup(match: Match, director):
    """Fixed partnerships; in a team of five the fifth player stands in now and then, in a team of six
    one pair sits out in turn - so some players end under half of their team's boards (no rights)."""
    segments = len(results.plan_of(match).segments)
    seats = []
    for team in (match.home, match.away):
        people = [m.person_id for m in team.entry.members.order_by("position")]
        for segment in range(1, segments + 1):
            turn = match.round.number + segment
            if len(people) == 6:
                pairs = [people[0:2], people[2:4], people[4:6]]
                pairs.pop(turn % 3)
            elif len(people) == 5:
                pairs = [people[0:2], [people[2], people[4]] if turn % 4 == 0 else people[2:4]]
            else:
                pairs = [people[0:2], people[2:4]]
            if turn % 2:
                pairs.reverse()
            for room, pair in zip(("open", "closed"), pairs, strict=True):
                seats += [(segment, team.pk, room, person) for person in pair]
    results.set_lineup(match, director, seats)
