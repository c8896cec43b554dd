"""Convention cards (VSz 15, VSz 32 g): which card an event asks for, submitting one, and the director's list of
pairs whose card is missing or incomplete with the penalty range the catalogue gives for it."""

import hashlib
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import models, transaction
from django.db.models import Q
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from results.upload_input import (
    _UNSAFE,
    ALLOWED_EXTENSIONS,
    ALLOWED_TYPES,
    UploadTooLarge,
    display_name,
    read_upload_bytes,
    sniff,
)
from tournaments.models import Event

from ..engine.scoring.adjusted import PENALTY_CATALOGUE
from ..models import ConventionCard, Pair, SessionPair

MAX_BYTES = 5 * 1024 * 1024
# The fields a filled-in card must have, by class: the simplified card has no openings table (VSz 15).
REQUIRED = {
    ConventionCard.CardClass.SIMPLIFIED: ("system", "notrump_range", "carding", "leads"),
    ConventionCard.CardClass.DETAILED: ("system", "notrump_range", "openings", "carding", "leads"),
}
FORM_FIELDS = ("system", "notrump_range", "openings", "carding", "leads", "notes")


def card_class(event) -> str:
    """VSz 15: the simplified card at club events and at events of masterpoint multiplier 0-3, else detailed.
    (The lower divisions of the Budapest championships also take it; the portal does not model them.)"""
    multiplier = event.masterpoint_multiplier
    if event.event_class == Event.EventClass.CLUB or (multiplier is not None and multiplier <= Decimal(3)):
        return ConventionCard.CardClass.SIMPLIFIED
    return ConventionCard.CardClass.DETAILED


def current(pair) -> ConventionCard | None:
    return ConventionCard.objects.filter(pair=pair).order_by("-pk").first()


def missing_fields(card, wanted: str) -> list[str]:
    """The required fields of the event's card class a card leaves empty; none for an uploaded card (the
    director reads a file himself)."""
    if card.file:
        return []
    return [name for name in REQUIRED[wanted] if not getattr(card, name).strip()]


@transaction.atomic
def submit_form(pair, user, data: dict) -> ConventionCard:
    values = {name: (data.get(name) or "").strip() for name in FORM_FIELDS}
    if not any(values.values()):
        raise ValidationError(_("The card is empty: fill in at least the bidding system."))
    card = ConventionCard(pair=pair, card_class=card_class(pair.event), submitted_by=user, **values)
    try:
        card.full_clean(exclude=["file", "submitted_by", "pair"])
    except ValidationError as error:
        # Each message names its field: "1NT opening range: Ensure this value has at most 40 characters".
        raise ValidationError(
            [
                f"{ConventionCard._meta.get_field(name).verbose_name}: {message}"
                for name, messages in error.message_dict.items()
                for message in messages
            ]
        )
    card.save()
    return card


@transaction.atomic
def submit_file(pair, user, upload, notes: str = "") -> ConventionCard:
    """An uploaded card: a PDF, PNG or JPEG by its first bytes, at most MAX_BYTES; anything else is refused
    and nothing is stored."""
    try:
        # Refused by its declared size unread, and never more than one byte over the limit is read.
        data = read_upload_bytes(upload, limit=MAX_BYTES)
    except UploadTooLarge:
        raise ValidationError(_("The file is larger than %(max)s.") % {"max": filesizeformat(MAX_BYTES)})
    if not data:
        raise ValidationError(_("The file is empty."))
    kind = sniff(data[:16])
    if kind is None or kind[0] not in ALLOWED_TYPES:
        raise ValidationError(_("A convention card can be a PDF document or a PNG or JPEG photo only."))
    content_type, extension = kind
    declared = (getattr(upload, "name", "") or "").replace("\\", "/").rsplit("/", 1)[-1].rpartition(".")
    if declared[1] and declared[2].lower() not in ALLOWED_EXTENSIONS:
        raise ValidationError(
            _("A convention card can be a .pdf, .png, .jpg or .jpeg file, not .%(extension)s.")
            % {"extension": _UNSAFE.sub("", declared[2])[:10]}
        )
    card = ConventionCard(
        pair=pair,
        card_class=card_class(pair.event),
        original_name=display_name(getattr(upload, "name", "") or "", content_type),
        content_type=content_type,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        notes=(notes or "").strip()[:2000],
        submitted_by=user,
    )
    card.file.save(f"card.{extension}", ContentFile(data), save=False)
    card.save()
    return card


def event_pairs(event) -> list:
    """The event's pairs, for the list of their cards."""
    return list(Pair.objects.filter(event=event).select_related("player1", "player2").order_by("pk"))


def session_pairs(session) -> list:
    """The pairs seated in the session, for the list of their cards."""
    return list(
        Pair.objects.filter(seats__section__session=session)
        .select_related("player1", "player2")
        .order_by("pk")
    )


def session_flags(session) -> list[dict]:
    """The pairs of the session without a card, or with one lacking a required field, each with the VSz 32 g
    range of the penalty for it (per cent of a top)."""
    wanted = card_class(session.event)
    pair_ids = set(SessionPair.objects.filter(section__session=session).values_list("pair_id", flat=True))
    latest = {}
    for card in ConventionCard.objects.filter(pair_id__in=pair_ids).order_by("pk"):
        latest[card.pair_id] = card
    flags = []
    for pair in Pair.objects.filter(pk__in=pair_ids).select_related("player1", "player2").order_by("pk"):
        card = latest.get(pair.pk)
        if card is None:
            code, missing = "missing_convention_card", []
        else:
            missing = missing_fields(card, wanted)
            if not missing:
                continue
            code = "incomplete_convention_card"
        offence = PENALTY_CATALOGUE[code]
        flags.append(
            {
                "pair": pair,
                "code": code,
                "card": card,
                "missing": [str(ConventionCard._meta.get_field(name).verbose_name) for name in missing],
                "clause": offence.clause,
                "low": offence.low,
                "high": offence.high,
            }
        )
    return flags


def erase_person(identity) -> list[str]:
    """Erasure (GDPR art. 17, `federation.personal_data.register_eraser`): a card file names its pair, so
    the files of the erased person's pairs are deleted from storage (after the commit) and their rows keep
    what the director may still need (class, form fields, size, fingerprint) with no file and no file
    name; his name in the notes is replaced. The one write these append-only rows allow."""
    cards = list(
        ConventionCard.objects.filter(
            Q(pair__player1_id=identity.person_id) | Q(pair__player2_id=identity.person_id)
        ).exclude(file="", notes="")
    )
    if not cards:
        return []
    rows = models.QuerySet(ConventionCard)  # past AppendOnlyQuerySet: the erasure's one exception
    for card in cards:
        if card.file:
            name, storage = card.file.name, card.file.storage
            transaction.on_commit(lambda name=name, storage=storage: storage.delete(name))
        rows.filter(pk=card.pk).update(file="", original_name="", notes=identity.scrub(card.notes))
    return ["convention_card_files"]
