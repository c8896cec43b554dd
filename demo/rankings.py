"""Demo data of the rankings: default award schemes, awards, ratings and a NUB season.

Past events of the calendar get a final result: from the game's registered source when there is one,
otherwise a deterministic synthetic result (a fixed random seed per event title). An event that already
has an award version is left alone, so running the seed again changes nothing. A few events of the
previous year are created so that the all-time list and the sport ulti invitations have history.
"""

import datetime
import random
import zlib
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from federation.models import Federation, Membership
from rankings import sources
from rankings.engine.standings_list import rank
from rankings.models import AwardVersion, Qualification, Season, Stage
from rankings.services.ledger import record_prize_payment, record_result
from rankings.services.lists import recompute_all_lists
from rankings.services.rating import update_ratings
from rankings.services.schemes import ensure_default_scheme
from rankings.services.season import open_confirmations, process_deadlines, recompute_season, respond
from tournaments.models import Event

MAUSZ_POINTS = {"places": (4, 2, 0), "tie_first": (3, 3, 0), "tie_last": (4, 1, 1), "tie_all": (2, 2, 2)}
BYE_POINTS = 4


def _rng(*parts) -> random.Random:
    return random.Random(zlib.crc32("|".join(map(str, parts)).encode()))


def _event_fields():
    return {f.name for f in Event._meta.get_fields()}


def _own_event(federation, title, date, event_class, fmt, **extra):
    """A past event of the demo's own (previous year), looked up by federation and title."""
    fields = _event_fields()
    defaults = {"format": fmt, "start_date": date, "status": "approved"}
    for key, value in {"event_class": event_class, **extra}.items():
        if key in fields:
            defaults[key] = value
    event, _created = Event.objects.get_or_create(federation=federation, title=title, defaults=defaults)
    return event


def _members(federation, region_code=None):
    qs = Membership.objects.filter(federation=federation, is_active=True).select_related(
        "club__region", "person"
    )
    if region_code:
        qs = qs.filter(club__region__code=region_code)
    return sorted(qs, key=lambda m: m.member_number)


def _rank_placings(scores, players_of, names=None):
    """FinalPlacings from {key: (points, forint)}, equal scores sharing the place."""
    ranked = rank(list(scores), score=lambda k: scores[k], order_key=lambda k: str(k))
    return [
        sources.FinalPlacing(
            entry_key=str(r.item),
            place_from=r.place_from,
            place_to=r.place_to,
            players=players_of(r.item),
            points=scores[r.item][0],
            forint=scores[r.item][1],
            name=(names or {}).get(r.item, ""),
        )
        for r in ranked
    ]


def _simulate_ulti(rng, person_ids, rounds):
    """Random rounds of tables of three; returns (tables, {person: (points, forint)})."""
    points = dict.fromkeys(person_ids, 0)
    forint = dict.fromkeys(person_ids, 0)
    tables = []
    for rnd in range(1, rounds + 1):
        order = list(person_ids)
        rng.shuffle(order)
        seated = len(order) - len(order) % 3
        for pid in order[seated:]:
            points[pid] += BYE_POINTS
        for t in range(seated // 3):
            trio = order[3 * t : 3 * t + 3]
            a, b = rng.randint(-25, 25) * 100, rng.randint(-25, 25) * 100
            fts = dict(zip(trio, (a, b, -a - b), strict=True))
            values = sorted(fts.values(), reverse=True)
            places = {pid: values.index(ft) + 1 for pid, ft in fts.items()}
            distinct = len(set(values))
            if distinct == 1:
                outcome = "tie_all"
            elif values[0] == values[1]:
                outcome = "tie_first"
            elif values[1] == values[2]:
                outcome = "tie_last"
            else:
                outcome = "places"
            table_points = MAUSZ_POINTS[outcome]
            for pid in trio:
                points[pid] += table_points[places[pid] - 1]
                forint[pid] += fts[pid]
            tables.append(sources.TablePlaces(round=rnd, table=str(t + 1), places=places))
    return tables, {pid: (points[pid], forint[pid]) for pid in person_ids}


def _ulti_result(event, person_ids, rounds, **facts):
    rng = _rng(event.title, event.start_date)
    tables, scores = _simulate_ulti(rng, person_ids, rounds)
    placings = _rank_placings(scores, lambda pid: (sources.PlayerShare(pid, has_rights=True),))
    base = sources.event_facts(event)
    base.update(facts)
    return sources.EventResult(
        field_size=len(placings), version="demo-1", placings=placings, tables=tables, **base
    )


def _ulti_team_result(event, person_ids, **facts):
    rng = _rng(event.title, event.start_date)
    ids = list(person_ids)
    rng.shuffle(ids)
    teams = {f"{event.pk}-T{i + 1}": tuple(ids[3 * i : 3 * i + 3]) for i in range(len(ids) // 3)}
    _tables, scores = _simulate_ulti(rng, [p for t in teams.values() for p in t], 8)
    team_scores = {k: (sum(scores[p][0] for p in v), sum(scores[p][1] for p in v)) for k, v in teams.items()}
    names = {
        k: f"{rng.choice(['Piros', 'Zöld', 'Makk', 'Tök'])} {rng.choice(['Ászok', 'Királyok', 'Felsők', 'Hetesek'])} {k.split('-T')[1]}"
        for k in teams
    }
    placings = _rank_placings(
        team_scores, lambda k: tuple(sources.PlayerShare(p, has_rights=True) for p in teams[k]), names
    )
    base = sources.event_facts(event)
    base.update(facts)
    return sources.EventResult(field_size=len(placings), version="demo-1", placings=placings, **base)


def _bridge_result(event, members, version="demo-1", swap=False):
    rng = _rng(event.title, event.start_date)
    size = {"pairs": 2, "teams": 4, "individual": 1}.get(event.format, 2)
    count = rng.randint(10, 22)
    chosen = rng.sample(members, min(len(members), count * size + (2 if size == 4 else 0)))
    entries = {}
    for i in range(count):
        group = chosen[i * size : (i + 1) * size]
        if len(group) < size:
            break
        shares = [sources.PlayerShare(m.person_id) for m in group]
        if size == 4 and i == 0:
            # A team with a substitute who played a third of the boards: he has no rights (VSz 25).
            extra = chosen[-1]
            shares[-1] = sources.PlayerShare(group[-1].person_id, Decimal("0.67"))
            shares.append(
                sources.PlayerShare(extra.person_id, Decimal("0.33"), substitute_for=group[-1].person_id)
            )
        entries[f"E{i + 1}"] = tuple(shares)
    scores = {k: (Decimal(rng.randint(380, 640)) / 10, 0) for k in entries}
    if swap:
        ranked = sorted(scores, key=lambda k: scores[k], reverse=True)
        scores[ranked[0]], scores[ranked[1]] = scores[ranked[1]], scores[ranked[0]]
    placings = _rank_placings(scores, lambda k: entries[k])
    return sources.EventResult(
        field_size=len(placings), version=version, placings=placings, **sources.event_facts(event)
    )


def _done(event):
    return AwardVersion.objects.filter(event=event).exists()


def _record(event, result):
    record_result(event, result)
    if result.tables:
        update_ratings(event, result)


def _past(federation, today, **filters):
    qs = Event.objects.filter(federation=federation, start_date__lt=today, status="approved", **filters)
    return list(qs.order_by("start_date", "title"))


def _from_source(event):
    """A real result when a game app registered a source for this event's game."""
    try:
        return sources.result_for(event)
    except Exception:  # a source that cannot serve demo events yet
        return None


@transaction.atomic
def _seed_bridge(mbsz, today):
    members = _members(mbsz)
    if not members:
        return 0
    last_year = today.year - 1
    _own_event(
        mbsz,
        f"Országos Mitchell Páros Bajnokság {last_year}",
        datetime.date(last_year, 10, 11),
        "championship",
        "pairs",
        masterpoint_multiplier=Decimal("3.00"),
    )
    _own_event(
        mbsz,
        f"Pannónia Kupa {last_year}",
        datetime.date(last_year, 5, 24),
        "announced",
        "pairs",
        masterpoint_multiplier=Decimal("1.50"),
    )
    _own_event(
        mbsz,
        f"Budapest Csapatbajnokság {last_year}",
        datetime.date(last_year, 2, 8),
        "championship",
        "teams",
        masterpoint_multiplier=Decimal("2.50"),
    )
    done = 0
    appeal_shown = False
    for event in _past(mbsz, today):
        if not getattr(event, "event_class", "") or _done(event):
            continue
        result = _from_source(event) or _bridge_result(event, members)
        _record(event, result)
        done += 1
        if (
            not appeal_shown
            and getattr(event, "event_class", "") == "championship"
            and event.format == "pairs"
        ):
            # A prize paid, then an appeal decision changes the top two places: a new ledger version,
            # the payment stays and the change after payment is recorded.
            appeal_shown = True
            first = AwardVersion.objects.get(event=event, is_current=True).snapshot["placings"][0]
            record_prize_payment(event, 30000, entry_key=first["entry_key"], note="1. díj (demo)")
            record_result(event, _bridge_result(event, members, version="demo-2", swap=True), "appeal")
    return done


def _ulti_players(mausz, region_code, rng, share):
    return [m.person_id for m in _members(mausz, region_code) if rng.random() < share]


@transaction.atomic
def _seed_ulti(mausz, today):
    if not _members(mausz):
        return 0
    last_year = today.year - 1
    done = 0
    # Last year's sport ulti championship: its list feeds this year's invitations.
    old_sport = _own_event(
        mausz,
        f"Sport Ulti Nemzeti Bajnokság {last_year}",
        datetime.date(last_year, 8, 23),
        "sport_ulti",
        "sport_ulti",
    )
    events = [old_sport] + _past(mausz, today)
    keen = {m.person_id: _rng("keen", m.member_number).random() for m in _members(mausz)}
    for event in events:
        cls = getattr(event, "event_class", "")
        if not cls or _done(event) or cls in ("nub_semifinal", "nub_final"):
            continue
        result = _from_source(event)
        if result is None:
            rng = _rng("field", event.title, event.start_date)
            region = event.region.code if getattr(event, "region_id", None) else None
            if cls == "nub_qualifier":
                pool = [m.person_id for m in _members(mausz, region)]
                players = [p for p in pool if rng.random() < 0.25 + 0.7 * keen[p]]
                result = _ulti_result(event, players, 10)
            elif cls == "team_regional":
                pool = [m.person_id for m in _members(mausz, region)]
                rng.shuffle(pool)
                teams = 15 if region == "duna-tisza" else 12
                result = _ulti_team_result(event, sorted(pool[: 3 * teams]))
            elif cls == "sport_ulti":
                pool = [m.person_id for m in _members(mausz)]
                result = _ulti_result(
                    event, sorted(rng.sample(pool, min(30, len(pool)))), 8, rating_earning=False
                )
            elif cls == "rating":
                pool = [m.person_id for m in _members(mausz)]
                result = _ulti_result(event, sorted(rng.sample(pool, min(27, len(pool)))), 6)
            else:
                continue
        _record(event, result)
        done += 1
    season, _created = Season.objects.get_or_create(federation=mausz, year=today.year)
    recompute_season(season.pk)
    done += _seed_season_finals(mausz, season, today)
    for s in Season.objects.filter(federation=mausz):
        recompute_season(s.pk)
    return done


def _stage_players(season, stage, deadline, decline=()):
    """Invite the stage's qualified players, let all but ``decline`` confirm, replace the rest."""
    open_confirmations(season, stage, deadline)
    for q in Qualification.objects.filter(season=season, stage=stage, status=Qualification.INVITED).order_by(
        "rank"
    ):
        if q.rank not in decline:
            respond(q, True, now=deadline - datetime.timedelta(days=1))
    process_deadlines(now=deadline + datetime.timedelta(hours=1), season=season)
    for q in Qualification.objects.filter(season=season, stage=stage, status=Qualification.INVITED):
        respond(q, True, now=q.invited_at)
    return list(
        Qualification.objects.filter(season=season, stage=stage, status=Qualification.CONFIRMED)
        .order_by("rank")
        .values_list("person_id", flat=True)
    )


def _seed_season_finals(mausz, season, today):
    done = 0
    tz = timezone.get_current_timezone()
    semis = [e for e in _past(mausz, today, event_class="nub_semifinal") if e.start_date.year == season.year]
    final = [e for e in _past(mausz, today, event_class="nub_final") if e.start_date.year == season.year]
    if semis:
        deadline = datetime.datetime.combine(
            semis[0].start_date - datetime.timedelta(days=10), datetime.time(20), tz
        )
        players = _stage_players(season, Stage.SEMIFINAL, deadline, decline=(7, 31))
        for event in semis:
            if not _done(event):
                _record(event, _from_source(event) or _ulti_result(event, players, 10))
                done += 1
        recompute_season(season.pk)
    if final:
        deadline = datetime.datetime.combine(
            final[0].start_date - datetime.timedelta(days=10), datetime.time(20), tz
        )
        players = _stage_players(season, Stage.FINAL, deadline, decline=(12,))
        for event in final:
            if not _done(event):
                _record(event, _from_source(event) or _ulti_result(event, players, 10))
                done += 1
    return done


def seed(out=None):
    today = timezone.localdate()
    feds = {f.game: f for f in Federation.objects.order_by("pk")}
    for federation in feds.values():
        ensure_default_scheme(federation)
    events = 0
    if Federation.BRIDGE in feds:
        events += _seed_bridge(feds[Federation.BRIDGE], today)
    if Federation.ULTI in feds:
        events += _seed_ulti(feds[Federation.ULTI], today)
    lists = 0
    for federation in feds.values():
        lists += recompute_all_lists(federation)
    if out:
        out.write(f"rankings: {events} events awarded, {lists} lists recomputed")
