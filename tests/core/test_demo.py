import datetime
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import reverse

from demo.federation import DEMO_PASSWORD
from federation.models import Club, Licence, Membership, Person, Region, Role, Suspension
from tests import demo_snapshot


@pytest.mark.django_db
def test_seed_demo_is_idempotent_and_realistic():
    # seed_demo itself, then the same rows written back as later modules of the process get them
    # (tests/demo_snapshot.py): every table holds exactly what the command wrote.
    start = transaction.savepoint()
    seeded = demo_snapshot.seed()
    transaction.savepoint_rollback(start)
    assert Person.objects.count() == 0
    demo_snapshot.load_demo()
    # Every table holds the rows the command wrote (as a multiset: PostgreSQL's heap order is its own).
    assert {table: Counter(rows) for table, rows in demo_snapshot.rows().items()} == {
        table: Counter(rows) for table, rows in seeded.items()
    }
    counts = (Club.objects.count(), Person.objects.count(), Membership.objects.count(), Role.objects.count())
    call_command("seed_demo", verbosity=0)
    assert (
        Club.objects.count(),
        Person.objects.count(),
        Membership.objects.count(),
        Role.objects.count(),
    ) == counts
    assert 18 <= counts[0] <= 25 and counts[1] == 500
    assert Region.objects.filter(federation__code="mausz").count() == 2
    today = datetime.date.today()
    people = list(Person.objects.all())
    assert any(p.is_junior(today) for p in people) and any(p.is_senior(today) for p in people)
    assert Licence.objects.exists() and Suspension.objects.exists()
    kinds = set(Role.objects.values_list("kind", flat=True))
    assert kinds == {k for k, _ in Role.KINDS}
    users = get_user_model().objects
    assert users.get(username="admin@demo.hu").is_superuser
    assert users.get(username="jatekos@demo.hu").person is not None
    # The demo logins count as verified: they log in without an e-mail check.
    client = Client()
    client.post(reverse("login"), {"username": "jatekos@demo.hu", "password": DEMO_PASSWORD})
    assert "_auth_user_id" in client.session
