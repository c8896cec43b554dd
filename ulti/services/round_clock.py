"""The ulti round clock (issue #18): the director starts a round's clock in the control room; the time
limit is the event's rule set's minimum round time unless he gives a longer one (never a shorter one:
`ulti.engine.round_clock`). The phones and the control room show the time left; late tables are marked."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.engine import clock as shared_clock
from ulti.engine import round_clock

from ..models import Round, RoundClock
from . import UltiError, loading


def _message(error: round_clock.ClockError) -> str:
    if error.code == "below_minimum":
        return _(
            "The round time may not be shorter than %(minimum)s minutes: the rule set (%(rule)s) asks for "
            "at least %(minimum)s minutes a round."
        ) % {"minimum": error.minimum, "rule": error.rule}
    if error.code == "too_long":
        return _("The round time is at most %(maximum)s minutes.") % {"maximum": error.maximum}
    return _("Minutes is not a number.")


def minimum_of(rnd: Round) -> int:
    settings = loading.settings_of(rnd.event)
    if settings is None:
        raise UltiError(_("The event is not set up for ulti yet."))
    return settings.ruleset.min_round_minutes


def start(rnd: Round, user, minutes=None) -> RoundClock:
    """Start (or start again) the round's clock now; UltiError with the rule's reason when refused."""
    settings = loading.settings_of(rnd.event)
    if settings is None:
        raise UltiError(_("The event is not set up for ulti yet."))
    if not rnd.is_published:
        raise UltiError(_("Round %(n)s is not published yet.") % {"n": rnd.number})
    try:
        limit = round_clock.time_limit(settings.ruleset, minutes)
    except round_clock.ClockError as error:
        raise UltiError(_message(error))
    return RoundClock.objects.create(round=rnd, started_at=timezone.now(), minutes=limit, started_by=user)


Clock = shared_clock.Reading


def clock_of(rnd: Round) -> Clock | None:
    row = RoundClock.objects.filter(round=rnd).order_by("-started_at", "-pk").first()
    if row is None:
        return None
    return Clock(row, timezone.now())


def mark_late(tables, clock: Clock | None) -> None:
    """Mark the control room's tables that are late: the time is over and their result is not in (from
    their phones, or filed by the director)."""
    if clock is None:
        return
    for progress in tables:
        progress.late = clock.late(progress.finished)
