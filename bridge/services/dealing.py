"""Sealed computer-dealt sets (VSz 21): made before the session, opened only once it has started.

The database keeps the seed masked with a key derived from the server's SECRET_KEY and the seed's SHA-256
(unique, so a set can never be made twice); the deals are derived from the seed when asked for, and the
server refuses to derive them before the session's announced start, whoever asks.
"""

import hashlib
import hmac
import secrets

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bridge import dealing as engine

from ..models import DealSet, PairSession


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
    if session.has_started(now):
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


def open_set(deal_set: DealSet, now=None) -> list[str]:
    """The deals in the order generated; Sealed before the session starts (for everybody)."""
    if not deal_set.session.has_started(now):
        raise Sealed(_("the deals stay sealed until the session starts"))
    seed = _xor(bytes.fromhex(deal_set.sealed_seed), _mask(deal_set.set_id))
    if hashlib.sha256(seed).hexdigest() != deal_set.seed_hash:
        raise ValueError("the sealed seed does not match its hash (was SECRET_KEY changed?)")
    return engine.deal_set(seed, deal_set.boards, deal_set.set_id)


def deals_of_session(session: PairSession, version=None, now=None) -> dict[int, str]:
    """Board -> deal: the uploaded file's deals, else the computer-dealt set's; empty while sealed.

    Deals that came with uploaded results were played already, so they wait only for an announced start
    that is still ahead; a computer-dealt set waits for a start that has passed.
    """
    now = now or timezone.now()
    if version is not None and version.deals:
        if session.starts_at is not None and not session.has_started(now):
            return {}
        return {int(board): deal for board, deal in version.deals.items()}
    deal_set = current_set(session)
    if deal_set is None or not session.has_started(now):
        return {}
    return dict(enumerate(open_set(deal_set, now), start=1))
