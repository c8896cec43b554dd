"""The demo calendar: both federations, this year and next, entries that respect eligibility."""

import pytest
from django.utils import timezone

from tournaments.engine import eligibility
from tournaments.models import Entry, Event
from tournaments.services.player_facts import event_terms, player_facts


@pytest.mark.django_db
def test_demo_calendar_is_realistic_idempotent_and_eligible():
    from demo import federation as federation_demo
    from demo import tournaments as demo

    federation_demo.seed()
    demo.seed()
    counts = (Event.objects.count(), Entry.objects.count())
    demo.seed()
    assert (Event.objects.count(), Entry.objects.count()) == counts

    year = timezone.localdate().year
    events = Event.objects.all()
    for code in ("mbsz", "mausz"):
        assert events.filter(federation__code=code, start_date__year=year, status="approved").exists()
        assert events.filter(federation__code=code, start_date__year=year + 1, status="proposed").exists()
    assert events.filter(title="Országos Mitchell Páros Bajnokság").count() == 2
    for region in ("duna-tisza", "felso-tisza"):
        assert (
            events.filter(event_class="nub_qualifier", region__code=region, start_date__year=year).count()
            == 5
        )
    for cls in ("nub_semifinal", "nub_final", "rating", "sport_ulti", "team_regional"):
        assert events.filter(event_class=cls).exists()
    assert events.filter(format="teams", entries__isnull=False).exists()
    assert Entry.objects.filter(status="waiting").exists() and Entry.objects.filter(no_show=True).exists()

    # A sample of entries passes the same check the entry service runs.
    for entry in Entry.objects.filter(status="active").select_related("event").order_by("pk")[::40]:
        facts = [player_facts(entry.event, m.person, ignore_entry=entry) for m in entry.members.all()]
        assert eligibility.check_entry(event_terms(entry.event), facts, entry.team_name) == [], entry
