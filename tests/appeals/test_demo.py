"""The demo: a committee on the demo pair event, one published and one open case, idempotent."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from appeals.models import Appeal, CommitteeMember, TimelineEntry
from appeals.services import panel
from demo import appeals as demo
from demo import federation as federation_demo

pytestmark = pytest.mark.django_db


def test_the_demo_cases(client):
    federation_demo.seed()
    demo.seed()
    counts = (Appeal.objects.count(), CommitteeMember.objects.count(), TimelineEntry.objects.count())
    demo.seed()
    assert (Appeal.objects.count(), CommitteeMember.objects.count(), TimelineEntry.objects.count()) == counts
    decided, open_case = Appeal.objects.order_by("number")
    assert decided.event.title == "Demo páros verseny"
    assert decided.status == Appeal.Status.DECIDED and decided.deposit_outcome == Appeal.Deposit.KEPT
    assert open_case.status == Appeal.Status.HEARING
    assert decided.event.appeals_committee.is_complete
    member = get_user_model().objects.get(username="fellebbezes@demo.hu")
    for case in (decided, open_case):
        assert case.panel.filter(member__user=member).exists()
        assert all(not panel.conflicts(case, seat.member) for seat in case.panel.all())
    assert [a.pk for a in client.get(reverse("appeals")).context["page"]] == [decided.pk]
    client.force_login(member)
    page = client.get(reverse("appeal_detail", args=[open_case.pk]))
    assert page.context["can"]["hear_case"] and page.context["decision_form"] is not None
