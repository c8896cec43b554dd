"""Sealed computer-dealt sets (VSz 21): made before the session, opened only once it has started.

The database keeps the seed masked with a key derived from the server's SECRET_KEY and the seed's SHA-256
(unique, so a set can never be made twice); the deals are derived from the seed when asked for, and the
server refuses to derive them, whoever asks, until the session's start is recorded (`record_start`, a
bridge.SessionStart row written once and never cleared): by its first results, by the director's "start
the session", or by the beat task `record_due_starts` when it sees the announced start pass. Moving the
announced start time opens nothing by itself, and a sealed session's start cannot be moved into the past
(`tournaments.session_starts`).
"""

import hashlib
import hmac
import secrets

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bridge.engine import dealing as engine
from results.tasks import request_recompute

from ..models import DealSet, PairSession, SessionPair, SessionStart
from . import HAND_RECORDS, SCOPE


class Sealed(Exception):
    """The session has not started: nobody may see its deals."""


def _mask(set_id: str) -> bytes:
    return hmac.new(
        settings.SECRET_KEY.encode(), f"bridge-deal-set:{set_id}".encode(), hashlib.sha256
    ).digest()


def _xor(data: bytes, key: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(data, key, strict=False))


def create_deal_set(
    session: PairSession, boards: int, user, *, seed: bytes | None = None, set_id: str = "", now=None
) -> DealSet:
    """A new set for the session from a fresh CSPRNG seed. `seed` and `set_id` only for tests and the
    demo, which must be reproducible. Refused once the session has started."""
    if session.starts_at is None:
        raise ValueError(_("the session has no announced start time, so its deals could never be opened"))
    if session.has_started() or session.start_time_passed(now):
        raise ValueError(_("the session has started: deals are dealt before play"))
    if not 1 <= boards <= 99:
        raise ValueError(_("a set has 1 to 99 boards"))
    seed = seed or engine.new_seed()
    set_id = set_id or f"mbsz-{session.event_id}-{session.number}-{secrets.token_hex(6)}"
    try:
        with transaction.atomic():
            return DealSet.objects.create(
                session=session,
                boards=boards,
                set_id=set_id,
                sealed_seed=_xor(seed, _mask(set_id)).hex(),
                seed_hash=hashlib.sha256(seed).hexdigest(),
                created_by=user,
            )
    except IntegrityError:
        raise ValueError(_("this seed has been used before: a set of deals is never reused"))


def current_set(session: PairSession) -> DealSet | None:
    return DealSet.objects.filter(session=session).order_by("-created_at", "-pk").first()


def open_set(deal_set: DealSet, *, started: bool | None = None) -> list[str]:
    """The deals in the order generated; Sealed before the session's start is recorded (for everybody).

    `started`: whether the start is recorded, when the caller has read it already (the recompute reads it for
    every session at once); None reads it."""
    if not (deal_set.session.has_started() if started is None else started):
        raise Sealed(_("the deals stay sealed until the session starts"))
    seed = _xor(bytes.fromhex(deal_set.sealed_seed), _mask(deal_set.set_id))
    if hashlib.sha256(seed).hexdigest() != deal_set.seed_hash:
        raise ValueError("the sealed seed does not match its hash (was SECRET_KEY changed?)")
    return engine.deal_set(seed, deal_set.boards, deal_set.set_id)


def deals_of_session(session: PairSession, version=None, *, started: bool | None = None) -> dict[int, str]:
    """Board -> deal: the uploaded file's deals, else the computer-dealt set's; empty while sealed.

    Both wait for the recorded start (results uploaded record it, so uploaded deals open with them);
    `started` as for `open_set`.
    """
    if not (session.has_started() if started is None else started):
        return {}
    if version is not None and version.deals:
        return {int(board): deal for board, deal in version.deals.items()}
    deal_set = current_set(session)
    if deal_set is None:
        return {}
    return dict(enumerate(open_set(deal_set, started=True), start=1))


def is_sealed(session: PairSession) -> bool:
    """A set of deals waits for this session's start: its announced start must not move into the past."""
    return session.deal_sets.exists() and not session.has_started()


def announced_is_sealed(announced) -> bool:
    """The check registered with tournaments.session_starts: the pair session of this announced session
    (tournaments.Session) has sealed deals."""
    session = PairSession.objects.filter(announced_id=announced.pk).first()
    return session is not None and is_sealed(session)


def start_refusal(session: PairSession) -> str | None:
    """Why the director may not start the session now (None: he may): a session nobody is seated in."""
    if not SessionPair.objects.filter(section__session=session).exists():
        return _("No pairs are seated in this session: seat the entries before starting it.")
    return None


def record_start(session: PairSession, source: str, *, user=None, now=None) -> bool:
    """Record that the session has started (once; a second call changes nothing). True if this call did.

    The hand records of a computer-dealt set are analysed after the commit; results carry their own
    (the recompute they queue analyses them)."""
    if session.has_started():
        return False
    try:
        with transaction.atomic():
            SessionStart.objects.create(
                session=session,
                at=now or timezone.now(),
                source=source,
                by=user if user is not None and user.is_authenticated else None,
            )
    except IntegrityError:  # recorded meanwhile by another request or the beat
        return False
    if source != SessionStart.Source.RESULTS and session.deal_sets.exists():
        request_recompute(SCOPE, session.event_id, session.pk, partial=HAND_RECORDS)
    return True


def record_due_starts(now=None) -> list[int]:
    """The beat task: record the start of every session whose announced start the server's clock has now
    passed. Returns the session ids it recorded."""
    now = now or timezone.now()
    due = PairSession.objects.filter(announced__starts_at__lte=now, start__isnull=True).order_by("pk")
    recorded = []
    for session in due:
        with transaction.atomic():
            if record_start(session, SessionStart.Source.CLOCK, now=now):
                recorded.append(session.pk)
    return recorded
