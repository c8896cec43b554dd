"""The masterpoint ledger: one award version per change of an event's result, prize payments kept."""

from __future__ import annotations

import datetime
import logging
from decimal import Decimal
from fractions import Fraction

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from federation.models import Federation, Person, Region
from results import page_cache

from .. import sources
from ..engine import awards as award_engine
from ..engine.standings_list import place_label
from ..models import Award, AwardScheme, AwardVersion, ListKind, PaymentResultChange, PrizePayment, Reason
from .schemes import scheme_for
from .state import data_changed, state_for_update

log = logging.getLogger(__name__)

CENT = Decimal("0.01")


def _num(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, float):
        value = Fraction(str(value))
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)
    return str(value)


def snapshot_of(result: sources.EventResult) -> dict:
    """The JSON form of a result (only strings, numbers, booleans and None, so it compares after a load)."""
    multiplier = (
        Decimal(1) if result.masterpoint_multiplier is None else Decimal(str(result.masterpoint_multiplier))
    )
    placings = []
    for p in sorted(result.placings, key=lambda p: (p.place_from, p.place_to, str(p.entry_key))):
        placings.append(
            {
                "entry_key": str(p.entry_key),
                "place_from": int(p.place_from),
                "place_to": int(p.place_to),
                "place": place_label(p.place_from, p.place_to),
                "points": _num(p.points),
                "forint": None if p.forint is None else int(p.forint),
                "name": p.name or "",
                "players": [
                    {
                        "person_id": int(s.person_id),
                        "fraction": _num(s.boards_played_fraction),
                        "has_rights": s.has_rights,
                        "substitute_for": s.substitute_for,
                    }
                    for s in p.players
                ],
            }
        )
    return {
        "event_class": result.event_class or "",
        "field_size": int(result.field_size),
        "multiplier": str(multiplier.quantize(CENT)),
        "date": result.date.isoformat(),
        "result_version": str(result.version),
        "season": result.season,
        "series_number": result.series_number,
        "region_code": result.region_code,
        "placings": placings,
    }


def _lines_from_snapshot(scheme: AwardScheme, snap: dict) -> list[award_engine.AwardLine]:
    placings = [
        award_engine.Placing(
            entry_key=p["entry_key"],
            place_from=p["place_from"],
            place_to=p["place_to"],
            shares=tuple(
                award_engine.Share(
                    person_id=s["person_id"],
                    fraction=None if s["fraction"] is None else Fraction(s["fraction"]),
                    has_rights=s["has_rights"],
                    substitute_for=s["substitute_for"],
                )
                for s in p["players"]
            ),
        )
        for p in snap["placings"]
    ]
    return award_engine.award_lines(
        scheme.scheme, snap["event_class"], snap["field_size"], Decimal(snap["multiplier"]), placings
    )


def _award(event, federation: Federation, snap: dict, reason: str, note: str = "") -> AwardVersion | None:
    """Write a new award version for an event when its result or its awards changed (caller holds the
    federation's lock). Returns the new version, or None when nothing changed."""
    date = datetime.date.fromisoformat(snap["date"])
    scheme = scheme_for(federation, date)
    lines = _lines_from_snapshot(scheme, snap)
    ids = {line.person_id for line in lines}
    known = set(Person.objects.filter(pk__in=ids).values_list("pk", flat=True))
    if known != ids:
        log.warning("event %s: unknown people %s get no award", event.pk, sorted(ids - known))
        lines = [line for line in lines if line.person_id in known]
    new_set = {(a.person_id, a.entry_key, a.place_from, a.place_to, a.amount) for a in lines}

    current = AwardVersion.objects.select_for_update().filter(event=event, is_current=True).first()
    if current is not None:
        old_set = {
            (a.person_id, a.entry_key, a.place_from, a.place_to, a.amount.quantize(CENT))
            for a in current.awards.all()
        }
        if current.snapshot == snap and old_set == new_set:
            return None
    now = timezone.now()
    if current is None:
        reason = Reason.FINAL
    elif reason not in Reason.values or reason == Reason.FINAL:
        reason = Reason.CORRECTION
    if current is not None:
        AwardVersion.objects.filter(pk=current.pk).update(is_current=False, superseded_at=now)
        current.awards.update(is_current=False)
    last = AwardVersion.objects.filter(event=event).aggregate(v=Max("version"))["v"] or 0
    region = None
    if snap.get("region_code"):
        region = Region.objects.filter(federation=federation, code=snap["region_code"]).first()
    version = AwardVersion.objects.create(
        event=event,
        federation=federation,
        version=last + 1,
        date=date,
        event_class=snap["event_class"],
        field_size=snap["field_size"],
        multiplier=Decimal(snap["multiplier"]),
        season=snap.get("season"),
        series_number=snap.get("series_number"),
        region=region,
        result_version=snap["result_version"],
        scheme=scheme,
        reason=reason,
        note=note,
        snapshot=snap,
        created_at=now,
    )
    Award.objects.bulk_create(
        Award(
            version=version,
            event=event,
            federation=federation,
            person_id=line.person_id,
            year=date.year,
            date=date,
            amount=line.amount,
            reason=reason,
            entry_key=line.entry_key,
            place_from=line.place_from,
            place_to=line.place_to,
            event_class=snap["event_class"],
        )
        for line in lines
    )
    if current is not None and reason != Reason.SCHEME:
        _record_payment_changes(event, current, version)
    years = {date.year} | ({current.date.year} if current is not None else set())
    data_changed(federation.pk, [(ListKind.ANNUAL, y) for y in years] + [(ListKind.ALLTIME, 0)])
    # The event's results pages show the masterpoints earned (rankings.services.earned).
    page_cache.bump(page_cache.event_scope(event.pk))
    return version


def _record_payment_changes(event, old: AwardVersion, new: AwardVersion) -> None:
    """Prizes already paid stay as they were (VSz 9); we only record that the result changed."""
    for payment in PrizePayment.objects.filter(event=event, paid_at__lte=new.created_at):
        before = payment.place or old.placing_of(payment.entry_key, payment.person_id)
        after = new.placing_of(payment.entry_key, payment.person_id)
        PaymentResultChange.objects.get_or_create(
            payment=payment, award_version=new, defaults={"old_place": before, "new_place": after}
        )


def record_result(event, result: sources.EventResult, reason: str = "") -> AwardVersion | None:
    """Award an event's final result (a new ledger version when anything changed)."""
    federation = event.federation
    with transaction.atomic():
        state_for_update(federation.pk)
        return _award(event, federation, snapshot_of(result), reason)


def record_prize_payment(event, amount: int, *, entry_key="", person=None, user=None, paid_at=None, note=""):
    """Record a cash prize paid out, with the place it was paid for."""
    current = AwardVersion.objects.filter(event=event, is_current=True).first()
    place = current.placing_of(entry_key, person.pk if person else None) if current else ""
    return PrizePayment.objects.create(
        event=event,
        entry_key=entry_key,
        person=person,
        amount=amount,
        place=place,
        paid_at=paid_at or timezone.now(),
        note=note,
        recorded_by=user if user is not None and user.is_authenticated else None,
    )


def reaward_for_scheme(scheme_id: int) -> int:
    """Re-award every recorded event on or after the scheme's first day; returns new versions made."""
    scheme = AwardScheme.objects.select_related("federation").get(pk=scheme_id)
    event_ids = list(
        AwardVersion.objects.filter(
            federation=scheme.federation, is_current=True, date__gte=scheme.valid_from
        ).values_list("event_id", flat=True)
    )
    made = 0
    for event_id in event_ids:
        with transaction.atomic():
            state_for_update(scheme.federation_id)
            current = AwardVersion.objects.select_related("event").get(event_id=event_id, is_current=True)
            if _award(
                current.event, scheme.federation, current.snapshot, Reason.SCHEME, f"v{scheme.version}"
            ):
                made += 1
    return made
