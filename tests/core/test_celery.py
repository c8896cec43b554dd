import pytest
from django.core import mail
from django.db import transaction

from federation.models import Notification
from federation.services.notifications import notify
from federation.tasks import send_notification, send_pending_notifications


@pytest.mark.django_db
def test_a_task_is_only_published_after_commit(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        notify(["a@example.hu"], "Tárgy", "Szöveg")
    assert len(callbacks) == 1
    assert mail.outbox == []  # nothing sent before the commit
    callbacks[0]()
    assert len(mail.outbox) == 1
    assert Notification.objects.get().sent_at is not None


@pytest.mark.django_db(transaction=True)
def test_nothing_is_published_when_the_transaction_rolls_back():
    class Boom(Exception):
        pass

    with pytest.raises(Boom), transaction.atomic():
        notify(["a@example.hu"], "Tárgy", "Szöveg")
        raise Boom
    assert mail.outbox == [] and not Notification.objects.exists()


@pytest.mark.django_db
def test_sending_twice_sends_once():
    n = Notification.objects.create(recipient="a@example.hu", subject="S", body="B")
    assert send_notification.apply(args=[n.pk]).get() is True
    assert send_notification.apply(args=[n.pk]).get() is False
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_the_sweeper_sends_what_was_left_behind():
    Notification.objects.create(recipient="a@example.hu", subject="S", body="B")
    Notification.objects.create(recipient="b@example.hu", subject="S", body="B")
    send_pending_notifications.apply().get()
    assert sorted(m.to[0] for m in mail.outbox) == ["a@example.hu", "b@example.hu"]


def test_tasks_acknowledge_late_and_retry():
    assert send_notification.acks_late and send_notification.reject_on_worker_lost
    assert send_notification.max_retries == 5 and send_notification.autoretry_for == (Exception,)
