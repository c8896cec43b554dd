"""Helpers of the security tests: the links the outbox mails, a member record to link."""

import datetime
import re

import pytest

from federation.models import Notification

BIRTH = datetime.date(1961, 4, 9)


def mailed_path(recipient, pattern):
    """The path of the link matching `pattern` in the newest outbox mail to `recipient`."""
    mail = Notification.objects.filter(recipient=recipient).order_by("-pk").first()
    assert mail is not None, f"no mail to {recipient}"
    found = re.search(r"https?://testserver(" + pattern + r")", mail.body)
    assert found, mail.body
    return found.group(1)


@pytest.fixture
def member(mbsz, bridge_club, make_person):
    """An unlinked member of the bridge club, with an e-mail address on the record."""
    return make_person(mbsz, club=bridge_club, birth_date=BIRTH)
