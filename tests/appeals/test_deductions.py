"""Point deductions reach the results: the director's deduction (VSz 23, 32) and a frivolous appeal's
(VSz 22) become a new bridge result version with who and why; the recompute (Celery, eager) moves the
standings and the masterpoints."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

pytest.importorskip("bridge.services.adjustments")

from appeals import effects  # noqa: E402
from appeals.models import Intention, Measure, TimelineEntry  # noqa: E402
from appeals.services import decision as decisions  # noqa: E402
from appeals.services import discipline, filing, hearing, panel  # noqa: E402
from bridge.models import ResultVersion, SessionStanding  # noqa: E402
from demo import bridge_sample as sample  # noqa: E402
from federation.models import Notification  # noqa: E402
from rankings.models import AwardVersion  # noqa: E402

pytestmark = pytest.mark.django_db

START = timezone.make_aware(datetime.datetime(2026, 11, 28, 10, 0))


@pytest.fixture
def scored(scored_bridge_event):
    return scored_bridge_event("Levonásos páros", seed=11)


def _leader(session):
    field = SessionStanding.objects.filter(session=session, field="NS").select_related("pair__pair__entry")
    return min(field, key=lambda s: s.order)


def test_the_bridge_measure_handler_is_registered_at_start_up():
    from appeals.bridge_effect import apply_bridge_measure

    assert effects.measure_handler_for("bridge") is apply_bridge_measure


def test_a_directors_point_deduction_changes_the_standings_as_a_new_version(
    scored, django_capture_on_commit_callbacks
):
    event, session, director = scored
    leader = _leader(session)
    assert leader.place.startswith("1") and AwardVersion.objects.filter(event=event, is_current=True).exists()
    before = ResultVersion.objects.filter(session=session).count()
    person = leader.pair.pair.entry.members.order_by("position").first().person
    person.email = "levont@example.hu"
    person.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        measure = discipline.take_measure(
            event,
            director,
            person,
            Measure.Kind.POINT_DEDUCTION,
            "Konvenciókártya hiánya (VSz 32 g).",
            session=session.announced,
            percent=100,
        )

    measure.refresh_from_db()
    version = ResultVersion.objects.filter(session=session).order_by("-number").first()
    assert ResultVersion.objects.filter(session=session).count() == before + 1
    assert str(version) == measure.effect
    # Who and why: the director, the measure's reason, a director's adjustment.
    assert version.source == "adjustment" and version.uploaded_by == director
    assert "Konvenciókártya hiánya" in version.note
    moved = SessionStanding.objects.get(session=session, pair=leader.pair)
    assert moved.total < leader.total and not moved.place.startswith("1")
    assert AwardVersion.objects.get(event=event, is_current=True).reason == "correction"
    step = TimelineEntry.objects.get(measure=measure)
    assert step.action == TimelineEntry.Action.DEDUCTED and step.actor == director
    assert Notification.objects.filter(recipient="levont@example.hu", subject__contains=str(person)).exists()


def test_a_deduction_before_the_results_are_in_stays_recorded_for_the_director(world):
    person = world.pairs[0].members.order_by("position").first().person
    measure = discipline.take_measure(
        world.event, world.director, person, Measure.Kind.POINT_DEDUCTION, "Lassú játék.", percent=10
    )
    assert measure.status == Measure.Status.IN_FORCE and measure.effect == ""
    step = TimelineEntry.objects.get(measure=measure)
    assert step.action == TimelineEntry.Action.NO_EFFECT and "not in the portal" in step.note


def test_a_warning_changes_no_results(scored):
    event, session, director = scored
    leader = _leader(session)
    before = ResultVersion.objects.filter(session=session).count()
    person = leader.pair.pair.entry.members.first().person
    discipline.take_measure(event, director, person, Measure.Kind.WARNING, "Hangoskodás.")
    assert ResultVersion.objects.filter(session=session).count() == before


def test_a_frivolous_appeal_costs_the_appellant_points_through_the_recompute(
    scored, make_user, django_capture_on_commit_callbacks
):
    event, session, director = scored
    labels = sample.pair_labels(session)
    leader = _leader(session)
    appellant = leader.pair.pair.entry
    for i, member in enumerate(appellant.members.all()):
        member.person.user = make_user(f"ns{i}@example.hu")
        member.person.save()
    users = [m.person.user for m in appellant.members.order_by("position")]
    announced = session.announced
    Intention.objects.create(
        session=announced,
        entry=appellant,
        board_number=1,
        source="director",
        recorded_by=director,
        recorded_at=START + datetime.timedelta(minutes=200),
    )
    filing.end_session(announced, director, at=START + datetime.timedelta(minutes=210))
    appeal = filing.file_appeal(
        users[0],
        session=announced,
        entry=appellant,
        board_number=1,
        appellant_pair=labels[leader.pair_id],
        director=director,
        ruling="Az eredmény áll.",
        request="Módosított eredmény.",
        statement="Semmi alapja.",
        now=START + datetime.timedelta(minutes=215),
    )
    filing.agree(appeal, users[1], now=START + datetime.timedelta(minutes=220))
    filing.confirm_deposit(appeal, director)
    panel.form_panel(appeal, director)
    seated = [s.member.user for s in appeal.panel.all()]
    for speaker in ("director", "appellant"):
        hearing.record_statement(appeal, seated[0], speaker=speaker, speaker_name=speaker, text="...")
    proposal = decisions.propose(
        appeal,
        seated[0],
        outcome="upheld",
        text="Komolytalan óvás: 100% levonás.",
        unfounded=True,
        frivolous=True,
        point_deduction_percent=100,
    )
    for user in seated[1:]:
        decisions.vote(proposal, user, True)
    with django_capture_on_commit_callbacks(execute=True):
        decisions.publish(proposal, seated[0])

    proposal.refresh_from_db()
    version = ResultVersion.objects.filter(session=session).order_by("-number").first()
    assert version.source == "appeal" and str(version) == proposal.effect
    assert version.uploaded_by == seated[0] and version.note.startswith(appeal.reference)
    moved = SessionStanding.objects.get(session=session, pair=leader.pair)
    assert moved.total < leader.total and not moved.place.startswith("1")
    assert AwardVersion.objects.get(event=event, is_current=True).reason == "appeal"


def test_a_deduction_recorded_before_the_results_is_applied_later_by_the_director(
    scored, client, make_user, django_capture_on_commit_callbacks
):
    # As if taken before the upload: in force, not yet in the results.
    event, session, director = scored
    leader = _leader(session)
    person = leader.pair.pair.entry.members.order_by("position").first().person
    measure = Measure.objects.create(
        event=event,
        session=session.announced,
        person=person,
        kind=Measure.Kind.POINT_DEDUCTION,
        percent=100,
        reason="Lassú játék.",
        status=Measure.Status.IN_FORCE,
        taken_by=director,
    )
    url = reverse("appeals_measure_apply", args=[event.pk, measure.pk])
    before = ResultVersion.objects.filter(session=session).count()

    client.force_login(make_user("jatekos@example.hu"))
    assert client.post(url).status_code in (403, 404)
    page = client.get(reverse("appeals_discipline", args=[event.pk]))
    assert url not in page.content.decode()
    assert ResultVersion.objects.filter(session=session).count() == before

    client.force_login(director)
    assert url in client.get(reverse("appeals_discipline", args=[event.pk])).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url)
    assert response.status_code == 302
    measure.refresh_from_db()
    assert measure.effect and ResultVersion.objects.filter(session=session).count() == before + 1
    moved = SessionStanding.objects.get(session=session, pair=leader.pair)
    assert moved.total < leader.total

    client.post(url)  # a second click changes nothing
    assert ResultVersion.objects.filter(session=session).count() == before + 1
    assert url not in client.get(reverse("appeals_discipline", args=[event.pk])).content.decode()
