"""The version history's actions: restoring an old version (`restore`, its decisions re-applied like an
upload's) and what a version changed against another (`diff`, the history pages' diff).
"""

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from ...models import PairSession, ResultVersion
from .. import versions
from ..exports import pair_labels
from .display import _result_text
from .layers import Source, _key, _values, _without
from .reapply import ResolutionError, record, settle


def restore(
    session: PairSession,
    number: int,
    *,
    user,
    note: str = "",
    resolutions: dict | None = None,
    reasons: dict | None = None,
    expected_base: int | None = None,
    dry_run: bool = False,
) -> ResultVersion:
    """A new version with the rows and penalties of version `number` (source "restore"); the decisions in
    force now that it did not reflect go through the same check as an upload's."""
    with transaction.atomic():
        versions.lock_event(session.event_id)
        target = ResultVersion.objects.filter(session=session, number=number).first()
        if target is None:
            raise ResolutionError([_("There is no version %(number)s.") % {"number": number}])
        base = versions.latest_version(session)
        if base == target:
            raise ResolutionError([_("Version %(number)s is the current one.") % {"number": number}])
        rows = versions.rows_of(target)
        settled = settle(
            base,
            rows,
            versions.penalties_of(target),
            fresh=rows,
            restore_of=target,
            resolutions=resolutions,
            reasons=reasons,
            expected_base=expected_base,
            dry_run=dry_run,
        )
        version = versions.write_version(
            session,
            settled.rows,
            settled.penalties,
            source=Source.RESTORE,
            user=user,
            note=(note or _("restore of version %(number)s") % {"number": number}),
            deals=target.deals,
            base=base,
        )
        record(version, settled)
    return version


@dataclass
class Diff:
    added: list[dict]
    removed: list[dict]
    changed: list[tuple[dict, dict]]  # (before, after)
    penalties_added: list[dict]
    penalties_removed: list[dict]

    @property
    def empty(self) -> bool:
        return not (
            self.added or self.removed or self.changed or self.penalties_added or self.penalties_removed
        )


def diff(before: ResultVersion | None, after: ResultVersion) -> Diff:
    """`after` against `before` by board and table (board + NS + EW); penalties added and removed. Rows and
    penalties carry `result` (the text shown) and `ns` / `ew` / `pair` labels."""
    labels = pair_labels(after.session)
    old = {_key(r): r for r in versions.rows_of(before)}
    new = {_key(r): r for r in versions.rows_of(after)}

    def shown(row):
        return {
            **row,
            "ns": labels.get(row["ns_id"], ""),
            "ew": labels.get(row["ew_id"], ""),
            "result": _result_text(row),
        }

    def shown_penalty(p):
        return {**p, "pair": labels.get(p["pair_id"], "")}

    old_penalties, new_penalties = versions.penalties_of(before), versions.penalties_of(after)
    return Diff(
        added=[shown(r) for k, r in sorted(new.items()) if k not in old],
        removed=[shown(r) for k, r in sorted(old.items()) if k not in new],
        changed=[
            (shown(old[k]), shown(r))
            for k, r in sorted(new.items())
            if k in old and (_values(old[k]) != _values(r) or old[k].get("deal_group") != r.get("deal_group"))
        ],
        penalties_added=[shown_penalty(p) for p in _without(new_penalties, old_penalties)],
        penalties_removed=[shown_penalty(p) for p in _without(old_penalties, new_penalties)],
    )
