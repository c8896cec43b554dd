"""A changed ruling on one ulti table: the director's adjustment or the appeals committee's decision.

`apply_ruling` records the table's corrected forints as the round's next result version (append-only: the
other tables are copied from the latest version, exactly as a score sheet does through
`uploads.upload_table`), so the same recompute follows after the commit: table points, standings, then the
rankings. Every check runs before anything is written; a refusal is an ``UltiError`` naming the table.

`deduct_points` takes table points from a participant (a director's measure, a frivolous appeal): the
latest round he has a result in gets its next version (its results copied, the ruling's author and reason on
it) carrying a ``PointDeduction``, which the standings subtract from that round on.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from federation.models import Person
from results.models import VersionedUpload

from ..models import Participant, PointDeduction, Round, RoundUpload, Table
from . import UltiError, loading, uploads
from .draw import _lock

Source = VersionedUpload.Source
RULING_SOURCES = (Source.APPEAL, Source.ADJUSTMENT)


def _table_of(rnd: Round, table) -> Table:
    """The table of this round, given as a Table or by its number."""
    if isinstance(table, Table):
        if table.round_id != rnd.pk:
            raise UltiError(
                _("Table %(t)s: there is no such table in round %(n)s.")
                % {"t": table.number, "n": rnd.number}
            )
        return table
    found = rnd.tables.filter(number=int(table)).first() if str(table).strip().isdigit() else None
    if found is None:
        raise UltiError(
            _("Table %(t)s: there is no such table in round %(n)s.") % {"t": table, "n": rnd.number}
        )
    return found


def _participant_ids(table: Table, forints: dict) -> dict[int, int]:
    """Keys (Participant, Person or participant id) -> participant ids of the players seated at the table."""
    seated = [s.participant for s in table.seats.select_related("participant__person")]
    by_person = {p.person_id: p.pk for p in seated}
    out: dict[int, int] = {}
    errors = []
    for key, forint in forints.items():
        if isinstance(key, Participant):
            pid = key.pk
        elif isinstance(key, Person):
            pid = by_person.get(key.pk)
            if pid is None:
                errors.append(
                    _("Table %(t)s: %(name)s does not sit at this table.") % {"t": table.number, "name": key}
                )
                continue
        else:
            pid = int(key)
        if isinstance(forint, bool) or not isinstance(forint, int):
            errors.append(
                _("Table %(t)s: a forint result must be a whole number, not %(value)s.")
                % {"t": table.number, "value": forint}
            )
            continue
        out[pid] = forint
    if errors:
        raise UltiError(errors)
    return out


@transaction.atomic
def apply_ruling(
    rnd: Round,
    table,
    *,
    forints: dict | None = None,
    points_adjustment: dict | None = None,
    reason: str,
    user,
    source: str = Source.APPEAL,
) -> RoundUpload:
    """Record a ruling on ``table`` (a Table of ``rnd`` or its number) as the round's next result version.

    - ``forints``: the table's corrected results, {Participant, Person or participant id: forint} for all
      three players, summing to zero;
    - ``points_adjustment``: table points given or taken outside the forints; the ulti results keep no such
      adjustment, so a non-empty one is refused (the director applies it by hand);
    - ``reason``: why (kept as the version's note); ``user``: who decided; ``source``: "appeal" (appeals
      committee) or "adjustment" (the director).
    """
    if source not in RULING_SOURCES:
        raise UltiError(_("A ruling's source is 'appeal' or 'adjustment'."))
    if points_adjustment:
        raise UltiError(
            _("Ulti results keep no table point adjustment: give the table's corrected forint results.")
        )
    _lock(rnd.event_id)
    rnd = Round.objects.select_related("group__stage").get(pk=rnd.pk)
    table, given = _checked(rnd, table, forints)
    return uploads.upload_table(table, given, user=user, source=source, note=reason or "")


def check_ruling(rnd: Round, table, *, forints: dict | None) -> Table:
    """A dry run of `apply_ruling`: every check it makes against the round's latest results, nothing written
    and no lock taken (the appeals panel checks its proposal with it; `apply_ruling` checks again under the
    lock). Returns the table; a refusal is an ``UltiError`` naming the table."""
    return _checked(rnd, table, forints)[0]


def _checked(rnd: Round, table, forints) -> tuple[Table, dict[int, int]]:
    table = _table_of(rnd, table)
    if not forints:
        raise UltiError(_("Table %(t)s: the ruling gives no forint results.") % {"t": table.number})
    if loading.latest_uploads([rnd]).get(rnd.pk) is None:
        raise UltiError(
            _("Round %(n)s has no results yet: there is nothing for a ruling to change.") % {"n": rnd.number}
        )
    # Checked here as well as in upload_table, so that nothing is written for a refused ruling.
    given = _participant_ids(table, forints)
    players = [s.participant for s in table.seats.select_related("participant__person").order_by("position")]
    errors = uploads.check_table(str(table.number), players, given, uploads.unit_of(rnd))
    if errors:
        raise UltiError(errors)
    return table, given


@transaction.atomic
def deduct_points(
    participant: Participant, points: int, *, reason: str, user, source: str = Source.ADJUSTMENT
) -> RoundUpload:
    """Take ``points`` table points from ``participant`` as of the latest round he has a result in."""
    if source not in RULING_SOURCES:
        raise UltiError(_("A ruling's source is 'appeal' or 'adjustment'."))
    if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
        raise UltiError(_("A point deduction is a whole number of table points, more than 0."))
    _lock(participant.stage.event_id)
    rounds = list(Round.objects.filter(group=participant.group_id).order_by("-number"))
    uploads_of = loading.latest_uploads(rounds)
    played = next(
        (
            r
            for r in rounds
            if r.pk in uploads_of and uploads_of[r.pk].lines.filter(participant=participant).exists()
        ),
        None,
    )
    if played is None:
        raise UltiError(
            _("%(player)s has no result yet: there is nothing to deduct points from.")
            % {"player": participant}
        )
    latest = uploads_of[played.pk]
    lines = [(line.table, line.participant_id, line.forint) for line in latest.lines.select_related("table")]
    version = uploads._write(played, lines, user=user, source=source, note=reason or "")
    PointDeduction.objects.create(upload=version, participant=participant, points=points, reason=reason[:500])
    return version
