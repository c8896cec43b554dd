"""Erasure scrubs what still carries the person's name or address after his record is anonymised: the mail
outbox (mails to him lose address and body and are never sent; mails to others that name him are
rewritten), the audit log's texts and his member requests' logged fields; the apps' erasers are called."""

import datetime
import re

import pytest
from auditlog.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from freezegun import freeze_time

from federation import personal_data
from federation.models import MemberRequest, Notification
from federation.services import erasure, mail_preferences
from federation.services.notifications import notify

pytestmark = pytest.mark.django_db


def _erase(member, staff):
    return erasure.carry_out(erasure.request_erasure(member, member.user), staff)


def test_outbox_mails_to_him_are_emptied_and_never_sent(member, staff_mbsz, other_member):
    (pending,) = notify(["tag@example.hu"], "Kovács Péter nevezése", "Kedves Kovács Péter! ...")
    sent = Notification.objects.create(
        recipient="TAG@example.hu",
        subject="Visszaigazolás",
        body="Péter Kovács, tag@example.hu",
        sent_at=pending.created_at,
    )
    unrelated = Notification.objects.create(recipient="mas@example.hu", subject="Hírlevél", body="Szia!")
    req = _erase(member, staff_mbsz)
    pending.refresh_from_db()
    sent.refresh_from_db()
    assert pending.sent_at is None and pending.failed_at is not None and pending.last_error
    for mail in (pending, sent):
        assert mail.recipient == f"erased-{member.pk}@invalid" and mail.body == ""
        assert "Kovács" not in mail.subject and "Péter" not in mail.subject
    assert pending.subject == f"Törölt #{member.pk} játékos nevezése"
    unrelated.refresh_from_db()
    assert (unrelated.recipient, unrelated.body) == ("mas@example.hu", "Szia!")
    assert "outbox" in req.erased


def test_mails_to_others_that_name_him_are_rewritten(member, staff_mbsz):
    with freeze_time("2026-01-05 10:00"):  # signed long before the erasure: another timestamp
        token = mail_preferences.token_for("tag@example.hu")
    (to_partner,) = notify(
        ["partner@example.hu"],
        "Új pár: Kovács Péter",
        f"Kovács Péter (tag@example.hu) lett a párod. Leiratkozás: /mail/{token}/",
    )
    _erase(member, staff_mbsz)
    to_partner.refresh_from_db()
    assert to_partner.recipient == "partner@example.hu" and to_partner.failed_at is None
    assert to_partner.subject == f"Új pár: Törölt #{member.pk} játékos"
    assert "Kovács" not in to_partner.body and "tag@example.hu" not in to_partner.body
    assert token not in to_partner.body
    # The partner's own unsubscribe link stays (read back, not re-signed: the signature holds the second it
    # was made, and the mail may have been signed a second before this line runs).
    (own_token,) = re.findall(r"/mail-preferences/([^/\s]+)/", to_partner.body)
    assert mail_preferences.address_from(own_token) == "partner@example.hu"


def test_audit_log_texts_and_his_member_requests_forget_him(member, staff_mbsz, mbsz):
    request = MemberRequest.objects.create(
        user=member.user,
        federation=mbsz,
        first_name="Péter",
        last_name="Kovács",
        birth_date=datetime.date(1970, 5, 17),
        gender="M",
        note="Kovács Péter vagyok, tag@example.hu",
    )
    logged = LogEntry.objects.get_for_object(request)
    assert any("Péter" in str(row.changes) for row in logged)  # the log did record him
    other = LogEntry.objects.create(
        content_type=ContentType.objects.get_for_model(MemberRequest),
        object_pk="999",
        object_repr="valami más",
        action=LogEntry.Action.UPDATE,
        changes={"note": ["", "Kovács Péter kérte"]},
        changes_text="tag@example.hu írta",
    )
    req = _erase(member, staff_mbsz)
    for row in LogEntry.objects.get_for_object(request):
        text = f"{row.object_repr} {row.changes} {row.changes_text}"
        assert "Péter" not in text and "Kovács" not in text and "1970-05-17" not in text
    other.refresh_from_db()
    assert other.changes == {"note": ["", f"Törölt #{member.pk} játékos kérte"]}
    assert "tag@example.hu" not in other.changes_text
    assert not LogEntry.objects.filter(changes_text__icontains="tag@example.hu").exists()
    assert "audit_log" in req.erased


def test_registered_erasers_are_called_with_who_he_was(member, staff_mbsz, monkeypatch):
    seen = []
    monkeypatch.setattr(
        personal_data, "_ERASERS", {"probe": lambda identity: seen.append(identity) or ["probe"]}
    )
    req = _erase(member, staff_mbsz)
    (identity,) = seen
    assert identity.person_id == member.pk and "Kovács Péter" in identity.names
    assert "tag@example.hu" in identity.addresses
    assert identity.scrub("Péter Kovács, TAG@example.hu") == f"Törölt #{member.pk} játékos, [törölve]"
    assert "probe" in req.erased


def test_nothing_of_another_person_is_touched(member, other_member, staff_mbsz):
    mail = Notification.objects.create(
        recipient="mas@example.hu", subject=str(other_member), body=f"Kedves {other_member}!"
    )
    _erase(member, staff_mbsz)
    mail.refresh_from_db()
    assert mail.subject == str(other_member) and mail.body == f"Kedves {other_member}!"
