"""The stored facts of appeals (VSz 9, 22; Laws 92-93) and discipline (VSz 23).

Split by stage of a case: the event's committee and the day's facts, the case itself, the hearing and the
decisions, discipline, and the immutable timeline every step writes to.
"""

from .case import Appeal, Attachment, Consent
from .committee import Committee, CommitteeMember, FederationSettings
from .decision import Decision, PanelSeat, SecondAppeal, Statement, Vote
from .discipline import DisciplinaryDecision, DisciplinaryReport, Measure
from .event_day import EventStart, Intention, SessionEnd
from .timeline import TimelineEntry

__all__ = [
    "Appeal",
    "Attachment",
    "Committee",
    "CommitteeMember",
    "Consent",
    "Decision",
    "DisciplinaryDecision",
    "DisciplinaryReport",
    "EventStart",
    "FederationSettings",
    "Intention",
    "Measure",
    "PanelSeat",
    "SecondAppeal",
    "SessionEnd",
    "Statement",
    "TimelineEntry",
    "Vote",
]
