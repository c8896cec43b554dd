"""The masterpoint ledger: versions, corrections, appeals, paid prizes and scheme changes."""

import datetime
from decimal import Decimal

import pytest

from federation.models import Notification
from rankings import sources
from rankings.models import (
    Award,
    AwardScheme,
    AwardVersion,
    ListKind,
    ListStamp,
    PaymentResultChange,
    PrizePayment,
)
from rankings.services.event_results import process_event, results_changed
from rankings.services.ledger import reaward_for_scheme, record_prize_payment, record_result
from rankings.services.lists import list_stamp
from rankings.services.schemes import change_scheme, current_scheme
from rankings.sources import PlayerShare

pytestmark = pytest.mark.django_db


@pytest.fixture
def pairs(mbsz, bridge_club, make_person):
    return [(make_person(mbsz, bridge_club), make_person(mbsz, bridge_club)) for _ in range(10)]


def amounts(event):
    return {a.person_id: a.amount for a in Award.objects.filter(event=event, is_current=True)}


def test_final_result_awards_every_player_with_rights(mbsz, pairs, make_event, build_result):
    event = make_event(mbsz, event_class="club", masterpoint_multiplier=Decimal("1.50"))
    a, b = pairs[0]
    sub = pairs[9][0]
    placings = [(1, 1, [a, b])] + [(i + 2, i + 2, list(p)) for i, p in enumerate(pairs[1:9])]
    # Player b played 40% of the boards, his substitute 60%: the substitute gets b's rights.
    placings[0] = (
        1,
        1,
        [
            PlayerShare(a.pk),
            PlayerShare(b.pk, Decimal("0.4")),
            PlayerShare(sub.pk, Decimal("0.6"), substitute_for=b.pk),
        ],
    )
    version = record_result(event, build_result(event, placings, multiplier="1.5"))
    # Club class: first = min(2 + 0.1 * 9, 6) = 2.9; 25% of 9 -> 2 scoring places; x1.5.
    assert version.version == 1 and version.reason == "final"
    got = amounts(event)
    assert got[a.pk] == got[sub.pk] == Decimal("4.35")
    assert b.pk not in got
    assert got[pairs[1][0].pk] == got[pairs[1][1].pk] == Decimal("2.18")  # 2.9 / 2 * 1.5 = 2.175 -> 2.18
    assert len(got) == 4


def test_the_same_result_twice_writes_nothing(mbsz, pairs, make_event, build_result):
    event = make_event(mbsz)
    res = build_result(event, [(i + 1, i + 1, list(p)) for i, p in enumerate(pairs)])
    assert record_result(event, res) is not None
    assert record_result(event, res) is None
    assert AwardVersion.objects.filter(event=event).count() == 1


def test_a_correction_re_awards_as_a_new_version_and_never_touches_paid_prizes(
    mbsz, pairs, make_event, build_result, fake_sources, django_capture_on_commit_callbacks
):
    event = make_event(mbsz, event_class="championship", masterpoint_multiplier=Decimal("2"))
    order = [(i + 1, i + 1, list(p)) for i, p in enumerate(pairs)]
    fake_sources[event.pk] = build_result(event, order, multiplier="2", version="upload-1")
    with django_capture_on_commit_callbacks(execute=True):
        results_changed(event.pk)
    first = amounts(event)
    winner = pairs[0][0]
    key = AwardVersion.objects.get(event=event).snapshot["placings"][0]["entry_key"]
    payment = record_prize_payment(event, 50000, entry_key=key, person=winner)
    assert payment.place == "1"

    # An appeal decision swaps the first two pairs.
    swapped = [(1, 1, list(pairs[1])), (2, 2, list(pairs[0]))] + order[2:]
    fake_sources[event.pk] = build_result(event, swapped, multiplier="2", version="appeal-7")
    with django_capture_on_commit_callbacks(execute=True):
        results_changed(event.pk, "appeal")

    versions = list(AwardVersion.objects.filter(event=event).order_by("version"))
    assert [(v.version, v.reason, v.is_current) for v in versions] == [
        (1, "final", False),
        (2, "appeal", True),
    ]
    assert versions[0].superseded_at is not None
    # Old rows are kept (superseded), the current ones are the new version's.
    assert Award.objects.filter(version=versions[0], is_current=False).count() == len(first)
    now = amounts(event)
    assert now[pairs[1][0].pk] == first[winner.pk] and now[winner.pk] == first[pairs[1][0].pk]
    # The paid prize stays; the change after payment is recorded.
    payment.refresh_from_db()
    assert (payment.amount, payment.place) == (50000, "1")
    assert PrizePayment.objects.count() == 1
    change = PaymentResultChange.objects.get()
    assert (change.payment, change.old_place, change.new_place, change.award_version) == (
        payment,
        "1",
        "2",
        versions[1],
    )
    # The lists were recomputed from the new ledger version.
    stamp = ListStamp.objects.get(federation=mbsz, kind=ListKind.ALLTIME, year=0)
    assert not stamp.is_stale
    assert list_stamp(mbsz, ListKind.ANNUAL, 2026).rows == len(now)
    # Running it again (a retried task) changes nothing.
    with django_capture_on_commit_callbacks(execute=True):
        results_changed(event.pk, "appeal")
    assert AwardVersion.objects.filter(event=event).count() == 2
    assert Notification.objects.count() == 0


def test_no_source_or_not_final_does_nothing(mbsz, make_event, fake_sources):
    event = make_event(mbsz)
    assert process_event(event.pk) == {"awarded": False, "rated": False}
    sources.unregister_source("bridge")
    assert sources.result_for(event) is None


def test_a_scheme_change_re_awards_with_history(
    mbsz, pairs, make_event, build_result, staff_mbsz, django_capture_on_commit_callbacks
):
    old_event = make_event(mbsz, date=datetime.date(2025, 6, 1))
    new_event = make_event(mbsz, date=datetime.date(2026, 6, 1))
    for event in (old_event, new_event):
        record_result(event, build_result(event, [(i + 1, i + 1, list(p)) for i, p in enumerate(pairs)]))
    before_old, before_new = amounts(old_event), amounts(new_event)
    rules = current_scheme(mbsz).rules
    rules = {
        **rules,
        "classes": {
            **rules["classes"],
            "club": {**rules["classes"]["club"], "first": "4", "max_first": "10"},
        },
    }
    with django_capture_on_commit_callbacks(execute=True):
        scheme = change_scheme(
            mbsz, rules, datetime.date(2026, 1, 1), "Több pont a klubversenyekért", staff_mbsz
        )
    assert scheme.version == 2 and AwardScheme.objects.filter(federation=mbsz).count() == 2
    # The 2026 event is re-awarded (version 2, reason "scheme"); the 2025 one keeps its awards.
    assert amounts(old_event) == before_old
    assert AwardVersion.objects.filter(event=old_event).count() == 1
    v2 = AwardVersion.objects.get(event=new_event, is_current=True)
    assert (v2.version, v2.reason, v2.scheme) == (2, "scheme", scheme)
    assert all(amounts(new_event)[pid] > before_new[pid] for pid in before_new)
    assert Award.objects.filter(event=new_event, is_current=False).count() == len(before_new)
    # Scheme versions are immutable.
    with pytest.raises(TypeError):
        scheme.save()
    # Nothing changes for a second identical run of the re-award task.
    assert reaward_for_scheme(scheme.pk) == 0


@pytest.fixture
def staff_mbsz(make_user, mbsz):
    return make_user("staff@mbsz.hu", kind="federation_staff", federation=mbsz)


def test_narrow_sources_win_over_the_catch_all(mbsz, make_event, fake_sources):
    event = make_event(mbsz)
    narrow_calls = []
    sources.register_source("bridge", lambda e: narrow_calls.append(e.pk), formats=[event.format])
    sources.result_for(event)
    assert narrow_calls == [event.pk]
    sources.unregister_source("bridge", formats=[event.format])
    sources.result_for(event)
    assert narrow_calls == [event.pk]


def test_a_changed_result_reaches_the_rankings_even_when_the_broker_is_down(
    mbsz, pairs, make_event, build_result, fake_sources, broker_down, django_capture_on_commit_callbacks
):
    # The recompute that reports the change is already stamped done, so no sweeper would bring a lost
    # publish back: the caller does the (idempotent) work itself instead.
    event = make_event(mbsz, event_class="club")
    fake_sources[event.pk] = build_result(event, [(i + 1, i + 1, list(p)) for i, p in enumerate(pairs)])
    with django_capture_on_commit_callbacks(execute=True):
        results_changed(event.pk)
    assert AwardVersion.objects.filter(event=event, is_current=True).count() == 1
    assert amounts(event)
