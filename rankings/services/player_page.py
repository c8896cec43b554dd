"""What a player's page shows: every event he played in either federation with his place, score and
masterpoints / rating change, his masterpoints by year, and (for himself and the staff) his open entries,
waiting-list positions, suspensions and licences.

The places come from the games' published final results (``rankings.sources.result_for``), so this app
needs no game app: an event counts as played when the player was in one of its entries or holds an award
from it, and its result is shown once its game's source has a final result.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q, Sum
from django.utils.translation import gettext as _

from federation.models import Federation, Licence, Person, Suspension
from tournaments.models import Entry, EntryMember, Event, public_events_q
from tournaments.services import payments

from .. import sources
from ..models import Award, Qualification, RatingHistory, SeasonEntry, Stage
from . import history
from .schemes import current_scheme

# The player page lists this many of the latest events; the rankings page of each federation has the rest.
EVENT_LIMIT = 100
CENTS = Decimal("0.01")


@dataclass
class PlayedEvent:
    event: Event
    place_from: int | None = None
    place_to: int | None = None
    field_size: int | None = None
    score: str = ""
    masterpoints: Decimal | None = None
    rating: int | None = None
    rating_change: int | None = None

    @property
    def place(self) -> str:
        if self.place_from is None:
            return ""
        if self.place_to and self.place_to != self.place_from:
            return f"{self.place_from}–{self.place_to}."
        return f"{self.place_from}."


@dataclass
class FederationCharts:
    federation: Federation
    alltime: str  # SVG (safe) or ""
    annual: str
    annual_year: int | None
    rating: str


@dataclass
class QualificationRow:
    """A qualification the person holds: a masterpoint class (minősítés) with the event whose award
    reached it, or a NUB stage (semifinal, final, sport ulti) with the season whose table gave it."""

    federation: Federation
    name: str
    event: Event | None = None
    date: datetime.date | None = None
    season: object | None = None  # rankings Season
    status: str = ""  # the invitation's state, when one was sent


@dataclass
class YearPoints:
    federation: Federation
    year: int
    points: Decimal
    running_total: Decimal


def _placing_of(result, person_id):
    for placing in result.placings:
        if any(share.person_id == person_id for share in placing.players):
            return placing
    return None


def _score(placing) -> str:
    if placing.score:
        return placing.score
    if placing.points is not None:
        return str(placing.points).replace(".", ",")
    return ""


def played_events(person: Person, limit: int = EVENT_LIMIT) -> list[PlayedEvent]:
    """The public events the person played, latest first, with what their final results say of him."""
    entered = EntryMember.objects.filter(person=person, entry__status=Entry.Status.ACTIVE).values(
        "entry__event_id"
    )
    awarded = Award.objects.filter(person=person, is_current=True).values("event_id")
    events = list(
        Event.objects.filter(Q(pk__in=entered) | Q(pk__in=awarded))
        .filter(public_events_q())
        .exclude(status=Event.Status.CANCELLED)
        .filter(start_date__lte=datetime.date.today())
        .select_related("federation", "club")
        .order_by("-start_date", "-pk")[:limit]
    )
    ids = [e.pk for e in events]
    points = dict(
        Award.objects.filter(person=person, is_current=True, event_id__in=ids)
        .values("event_id")
        .annotate(total=Sum("amount"))
        .values_list("event_id", "total")
    )
    ratings: dict[int, tuple[int, int | None]] = {}
    previous: dict[int, int] = {}
    for row in RatingHistory.objects.filter(person=person).order_by("federation_id", "date", "event_id"):
        before = previous.get(row.federation_id)
        ratings[row.event_id] = (row.display, None if before is None else row.display - before)
        previous[row.federation_id] = row.display
    played = []
    for event in events:
        item = PlayedEvent(event=event, masterpoints=points.get(event.pk))
        if event.pk in ratings:
            item.rating, item.rating_change = ratings[event.pk]
        result = sources.result_for(event)
        placing = _placing_of(result, person.pk) if result is not None else None
        if placing is not None:
            item.place_from, item.place_to = placing.place_from, placing.place_to
            item.field_size = result.field_size
            item.score = _score(placing)
        played.append(item)
    return played


def masterpoints_by_year(person: Person) -> list[YearPoints]:
    """The person's current masterpoints per federation and year with the all-time running total."""
    rows = (
        Award.objects.filter(person=person, is_current=True)
        .values("federation_id", "year")
        .annotate(points=Sum("amount"))
        .order_by("federation_id", "year")
    )
    federations = {f.pk: f for f in Federation.objects.all()}
    out: list[YearPoints] = []
    running: dict[int, Decimal] = {}
    for row in rows:
        # The column's two places (SQLite sums decimals as floating point: 65.4000000000000).
        points = Decimal(row["points"]).quantize(CENTS)
        total = running.get(row["federation_id"], Decimal(0)) + points
        running[row["federation_id"]] = total
        out.append(YearPoints(federations[row["federation_id"]], row["year"], points, total))
    return out


def history_charts(person: Person) -> list[FederationCharts]:
    """Per federation the player has points or a rating in: the all-time running total of masterpoints,
    the running total within his latest year with awards, and the rating after each event, drawn the same
    way as on the rankings player page (``history.masterpoint_chart`` / ``history.rating_chart``)."""
    federation_ids = set(
        Award.objects.filter(person=person, is_current=True).values_list("federation_id", flat=True)
    ) | set(RatingHistory.objects.filter(person=person).values_list("federation_id", flat=True))
    out = []
    for federation in Federation.objects.filter(pk__in=federation_ids).order_by("pk"):
        rows = history.award_history(person, federation)
        annual_year = rows[-1].year if rows else None
        annual = [row for row in history.award_history(person, federation) if row.year == annual_year]
        running = Decimal(0)
        for row in annual:
            running += row.amount
            row.running_total = running
        out.append(
            FederationCharts(
                federation=federation,
                alltime=history.masterpoint_chart(rows),
                annual=history.masterpoint_chart(
                    annual, title=_("Running total of masterpoints in %(year)s") % {"year": annual_year}
                ),
                annual_year=annual_year,
                rating=history.rating_chart(list(history.rating_history(person, federation))),
            )
        )
    return out


def _class_rows(person: Person) -> list[QualificationRow]:
    rows = []
    federation_ids = (
        Award.objects.filter(person=person, is_current=True)
        .values_list("federation_id", flat=True)
        .distinct()
    )
    for federation in Federation.objects.filter(pk__in=federation_ids).order_by("pk"):
        levels = sorted(current_scheme(federation).scheme.qualifications, key=lambda lv: lv.min_points)
        if not levels:
            continue
        reached = []
        for award in history.award_history(person, federation):
            while len(reached) < len(levels) and award.running_total >= levels[len(reached)].min_points:
                level = levels[len(reached)]
                reached.append(QualificationRow(federation, level.name, event=award.event, date=award.date))
        rows += reversed(reached)  # the highest class first
    return rows


def _season_rows(person: Person) -> list[QualificationRow]:
    rows: dict[tuple[int, str], QualificationRow] = {}
    for q in Qualification.objects.filter(person=person).select_related("season__federation"):
        rows[(q.season_id, q.stage)] = QualificationRow(
            q.season.federation, Stage(q.stage).label, season=q.season, status=q.get_status_display()
        )
    next_stage = {Stage.QUALIFIER: Stage.SEMIFINAL, Stage.SEMIFINAL: Stage.FINAL}
    entries = SeasonEntry.objects.filter(
        person=person, status__in=[SeasonEntry.QUALIFIED, SeasonEntry.INVITED]
    ).select_related("season__federation")
    for entry in entries:
        stage = Stage.SPORT_ULTI if entry.stage == Stage.SPORT_ULTI else next_stage.get(entry.stage)
        if stage is not None and (entry.season_id, stage) not in rows:
            rows[(entry.season_id, stage)] = QualificationRow(
                entry.season.federation, Stage(stage).label, season=entry.season
            )
    return sorted(rows.values(), key=lambda r: (-r.season.year, r.name))


def qualifications(person: Person) -> list[QualificationRow]:
    """His masterpoint classes and his NUB qualifications, each with where it came from; all public
    (the lists and the season tables show them too)."""
    return _class_rows(person) + _season_rows(person)


def open_entries(person: Person, today: datetime.date | None = None) -> list[dict]:
    """Entries in events not yet over, with the waiting-list position of a waiting one."""
    today = today or datetime.date.today()
    members = (
        EntryMember.objects.filter(
            person=person, entry__status__in=[Entry.Status.ACTIVE, Entry.Status.WAITING]
        )
        .filter(
            Q(entry__event__end_date__gte=today)
            | Q(entry__event__end_date__isnull=True, entry__event__start_date__gte=today)
        )
        .select_related("entry__event__federation")
        .order_by("entry__event__start_date")
    )
    return [
        {"entry": m.entry, "event": m.entry.event, "waiting_position": m.entry.waiting_position()}
        for m in members
    ]


def fee_rows(person: Person, today: datetime.date | None = None) -> list:
    """Fees of his open entries and of any entry with money due or to refund, with the payment status and
    the bank-transfer reference: for the person himself and the staff only."""
    return payments.person_fee_rows(person, today)


def private_facts(person: Person, today: datetime.date | None = None) -> dict:
    """Suspensions and licences: for the person himself and the staff only."""
    today = today or datetime.date.today()
    suspensions = list(Suspension.objects.filter(person=person).select_related("federation"))
    for suspension in suspensions:
        suspension.active = suspension.covers(today)
    ulti_memberships = person.memberships.filter(federation__game=Federation.ULTI, is_active=True)
    licences = Licence.objects.filter(person=person).select_related("federation", "fee").order_by("-year")
    return {
        "suspensions": suspensions,
        "licences": list(licences),
        "needs_licence_status": ulti_memberships.exists(),
        "licence_this_year": licences.filter(year=today.year, revoked_at__isnull=True).first(),
        "year": today.year,
    }
