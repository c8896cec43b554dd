"""Ulti table entry (issue #18), the service: deals settled on arrival and zero-sum, idempotency keys,
conflicts instead of overwrites, confirmations by the three seats (a dispute calls the director), the round
version written through the upload seam with source "table entry" and the standings recomputed, and a code
that writes only its own table's current round."""

import pytest

from ulti.engine import table_entry as deal_engine
from ulti.models import RoundUpload, ScoreSheet, Standing, TableEntry, TableScore
from ulti.services import draw, table_entry, uploads

from .conftest import confirm_all, fill, key, keys_of, passz

pytestmark = pytest.mark.django_db


def test_a_deal_is_settled_on_the_server_and_zero_sum(codes):
    code = codes[1]
    a, b, c = keys_of(code)
    record = {
        "declarer": b,
        "bid": "red 40-100",
        "results": {"hundred": "won"},
        "kontra": {"hundred": {a: 1}},
        "silent": {"aces": "defenders"},
    }
    entry = table_entry.send(code, key=key(), kind="deal", number=1, record=record).entry
    # Red 40-100 = 8 units, kontra doubles it to 16 a defender; silent four aces for the defenders: 2 x 2.
    assert entry.forints[b] == (16 - 4) * 2 * 20
    assert sum(entry.forints.values()) == 0
    assert entry.record["dealer"] == a  # deal 1 dealt by the first seat, asked of nobody
    state = table_entry.state_of(code)
    assert state.status == "playing" and state.totals == entry.forints


def test_the_quick_bids_are_all_real_bids():
    from ulti.engine.sheet import BIDS

    assert set(deal_engine.QUICK_BIDS) <= set(BIDS)
    for name in ("passz", "40-100", "ulti", "betli", "durchmars", "red passz", "red ulti"):
        assert name in deal_engine.QUICK_BIDS


def test_a_resend_with_the_same_key_writes_nothing_new(codes):
    code = codes[1]
    same = key()
    first = table_entry.send(code, key=same, kind="deal", number=1, record=passz(code))
    again = table_entry.send(code, key=same, kind="deal", number=1, record=passz(code, 2, won=False))
    assert again.repeated and again.entry.pk == first.entry.pk
    assert TableEntry.objects.filter(code=code).count() == 1


def test_a_phone_that_missed_the_latest_deal_gets_a_conflict(codes):
    code = codes[1]
    one = table_entry.send(code, key=key(), kind="deal", number=1, record=passz(code)).entry
    two = table_entry.send(
        code, key=key(), kind="deal", number=2, based_on=one.pk, record=passz(code, 1)
    ).entry
    # The second phone saw deal 1 only and enters another deal 2: refused, deal 2 is kept as it was.
    with pytest.raises(table_entry.Conflict) as conflict:
        table_entry.send(
            code, key=key(), kind="deal", number=2, based_on=one.pk, record=passz(code, 2, False)
        )
    assert conflict.value.current == two
    assert table_entry.state_of(code).deals[2].record["declarer"] == keys_of(code)[1]
    # The same deal entered by both phones is no conflict: the first one stands.
    same = table_entry.send(code, key=key(), kind="deal", number=2, based_on=one.pk, record=passz(code, 1))
    assert same.repeated and same.entry == two


def test_a_correction_replaces_the_deal_and_the_totals(codes):
    code = codes[1]
    one = table_entry.send(code, key=key(), kind="deal", number=1, record=passz(code)).entry
    fixed = table_entry.send(
        code, key=key(), kind="deal", number=1, based_on=one.pk, record=passz(code, won=False)
    ).entry
    state = table_entry.state_of(code)
    assert list(state.deals) == [1] and state.deals[1] == fixed
    assert state.totals[keys_of(code)[0]] == -2 * 20
    assert TableEntry.objects.filter(code=code).count() == 2  # append-only: the first is still there


def test_offline_deals_build_on_each_other_by_key(codes):
    code = codes[1]
    first_key = key()
    table_entry.send(code, key=first_key, kind="deal", number=1, record=passz(code))
    second = table_entry.send(
        code, key=key(), kind="deal", number=2, based_on="k:" + first_key, record=passz(code)
    )
    assert second.entry.based_on.key == first_key


@pytest.mark.parametrize(
    "record, words",
    [
        ({"declarer": "nobody", "bid": "passz"}, "choose the declarer"),
        ({"bid": "passz"}, "choose the declarer"),
        ("x", "could not be read"),
    ],
)
def test_an_impossible_deal_is_refused_and_nothing_written(codes, record, words):
    code = codes[1]
    with pytest.raises(table_entry.EntryRefused) as refused:
        table_entry.send(code, key=key(), kind="deal", number=1, record=record)
    assert words in refused.value.messages[0]
    assert not TableEntry.objects.filter(code=code).exists()


def test_unknown_bid_kontra_by_the_declarer_and_a_deal_number_too_far_are_refused(codes):
    code = codes[1]
    a, b, _c = keys_of(code)
    with pytest.raises(table_entry.EntryRefused, match="unknown bid"):
        table_entry.send(code, key=key(), kind="deal", number=1, record={"declarer": a, "bid": "piros kutya"})
    with pytest.raises(table_entry.EntryRefused, match="kontra"):
        table_entry.send(
            code,
            key=key(),
            kind="deal",
            number=1,
            record={"declarer": a, "bid": "ulti", "kontra": {"ulti": {a: 1}}},
        )
    with pytest.raises(table_entry.EntryRefused, match="Deal 3 cannot be entered"):
        table_entry.send(code, key=key(), kind="deal", number=3, record=passz(code))
    with pytest.raises(table_entry.EntryRefused, match="idempotency"):
        table_entry.send(code, key="x", kind="deal", number=1, record=passz(code))


def test_confirmation_needs_the_whole_sheet_and_the_latest_deal(codes):
    code = codes[1]
    last = fill(code, deals=11)
    seat = table_entry.state_of(code).seats[0]
    with pytest.raises(table_entry.EntryRefused, match="11 deals; the round has 12"):
        table_entry.send(code, key=key(), kind="confirm", seat=seat.pk, based_on=last.pk)
    twelfth = fill(code, deals=12, start=12)
    with pytest.raises(table_entry.Conflict):
        table_entry.send(code, key=key(), kind="confirm", seat=seat.pk, based_on=last.pk)
    answer = table_entry.send(code, key=key(), kind="confirm", seat=seat.pk, based_on=twelfth.pk)
    assert table_entry.state_of(code).confirmed == {seat.pk}
    assert answer.entry.upload is None


def test_three_confirmations_write_the_version_and_recompute(codes, rnd, django_capture_on_commit_callbacks):
    code, other = codes[1], codes[2]
    with django_capture_on_commit_callbacks(execute=True):
        fill(code)
        fill(other)
        confirm_all(other)
        last = confirm_all(code)
    assert last.upload is not None
    upload = RoundUpload.objects.get(pk=last.upload_id)
    assert upload.source == uploads.Source.TABLE and upload.get_source_display() == "table entry"
    state = table_entry.state_of(code)
    assert state.status == "confirmed"
    lines = {line.participant_id: line.forint for line in upload.lines.filter(table=code.table)}
    assert lines == {int(k): v for k, v in state.totals.items()} and sum(lines.values()) == 0
    # The other table's result, written before, is carried into the new version.
    assert upload.lines.filter(table=other.table).count() == 3
    assert ScoreSheet.objects.get(table=code.table).deals == [state.deals[n].record for n in range(1, 13)]
    # Recomputed from this version: table scores and standings.
    scores = {s.participant_id: s.forint for s in TableScore.objects.filter(table=code.table)}
    assert scores == lines
    assert Standing.objects.filter(stage=rnd.group.stage, after_round=1).count() == 6
    # The table is closed: nothing more from its phones.
    with pytest.raises(table_entry.EntryRefused, match="already confirmed"):
        table_entry.send(code, key=key(), kind="deal", number=12, based_on=state.head.pk, record=passz(code))


def test_a_repeated_confirmation_is_a_no_op(codes):
    code = codes[1]
    head = fill(code)
    seat = table_entry.state_of(code).seats[1]
    first = table_entry.send(code, key=key(), kind="confirm", seat=seat.pk, based_on=head.pk)
    again = table_entry.send(code, key=key(), kind="confirm", seat=seat.pk, based_on=head.pk)
    assert again.repeated and again.entry == first.entry


def test_a_dispute_calls_the_director_and_a_correction_starts_the_confirmations_again(codes):
    code = codes[1]
    head = fill(code)
    seats = table_entry.state_of(code).seats
    table_entry.send(code, key=key(), kind="confirm", seat=seats[0].pk, based_on=head.pk)
    table_entry.send(
        code, key=key(), kind="dispute", seat=seats[1].pk, based_on=head.pk, note="a 7. nem passz"
    )
    progress = {t.table.number: t for t in table_entry.control_room(code.table.round)}
    assert progress[1].state.status == "disputed"
    assert progress[1].state.disputes[0].note == "a 7. nem passz"
    # A correction of deal 7 moves the head: nobody has confirmed the new sheet yet.
    fixed = table_entry.send(
        code, key=key(), kind="deal", number=7, based_on=head.pk, record=passz(code, 2)
    ).entry
    state = table_entry.state_of(code)
    assert state.head == fixed and state.status == "confirming" and not state.confirmed
    assert not RoundUpload.objects.filter(round=code.table.round).exists()


def test_a_dispute_hands_the_sheet_to_the_director_whose_version_closes_the_table(codes, director):
    from ulti.services import sheets

    code = codes[1]
    head = fill(code)
    seat = table_entry.state_of(code).seats[0]
    table_entry.send(code, key=key(), kind="dispute", seat=seat.pk, based_on=head.pk)
    draft = sheets.draft_of(code.table)
    assert [n for n, _record in draft.deals] == list(range(1, 13))
    rows = [(n, record) for n, record in draft.deals]
    rows[6] = (7, passz(code, 2))
    for n, record in rows:
        record.setdefault("dealer", keys_of(code)[(n - 1) % 3])
    sheets.save(code.table, rows, user=director)
    assert table_entry.state_of(code).status == "filed"
    with pytest.raises(table_entry.EntryRefused, match="The director has entered"):
        table_entry.send(code, key=key(), kind="confirm", seat=seat.pk, based_on=head.pk)


def test_a_code_writes_only_its_own_table(codes):
    code, other = codes[1], codes[2]
    foreign = table_entry.send(other, key=key(), kind="deal", number=1, record=passz(other)).entry
    # Another table's entry as the base, another table's player as a declarer or a confirming seat.
    with pytest.raises(table_entry.EntryRefused, match="not one of this table's"):
        table_entry.send(code, key=key(), kind="deal", number=1, based_on=foreign.pk, record=passz(code))
    with pytest.raises(table_entry.EntryRefused, match="choose the declarer"):
        table_entry.send(code, key=key(), kind="deal", number=1, record=passz(other))
    head = fill(code)
    stranger = table_entry.state_of(other).seats[0]
    with pytest.raises(table_entry.EntryRefused, match="Only the table's own players"):
        table_entry.send(code, key=key(), kind="confirm", seat=stranger.pk, based_on=head.pk)
    assert TableEntry.objects.filter(code=other).count() == 1


def test_a_code_writes_only_the_current_round(codes, rnd, director, django_capture_on_commit_callbacks):
    code = codes[1]
    with django_capture_on_commit_callbacks(execute=True):
        for c in codes.values():
            fill(c)
            confirm_all(c)
    later = draw.publish_round(draw.generate_round(rnd.group, director), director)
    assert later.number == 2
    fresh = {c.table.number: c for c in table_entry.create_codes(later, director)}
    with pytest.raises(table_entry.EntryRefused, match="not the current round"):
        table_entry.send(code, key=key(), kind="deal", number=1, record=passz(code))
    assert table_entry.send(fresh[1], key=key(), kind="deal", number=1, record=passz(fresh[1])).entry.pk


def test_codes_only_for_a_published_round_and_made_once(event, director):
    from ulti.services import setup

    setup.ensure_settings(event, unit_forints=20)
    draft = draw.generate_round(setup.start_event(event, director).groups.get(), director)
    with pytest.raises(table_entry.EntryRefused, match="Publish"):
        table_entry.create_codes(draft, director)
    rnd = draw.publish_round(draft, director)
    first = table_entry.create_codes(rnd, director)
    again = table_entry.create_codes(rnd, director)
    assert [c.pk for c in first] == [c.pk for c in again] and len(first) == 2
    assert len({c.code for c in first}) == 2
    assert table_entry.find_code(first[0].code.lower()[:3] + "-" + first[0].code[3:]) == first[0]
    assert table_entry.find_code("OOOOOO") is None


def test_a_refusal_of_the_scoring_engine_reaches_the_phone_in_hungarian(codes):
    from django.utils import translation

    code = codes[1]
    a, _b, _c = keys_of(code)
    record = {"declarer": a, "bid": "betli", "results": {"betli": "won"}, "silent": {"aces": "declarer"}}
    with translation.override("hu"), pytest.raises(table_entry.EntryRefused) as refused:
        table_entry.send(code, key=key(), kind="deal", number=1, record=record)
    assert refused.value.messages[0] == "1. leosztás: csendes teljesítés csak adus játékban van"
    with translation.override("en"), pytest.raises(table_entry.EntryRefused) as refused:
        table_entry.send(code, key=key(), kind="deal", number=1, record=record)
    assert refused.value.messages[0] == "Deal 1: silent achievements exist only in games with trumps"
    assert not TableEntry.objects.filter(code=code).exists()
