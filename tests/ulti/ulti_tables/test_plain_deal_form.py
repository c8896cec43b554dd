"""The ulti deal picker without JavaScript (issue #18): the phone page carries a plain form that posts one
deal (declarer, bid, one outcome for every part of the bid); the server checks it like the picker's."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from ulti.models import TableEntry
from ulti.services import table_entry

from .conftest import fill

pytestmark = pytest.mark.django_db


def _form(page: str) -> dict:
    """The hidden fields of the plain form, as a browser without JavaScript would send them."""
    form = page[page.index('id="deal-plain-form"') :]
    form = form[: form.index("</form>")]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_the_plain_form_enters_a_deal(codes):
    code = codes[1]
    phone = Client()
    url = reverse("ulti_table", args=[code.code])
    page = phone.get(url).content.decode()
    assert 'id="deal-plain-form"' in page and 'name="declarer"' in page and 'name="bid"' in page
    seats = table_entry.seats_of(code.table)
    data = _form(page) | {"declarer": seats[1].key, "bid": "40-100 ulti", "outcome": "lost"}
    response = phone.post(url, data)
    assert response.status_code == 302 and response["Location"] == url
    entry = TableEntry.objects.get(kind="deal")
    assert entry.number == 1 and entry.record["declarer"] == seats[1].key
    assert set(entry.record["results"].values()) == {"lost"} and len(entry.record["results"]) == 2
    assert entry.forints[seats[1].key] < 0
    # Sent twice (the back button, a double tap): the same key, one deal.
    assert phone.post(url, data).status_code == 302
    assert TableEntry.objects.filter(kind="deal").count() == 1
    # The next page's form builds on it: deal 2.
    following = _form(phone.get(url).content.decode())
    assert following["number"] == "2" and following["based_on"] == str(entry.pk)


def test_a_wrong_plain_deal_is_refused_and_nothing_is_written(codes):
    code = codes[1]
    phone = Client()
    url = reverse("ulti_table", args=[code.code])
    data = _form(phone.get(url).content.decode()) | {"declarer": "", "bid": "passz", "outcome": "won"}
    assert phone.post(url, data).status_code == 302
    assert not TableEntry.objects.exists()
    shown = phone.get(url).content.decode()
    assert "alert-danger" in shown and "1. leosztás" in shown


def test_a_complete_sheet_shows_no_plain_deal_form(codes):
    fill(codes[1])
    page = Client().get(reverse("ulti_table", args=[codes[1].code])).content.decode()
    assert 'id="deal-picker" hidden' in page
