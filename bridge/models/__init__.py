"""Stored facts of bridge pair events: setup, append-only result versions, materialised standings,
correction requests, substitutes and withdrawals, sealed computer-dealt sets."""

from .dealing import DealSet
from .requests import CorrectionRequest
from .roster import Substitution, Withdrawal
from .setup import Pair, PairEvent, PairSession, Section, SessionPair
from .standings import BoardScore, EventStanding, HandRecord, SessionStanding
from .uploads import BoardResult, ResultPenalty, ResultVersion

__all__ = [
    "BoardResult",
    "BoardScore",
    "CorrectionRequest",
    "DealSet",
    "EventStanding",
    "HandRecord",
    "Pair",
    "PairEvent",
    "PairSession",
    "ResultPenalty",
    "ResultVersion",
    "Section",
    "SessionPair",
    "SessionStanding",
    "Substitution",
    "Withdrawal",
]

# The masterpoint source is registered once the models are importable in every process (web, worker,
# commands); BridgeConfig.ready would be the natural home, but apps.py belongs to the engine authors.
from bridge.services import ranking_source as _ranking_source  # noqa: E402

_ranking_source.register()
