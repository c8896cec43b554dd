"""The e-mail outbox: every attempt is counted in its own committed transaction before the mail is handed to
the mail server, retries stop at NOTIFICATION_MAX_ATTEMPTS, a mail that never goes out is marked failed with
the last error, and federation staff see failed and pending mail on /outbox/ (issue #14).

The mail servers are real backends: Django's SMTP backend pointed at a port where nothing listens, and a
backend that refuses one address as an SMTP server does (SMTPRecipientsRefused) and delivers the rest.
"""

import smtplib

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.urls import reverse

from federation.models import Notification, Role
from federation.services.notifications import notify
from federation.tasks import send_notification, send_pending_notifications
from tests.conftest import closed_port

BAD = "nincs-ilyen@example.hu"


class RefusingBackend(LocmemBackend):
    """Delivers like the test outbox, except to BAD, which the 'server' refuses."""

    def send_messages(self, messages):
        for message in messages:
            if BAD in message.recipients():
                raise smtplib.SMTPRecipientsRefused({BAD: (550, b"5.1.1 No such user")})
        return super().send_messages(messages)


@pytest.fixture
def smtp_down(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = closed_port()
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 2


@pytest.fixture
def outbox_settings(settings):
    settings.NOTIFICATION_MAX_ATTEMPTS = 3
    settings.NOTIFICATION_RETRY_SECONDS = 0  # the sweep may retry at once (production: minutes apart)
    return settings


def test_a_refused_mail_counts_its_attempts_stops_at_the_cap_and_is_marked_failed(
    smtp_down, outbox_settings, mbsz, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        (n,) = notify(["valaki@example.hu"], "Tárgy", "Szöveg", federation=mbsz)
    n.refresh_from_db()
    assert n.attempts == 1 and n.sent_at is None and n.failed_at is None  # the attempt survived the failure
    assert "ConnectionRefusedError" in n.last_error

    assert send_pending_notifications() == 1
    n.refresh_from_db()
    assert n.attempts == 2 and n.failed_at is None
    assert send_pending_notifications() == 1
    n.refresh_from_db()
    assert n.attempts == 3 and n.failed_at is not None and n.last_error  # the cap: given up, with the error

    assert send_pending_notifications() == 0  # never tried again
    assert send_notification.apply(args=[n.pk]).get() is False
    n.refresh_from_db()
    assert n.attempts == 3


def test_a_bad_address_fails_alone_and_the_good_one_is_delivered(
    settings, outbox_settings, mbsz, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"
    with django_capture_on_commit_callbacks(execute=True):
        bad, good = notify([BAD, "jo@example.hu"], "Tárgy", "Szöveg", federation=mbsz)
    for _ in range(5):
        send_pending_notifications()
    bad.refresh_from_db()
    good.refresh_from_db()
    assert good.sent_at is not None and good.attempts == 1
    assert [m.to for m in mail.outbox] == [["jo@example.hu"]]
    assert bad.sent_at is None and bad.failed_at is not None and bad.attempts == 3
    assert "SMTPRecipientsRefused" in bad.last_error and "5.1.1" in bad.last_error


def test_a_second_run_while_a_send_is_under_way_does_not_send_twice(settings, mbsz):
    settings.NOTIFICATION_RETRY_SECONDS = 240
    n = Notification.objects.create(recipient="a@example.hu", subject="S", body="B")
    assert send_notification.apply(args=[n.pk]).get() is True
    Notification.objects.filter(pk=n.pk).update(sent_at=None)  # as if the first run were still sending
    assert send_notification.apply(args=[n.pk]).get() is False
    assert len(mail.outbox) == 1


def test_the_sweep_with_the_broker_down_raises_nothing_and_loses_nothing(db, broker_down, outbox_settings):
    n = Notification.objects.create(recipient="a@example.hu", subject="S", body="B")
    assert send_pending_notifications() == 0
    n.refresh_from_db()
    assert n.attempts == 0 and n.sent_at is None and n.failed_at is None


def _failed_mail(federation, recipient):
    return Notification.objects.create(
        recipient=recipient,
        subject=f"Levél {recipient}",
        body="B",
        federation=federation,
        attempts=3,
        last_error="SMTPRecipientsRefused: 550 No such user",
        failed_at="2026-11-30T10:00:00Z",
    )


def test_federation_staff_see_their_federations_failed_and_pending_mail(
    client, make_user, mbsz, mausz, outbox_settings
):
    _failed_mail(mbsz, "bridzs@example.hu")
    _failed_mail(mausz, "ulti@example.hu")
    Notification.objects.create(recipient="varakozik@example.hu", subject="Függő", body="B", federation=mbsz)
    Notification.objects.create(
        recipient="elkuldve@example.hu",
        subject="Kész",
        body="B",
        federation=mbsz,
        sent_at="2026-11-30T10:00:00Z",
    )
    client.force_login(make_user("staff@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz))

    home = client.get(reverse("home")).content.decode()
    assert reverse("outbox") in home  # in the Administration menu

    page = client.get(reverse("outbox")).content.decode()
    assert "bridzs@example.hu" in page and "550 No such user" in page and "varakozik@example.hu" in page
    assert "ulti@example.hu" not in page  # another federation's mail
    assert "elkuldve@example.hu" not in page  # sent mail is not the outbox's business

    failed = client.get(reverse("outbox"), {"state": "failed"}).content.decode()
    assert "bridzs@example.hu" in failed and "varakozik@example.hu" not in failed
    pending = client.get(reverse("outbox"), {"state": "pending"}).content.decode()
    assert "varakozik@example.hu" in pending and "bridzs@example.hu" not in pending


def test_a_superuser_sees_all_mail_and_a_player_none(client, admin_user, make_user, mbsz, mausz):
    _failed_mail(mbsz, "bridzs@example.hu")
    _failed_mail(mausz, "ulti@example.hu")
    _failed_mail(None, "nincsgazda@example.hu")
    client.force_login(admin_user)
    page = client.get(reverse("outbox")).content.decode()
    assert all(a in page for a in ("bridzs@example.hu", "ulti@example.hu", "nincsgazda@example.hu"))

    client.force_login(make_user("jatekos@example.hu"))
    assert client.get(reverse("outbox")).status_code == 403
    assert reverse("outbox") not in client.get(reverse("home")).content.decode()
    client.logout()
    assert client.get(reverse("outbox")).status_code == 302
