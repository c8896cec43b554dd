"""The panel's decision: proposed, voted on by every member, published; a changed ruling flows to the results.

The panel decides after hearing the director and the parties (VSz 9). A proposal passes when every seated
member has voted and a majority agrees; a majority against rejects it and the panel proposes again.
Publishing sets the deposit (kept when the appeal was unfounded, VSz 22), applies the change to the results
through `appeals.effects` and mails everybody concerned.

A proposal is checked against the results when it is made (the game's dry run, `effects.check`), so a board
or pair the session does not have is refused on the form. The chair may withdraw a proposal while it is being
voted on (`withdraw`); the panel then proposes and votes again. A decision the results no longer take at its
publication (they changed after the vote) is marked "not applied" with the reason and can be replaced.
"""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bridge.engine.scoring.adjusted import ArtificialScore

from .. import effects
from ..models import Appeal, Decision, Statement, TimelineEntry, Vote
from . import timeline
from .common import lock_appeal, require_status
from .hearing import heard
from .panel import PANEL_SIZE, chair, ethics_voters, seated_users

A = TimelineEntry.Action


def build(appeal, user, instance, **fields) -> Decision:
    """A validated, unsaved decision; the checks every instance shares."""
    unknown = set(fields) - set(Decision.INPUT_FIELDS)
    if unknown:
        raise ValidationError(_("Unknown fields: %(fields)s") % {"fields": ", ".join(sorted(unknown))})
    decision = Decision(appeal=appeal, instance=instance, proposed_by=user, **fields)
    decision.full_clean(exclude=["appeal", "proposed_by"])
    if decision.artificial and appeal.event.federation.game == "bridge":
        try:
            decision.artificial = str(ArtificialScore.parse(decision.artificial))
        except ValueError:
            raise ValidationError({"artificial": _('Use A+, A, A- or NS/EW like "A+/A-".')})
    if decision.point_deduction_percent:
        if appeal.event.masterpoint_multiplier is None:
            raise ValidationError(
                {
                    "point_deduction_percent": _(
                        "A point deduction is possible at masterpoint events only (VSz 22)."
                    )
                }
            )
        if not appeal.appellant_pair:
            raise ValidationError(
                {"point_deduction_percent": _("Record the appellant's pair number before deducting points.")}
            )
    # The dry run of the game's ruling: a board, pair or table the results do not have is refused now, not
    # at the publication (where the panel could no longer vote again).
    effects.check(decision)
    return decision


@transaction.atomic
def propose(appeal, user, **fields) -> Decision:
    appeal = lock_appeal(appeal)
    require_status(appeal, Appeal.Status.HEARING)
    panel = seated_users(appeal)
    if user.pk not in panel:
        raise PermissionDenied
    if len(panel) < PANEL_SIZE:
        raise ValidationError(_("The panel needs %(n)s members before it decides.") % {"n": PANEL_SIZE})
    needed = {Statement.Speaker.DIRECTOR, Statement.Speaker.APPELLANT}
    if appeal.respondent_entry_id:
        needed.add(Statement.Speaker.RESPONDENT)
    missing = needed - heard(appeal)
    if missing:
        names = ", ".join(str(Statement.Speaker(s).label) for s in sorted(missing))
        raise ValidationError(
            _("Hear the director and the parties first; not yet heard: %(who)s.") % {"who": names}
        )
    if appeal.decisions.filter(instance=Decision.Instance.FIRST, status=Decision.Status.PROPOSED).exists():
        raise ValidationError(_("A proposed decision is still being voted on."))
    decision = build(appeal, user, Decision.Instance.FIRST, **fields)
    decision.save()
    Vote.objects.create(decision=decision, user=user, agrees=True)
    timeline.record(appeal, A.PROPOSED, user, decision.get_outcome_display())
    return decision


def voters(decision) -> set[int]:
    """Who votes on a decision: the seated panel at first instance, the federation's Rules and Ethics
    Committee (less any member who is a party) at the second."""
    if decision.instance == Decision.Instance.SECOND:
        return ethics_voters(decision.appeal)
    return seated_users(decision.appeal)


def tally(decision) -> tuple[int, int, int]:
    """(for, against, number of voters) of a decision."""
    votes = list(decision.votes.values_list("agrees", flat=True))
    return sum(votes), len(votes) - sum(votes), len(voters(decision))


@transaction.atomic
def vote(decision, user, agrees, comment="", *, extra_recipients=()) -> Decision:
    """One member's vote; a proposal no majority can carry any more is rejected at once."""
    appeal = lock_appeal(decision.appeal_id)
    decision = Decision.objects.select_for_update().get(pk=decision.pk)
    if user.pk not in voters(decision):
        raise PermissionDenied
    if decision.status != Decision.Status.PROPOSED:
        raise ValidationError(_("This decision is no longer open to a vote."))
    if decision.votes.filter(user=user).exists():
        raise ValidationError(_("You have already voted."))
    Vote.objects.create(decision=decision, user=user, agrees=agrees, comment=comment)
    timeline.record(appeal, A.VOTED, user, mail=False)
    yes, no, size = tally(decision)
    if (size - no) * 2 <= size:  # even if everybody else agrees there is no majority
        decision.status = Decision.Status.REJECTED
        decision.save(update_fields=["status"])
        timeline.record(
            appeal,
            A.REJECTED,
            user,
            _("%(yes)s for, %(no)s against.") % {"yes": yes, "no": no},
            extra_recipients=extra_recipients,
        )
    return decision


@transaction.atomic
def withdraw(decision, user, reason="") -> Decision:
    """The panel's chair withdraws a proposal still being voted on; its votes no longer count and the panel
    proposes (and votes) again. The proposal, its votes and the withdrawal stay on the record."""
    appeal = lock_appeal(decision.appeal_id)
    decision = Decision.objects.select_for_update().get(pk=decision.pk)
    if decision.instance != Decision.Instance.FIRST:
        raise ValidationError(
            _("Only a proposal of the Appeals Committee's panel is withdrawn by its chair.")
        )
    if user.pk != chair(appeal):
        raise PermissionDenied
    if decision.status != Decision.Status.PROPOSED:
        raise ValidationError(_("Only a proposal still being voted on can be withdrawn."))
    decision.status = Decision.Status.WITHDRAWN
    decision.save(update_fields=["status"])
    yes, no, _size = tally(decision)
    note = _("%(yes)s for, %(no)s against when withdrawn.") % {"yes": yes, "no": no}
    timeline.record(appeal, A.PROPOSAL_WITHDRAWN, user, f"{note} {reason}".strip())
    return decision


def publish(decision, user, now=None) -> Decision:
    """Publish a decision every panel member voted on and a majority agreed with.

    A decision the results no longer take (they changed after the vote) is not published: it is marked as
    not applied with the reason, which the case page and the timeline show, and the panel proposes anew;
    the refusal is kept (committed) and raised as a ValidationError naming the reason.
    """
    refusal = _publish(decision, user, now)
    if refusal is not None:
        raise refusal
    decision.refresh_from_db()
    return decision


@transaction.atomic
def _publish(decision, user, now):
    appeal = lock_appeal(decision.appeal_id)
    decision = Decision.objects.select_for_update().get(pk=decision.pk)
    require_status(appeal, Appeal.Status.HEARING)
    if user.pk not in seated_users(appeal):
        raise PermissionDenied
    if decision.status != Decision.Status.PROPOSED:
        raise ValidationError(_("This decision is no longer open."))
    yes, no, size = tally(decision)
    if yes + no < size:
        raise ValidationError(_("Every panel member votes before the decision is published."))
    if yes * 2 <= size:
        raise ValidationError(_("The decision has no majority."))

    def close():
        appeal.deposit_outcome = Appeal.Deposit.KEPT if decision.keeps_deposit else Appeal.Deposit.RETURNED
        appeal.status = Appeal.Status.DECIDED
        appeal.save(update_fields=["deposit_outcome", "status"])

    return apply_or_refuse(appeal, decision, user, A.PUBLISHED, close, now=now)


def apply_or_refuse(appeal, decision, user, action, close, *, now=None) -> ValidationError | None:
    """Publish `decision` (`close` sets the case's outcome first) unless the results refuse it; then the
    decision is marked not applied with the reason (on the timeline too) and the refusal is returned, to be
    raised after the commit (the caller's transaction keeps the record). Shared by both instances."""
    try:
        with transaction.atomic():  # a refused effect undoes everything of the publication, nothing else
            effects.check(decision)
            close()
            finish(appeal, decision, user, action, now=now)
    except ValidationError as error:
        appeal.refresh_from_db()
        reason = refusal_text(error)
        Decision.objects.filter(pk=decision.pk).update(status=Decision.Status.NOT_APPLIED, refusal=reason)
        decision.refresh_from_db()
        timeline.record(appeal, A.NOT_APPLIED, user, reason)
        return ValidationError(
            _("The decision cannot be applied to the results: %(reason)s The panel proposes a new decision.")
            % {"reason": reason}
        )
    return None


def refusal_text(error: ValidationError) -> str:
    """The messages of a refusal as one sentence for the case page and the timeline."""
    messages = [str(m).rstrip(".") for m in error.messages]
    return "; ".join(messages) + "."


def finish(appeal, decision, user, action, now=None):
    """Publish `decision` and apply it to the results; shared by both instances."""
    decision.status = Decision.Status.PUBLISHED
    decision.published_at = now or timezone.now()
    decision.published_by = user
    version = effects.apply(decision)
    decision.effect = version or ""
    decision.save(update_fields=["status", "published_at", "published_by", "effect"])
    timeline.record(appeal, action, user, decision.text, details={"deposit": appeal.deposit_outcome})
    if version:
        timeline.record(appeal, A.EFFECT, user, _("Result version %(v)s.") % {"v": version}, mail=False)
    elif version is None:
        timeline.record(
            appeal,
            A.NO_EFFECT,
            user,
            _("The results of this game are not changed automatically: the director applies the decision."),
        )


def published(appeal, instance=Decision.Instance.FIRST) -> Decision | None:
    return (
        appeal.decisions.filter(instance=instance, status=Decision.Status.PUBLISHED)
        .order_by("-published_at")
        .first()
    )
