"""The second instance (VSz 9, 22): a written appeal to the federation's Rules and Ethics Committee.

Due within one week of the first decision's publication (FederationSettings.second_instance_days), with
the federation's second-instance deposit. The ethics committee's decision overrides the first one and flows
to the results the same way; an unfounded second appeal loses its deposit too.

The ethics committee decides as a body, like the first-instance panel: one member proposes (his vote counts
for it), the members vote (`decisions.vote`, the same Vote rows), and the decision is published the moment a
majority of all the members agrees (a member who does not vote cannot hold it up); a proposal no majority can
carry any more is rejected and another may be proposed. The voters are the federation's ETHICS role holders, less any who is a party of the case.
"""

import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from ..models import Appeal, Decision, FederationSettings, SecondAppeal, TimelineEntry, Vote
from . import decision as decisions
from . import timeline
from .common import lock_appeal, party_people, person_of, require_status
from .decision import apply_or_refuse, build, published
from .panel import ethics_voters

A = TimelineEntry.Action


def deadline(appeal) -> datetime.datetime | None:
    first = published(appeal)
    if first is None:
        return None
    days = FederationSettings.for_federation(appeal.event.federation).second_instance_days
    return first.published_at + datetime.timedelta(days=days)


@transaction.atomic
def file(appeal, user, statement, now=None) -> SecondAppeal:
    now = now or timezone.now()
    appeal = lock_appeal(appeal)
    require_status(appeal, Appeal.Status.DECIDED)
    person = person_of(user)
    if person is None or person.pk not in {p.pk for p in party_people(appeal)}:
        raise PermissionDenied
    due = deadline(appeal)
    if due is None or now > due:
        raise ValidationError(
            _(
                "The second-instance appeal was due by %(deadline)s, one week after the decision was published (VSz 22)."
            )
            % {"deadline": formats.date_format(timezone.localtime(due), "Y. m. d. H:i") if due else "-"}
        )
    if not statement.strip():
        raise ValidationError(_("The second-instance appeal is written: give its reasons."))
    settings = FederationSettings.for_federation(appeal.event.federation)
    second = SecondAppeal.objects.create(
        appeal=appeal,
        filed_by=user,
        filed_at=now,
        statement=statement,
        deposit_amount=settings.second_instance_deposit,
    )
    appeal.status = Appeal.Status.SECOND_INSTANCE
    appeal.save(update_fields=["status"])
    timeline.record(
        appeal,
        A.SECOND_FILED,
        user,
        statement,
        extra_recipients=timeline.ethics_emails(appeal.event.federation_id),
    )
    return second


@transaction.atomic
def confirm_deposit(appeal, user, now=None) -> SecondAppeal:
    appeal = lock_appeal(appeal)
    require_status(appeal, Appeal.Status.SECOND_INSTANCE)
    second = SecondAppeal.objects.select_for_update().get(appeal=appeal)
    if second.deposit_paid_at is None:
        second.deposit_paid_at = now or timezone.now()
        second.deposit_received_by = user
        second.save(update_fields=["deposit_paid_at", "deposit_received_by"])
        timeline.record(
            appeal, A.SECOND_DEPOSIT, user, _("%(amount)s Ft received.") % {"amount": second.deposit_amount}
        )
    return second


@transaction.atomic
def propose(appeal, user, now=None, **fields) -> Decision:
    """An ethics member proposes the committee's decision; it is published once a majority of all agrees."""
    appeal = lock_appeal(appeal)
    require_status(appeal, Appeal.Status.SECOND_INSTANCE)
    second = SecondAppeal.objects.select_for_update().get(appeal=appeal)
    if not second.deposit_paid:
        raise ValidationError(_("The second-instance deposit has not been received yet."))
    if user.pk not in ethics_voters(appeal):
        raise PermissionDenied
    if appeal.decisions.filter(instance=Decision.Instance.SECOND, status=Decision.Status.PROPOSED).exists():
        raise ValidationError(_("A proposed decision is still being voted on."))
    decision = build(appeal, user, Decision.Instance.SECOND, **fields)
    decision.save()
    Vote.objects.create(decision=decision, user=user, agrees=True)
    timeline.record(
        appeal,
        A.PROPOSED,
        user,
        decision.get_outcome_display(),
        extra_recipients=timeline.ethics_emails(appeal.event.federation_id),
    )
    _publish_if_decided(appeal, second, decision, user, now)
    return decision


@transaction.atomic
def vote(decision, user, agrees, comment="", now=None) -> Decision:
    """An ethics member's vote; the last vote of a majority publishes the decision."""
    if decision.instance != Decision.Instance.SECOND:
        raise ValidationError(_("This is not a decision of the Rules and Ethics Committee."))
    appeal = lock_appeal(decision.appeal_id)
    require_status(appeal, Appeal.Status.SECOND_INSTANCE)
    decision = decisions.vote(
        decision,
        user,
        agrees,
        comment,
        extra_recipients=timeline.ethics_emails(appeal.event.federation_id),
    )
    second = SecondAppeal.objects.select_for_update().get(appeal=appeal)
    _publish_if_decided(appeal, second, decision, user, now)
    decision.refresh_from_db()
    return decision


def _publish_if_decided(appeal, second, decision, user, now):
    if decision.status != Decision.Status.PROPOSED:
        return
    yes, _no, size = decisions.tally(decision)
    if yes * 2 <= size:  # decided once a majority of all the members agrees: later votes cannot undo it
        return

    def close():
        second.deposit_outcome = Appeal.Deposit.KEPT if decision.keeps_deposit else Appeal.Deposit.RETURNED
        second.save(update_fields=["deposit_outcome"])
        appeal.status = Appeal.Status.CLOSED
        appeal.save(update_fields=["status"])

    # A decision the results refuse is marked not applied with the reason (the vote stays recorded) and the
    # committee proposes anew; it is not raised, so that the vote and the record are kept.
    if apply_or_refuse(appeal, decision, user, A.SECOND_DECIDED, close, now=now) is not None:
        second.refresh_from_db()


def current_decision(appeal) -> Decision | None:
    """The decision in force: the second instance's when there is one."""
    return published(appeal, Decision.Instance.SECOND) or published(appeal)
