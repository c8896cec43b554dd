"""Stored facts of bridge pair events: setup, append-only result versions, materialised standings,
correction requests, substitutes and withdrawals, sealed computer-dealt sets."""

from .cards import ConventionCard
from .dealing import DealSet, SessionStart
from .individual import (
    IndividualBoardScore,
    IndividualEvent,
    IndividualPlayer,
    IndividualResult,
    IndividualStanding,
    IndividualSubstitution,
    IndividualVersion,
    IndividualVersionDecision,
)
from .programs import AcceptedProgram
from .psychs import PsychRecord
from .requests import CorrectionRequest
from .roster import Exclusion, Substitution, Withdrawal
from .setup import Pair, PairEvent, PairSession, Section, SessionPair
from .standings import BoardScore, EventStanding, HandRecord, ScoredBoard, SessionStanding
from .tables import RoundCall, RoundClock, TableCode, TableEntry
from .uploads import BoardResult, ResultPenalty, ResultVersion, VersionDecision

__all__ = [
    "Exclusion",
    "AcceptedProgram",
    "BoardResult",
    "BoardScore",
    "ScoredBoard",
    "ConventionCard",
    "CorrectionRequest",
    "DealSet",
    "EventStanding",
    "HandRecord",
    "IndividualBoardScore",
    "IndividualEvent",
    "IndividualPlayer",
    "IndividualResult",
    "IndividualStanding",
    "IndividualSubstitution",
    "IndividualVersion",
    "IndividualVersionDecision",
    "Pair",
    "PairEvent",
    "PairSession",
    "PsychRecord",
    "ResultPenalty",
    "ResultVersion",
    "RoundCall",
    "RoundClock",
    "Section",
    "SessionPair",
    "SessionStanding",
    "SessionStart",
    "Substitution",
    "TableCode",
    "TableEntry",
    "VersionDecision",
    "Withdrawal",
]
