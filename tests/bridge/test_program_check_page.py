"""The federation staff's program-test page (VSz 26): staff of that federation only; the report shows
every difference with its rule; a file that cannot be read says where and writes nothing."""

import datetime

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bridge.engine.pbn.writer import write_session
from bridge.engine.program_check import RULES
from bridge.models import AcceptedProgram
from bridge.services.program_check import RULE_TEXT
from demo import bridge_sample as sample
from federation.models import Federation, Role
from tests.bridge.test_program_check import PBN_WITH_TYPO, _record

pytestmark = pytest.mark.django_db


def _event(federation):
    start = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
    return sample.event_with_pairs(federation, pairs=4, title="Klubverseny", start=start)


def client_of(user=None):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    if user is not None:
        client.force_login(user)
    return client


def post(client, federation, text):
    return client.post(
        reverse("bridge_program_check", args=[federation.pk]),
        {"program": "OtherScore 4.2", "file": SimpleUploadedFile("other.pbn", text.encode())},
    )


@pytest.fixture
def staff(mbsz, make_user):
    return make_user("staff@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz)


def test_every_rule_has_a_translatable_text():
    assert RULE_TEXT.keys() == RULES.keys()


def test_staff_see_full_agreement_on_a_file_the_portal_scored(mbsz, staff):
    response = post(client_of(staff), mbsz, write_session(_record()))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="verdict-pass"' in html and "Lines: 38 of 38 agree" in html and "Pairs: 10 of 10 agree" in html
    assert "OtherScore 4.2" in html


def test_staff_see_the_one_altered_line_with_its_rule(mbsz, staff):
    record = _record()
    record.boards[6].results[2].mp_ns += 2
    html = post(client_of(staff), mbsz, write_session(record)).content.decode()
    assert 'id="verdict-fail"' in html and "Lines: 37 of 38 agree" in html
    table = html.split('id="check-differences"')[1].split("</table>")[0]
    assert table.count("<tr>") == 2  # the header and the one line
    assert "no known rule explains it" in table


def test_a_file_that_cannot_be_read_names_the_line(mbsz, staff):
    broken = PBN_WITH_TYPO.replace("2 4 4S N 9 -50 0 2", "2 4 4S N 9 -50 0")
    response = post(client_of(staff), mbsz, broken)
    assert response.status_code == 400 and "line 10" in response.content.decode()


def test_the_warnings_of_a_lenient_read_are_shown(mbsz, staff):
    html = post(client_of(staff), mbsz, PBN_WITH_TYPO).content.decode()
    assert "not a contract: &#x27;42&#x27;" in html and 'id="verdict-pass"' in html


@pytest.mark.parametrize("who", ["other_staff", "director", "member"])
def test_others_may_not_run_it(mbsz, make_user, who):
    other = Federation.objects.create(code="x", name="Másik", short_name="X", game=Federation.BRIDGE)
    user = {
        "other_staff": lambda: make_user("o@example.hu", kind=Role.FEDERATION_STAFF, federation=other),
        "director": lambda: make_user("td@example.hu", kind=Role.DIRECTOR, event=_event(mbsz)),
        "member": lambda: make_user("m@example.hu"),
    }[who]()
    client = client_of(user)
    assert client.get(reverse("bridge_program_check", args=[mbsz.pk])).status_code == 403
    assert post(client, mbsz, write_session(_record())).status_code == 403


def test_an_anonymous_visitor_is_sent_to_log_in(mbsz):
    response = client_of().get(reverse("bridge_program_check", args=[mbsz.pk]))
    assert response.status_code == 302 and "login" in response.url


def test_staff_get_the_form(mbsz, staff):
    response = client_of(staff).get(reverse("bridge_program_check", args=[mbsz.pk]))
    assert response.status_code == 200 and 'name="file"' in response.content.decode()


def accept(client, federation, text, program="OtherScore 4.2"):
    return client.post(
        reverse("bridge_program_check", args=[federation.pk]),
        {"program": program, "accept": "on", "file": SimpleUploadedFile("other.pbn", text.encode())},
    )


def test_staff_record_a_passing_program_as_accepted_with_its_report(mbsz, staff):
    response = accept(client_of(staff), mbsz, write_session(_record()))
    assert response.status_code == 200
    [row] = AcceptedProgram.objects.all()
    assert (row.federation, row.program, row.accepted_by, row.file_name) == (
        mbsz,
        "OtherScore 4.2",
        staff,
        "other.pbn",
    )
    assert row.report["verdict"] == "pass" and row.report["lines"] == 38
    assert "OtherScore 4.2 · " in response.content.decode()  # the list of accepted programs


def test_a_failing_program_or_one_without_a_name_is_not_recorded(mbsz, staff):
    record = _record()
    record.boards[0].results[0].mp_ns += 1
    client = client_of(staff)
    failing = accept(client, mbsz, write_session(record))
    assert failing.status_code == 400 and "cannot be recorded as accepted" in failing.content.decode()
    nameless = accept(client, mbsz, write_session(_record()), program=" ")
    assert nameless.status_code == 400 and "name the program" in nameless.content.decode()
    assert not AcceptedProgram.objects.exists()


def test_staff_of_another_federation_cannot_record_an_acceptance(mbsz, make_user):
    other = Federation.objects.create(code="x", name="Másik", short_name="X", game=Federation.BRIDGE)
    outsider = make_user("o@example.hu", kind=Role.FEDERATION_STAFF, federation=other)
    assert accept(client_of(outsider), mbsz, write_session(_record())).status_code == 403
    assert not AcceptedProgram.objects.exists()


def test_staff_download_the_report_as_a_pdf(mbsz, staff):
    from tests.pdf_reading import pdf_of

    record = _record()
    record.boards[6].results[2].mp_ns += 2
    response = client_of(staff).post(
        reverse("bridge_program_check", args=[mbsz.pk]),
        {
            "program": "OtherScore 4.2",
            "pdf": "1",
            "file": SimpleUploadedFile("other.pbn", write_session(record).encode()),
        },
    )
    assert response["Content-Disposition"] == 'attachment; filename="programteszt-otherscore-42.pdf"'
    report = pdf_of(response)
    assert "Program test (VSz 26)" in report.text and "OtherScore 4.2" in report.text
    assert "Lines: 37 of 38 agree" in report.text and "no known rule explains it" in report.text
    assert not AcceptedProgram.objects.exists()  # a download records nothing


def test_the_accepted_programs_report_is_kept_and_only_its_federations_staff_may_read_it(
    mbsz, staff, make_user
):
    from tests.pdf_reading import pdf_of

    accept(client_of(staff), mbsz, write_session(_record()))
    [row] = AcceptedProgram.objects.all()
    url = reverse("bridge_accepted_program_report", args=[mbsz.pk, row.pk])
    page = client_of(staff).get(reverse("bridge_program_check", args=[mbsz.pk])).content.decode()
    assert url in page
    report = pdf_of(client_of(staff).get(url))
    assert "OtherScore 4.2" in report.text and "Lines: 38 of 38 agree" in report.text
    other = Federation.objects.create(code="x", name="Másik", short_name="X", game=Federation.BRIDGE)
    outsider = make_user("o@example.hu", kind=Role.FEDERATION_STAFF, federation=other)
    assert client_of(outsider).get(url).status_code == 403
    assert client_of(make_user("m@example.hu")).get(url).status_code == 403
    # Another federation's id in the URL does not reach this federation's report.
    own = make_user("x@example.hu", kind=Role.FEDERATION_STAFF, federation=other)
    assert (
        client_of(own).get(reverse("bridge_accepted_program_report", args=[other.pk, row.pk])).status_code
        == 404
    )
