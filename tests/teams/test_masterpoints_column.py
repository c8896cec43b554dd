"""Issue #20: the team standings after the last round show the masterpoints each team's players earned."""

from decimal import Decimal

from django.urls import reverse

from rankings.models import Award, AwardVersion
from results import page_cache
from teams.models import Standing


def award(event, person, amount):
    version, _ = AwardVersion.objects.get_or_create(
        event=event,
        federation=event.federation,
        version=1,
        defaults={"date": event.start_date, "field_size": 4},
    )
    Award.objects.create(
        version=version,
        event=event,
        federation=event.federation,
        person=person,
        year=2026,
        date=event.start_date,
        amount=Decimal(amount),
        reason="final",
        place_from=1,
        place_to=1,
    )


def test_the_last_standings_show_the_earned_masterpoints(client, make_team_event, director, play):
    event = make_team_event(teams=4, pairing_format="round_robin", rounds=3)
    user = director(event)
    for _ in range(3):
        play(event, user)
    url = reverse("teams_standings", args=[event.pk])
    assert 'id="mp-column"' not in client.get(url).content.decode()
    top = Standing.objects.filter(event=event, after_round=3).order_by("place").first().team
    for member in top.entry.members.all():
        award(event, member.person, "7.5")
    page_cache.bump(page_cache.event_scope(event.pk))  # as the ledger does when it writes awards
    html = client.get(url).content.decode()
    assert 'id="mp-column"' in html and '<td class="num">7.50</td>' in html
    assert 'id="mp-column"' not in client.get(url + "?after=2").content.decode()  # not the final table
