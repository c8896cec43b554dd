"""Setting an event up: its rule set and unit, the first stage from the entries, later stages from standings."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from federation.models import Federation
from rankings.services import live_ratings as rankings_live_ratings
from results.services import state_of
from tournaments.models import Entry, EntryMember, Event
from ulti.engine.rulesets import RuleSetError, get_ruleset
from ulti.engine.standings import CutLine, cut_line

from ..models import Group, Participant, Stage, Standing, UltiEvent
from . import UltiError, fields, loading

# Seeding of a player the rankings have no rating for.
NEUTRAL_RATING = 0
LETTERS = "ABCDEFGHIJ"


def live_ratings(person_ids, federation) -> dict[int, int]:
    """The players' current ratings, used to seed round 1 (MAUSZ III. 8. (3))."""
    return rankings_live_ratings(person_ids, federation)


def ensure_settings(event: Event, *, unit_forints: int | None = None) -> UltiEvent:
    """The event's ulti settings, created with a frozen copy of its announced rule set."""
    if event.federation.game != Federation.ULTI or event.format not in Event.ULTI_FORMATS:
        raise UltiError(_("This is not an ulti event."))
    settings = loading.settings_of(event)
    if settings is None:
        try:
            ruleset = get_ruleset(event.rule_set or "mausz")
        except RuleSetError:
            raise UltiError(
                _("The announced rule set %(key)s is unknown; choose mausz or szolnok in the announcement.")
                % {"key": event.rule_set}
            )
        settings = UltiEvent.objects.create(event=event, rules=ruleset.to_dict())
    if unit_forints is not None and unit_forints != settings.unit_forints:
        if unit_forints < 1:
            raise UltiError(_("One unit must be worth at least 1 Ft."))
        settings.unit_forints = unit_forints
        settings.save(update_fields=["unit_forints"])
    return settings


def _field(event: Event) -> list[tuple]:
    """(person, entry, line) of every player of the active entries that showed up."""
    members = (
        EntryMember.objects.filter(
            entry__event=event, entry__status=Entry.Status.ACTIVE, entry__no_show=False
        )
        .select_related("person", "entry")
        .order_by("entry_id", "position")
    )
    return [(m.person, m.entry, m.line) for m in members]


@transaction.atomic
def start_event(event: Event, user=None) -> Stage:
    """Stage 1 with its groups and start numbers, from the entries; refused once a stage exists."""
    Event.objects.select_for_update().filter(pk=event.pk).first()
    settings = ensure_settings(event)
    if Stage.objects.filter(event=event).exists():
        raise UltiError(_("The event's players are already seated in groups."))
    players = _field(event)
    if not players:
        raise UltiError(
            _("Nobody is entered (or every entry withdrew): a round cannot start without players.")
        )
    if len(players) < 3:
        raise UltiError(_("At least three players are needed; the event has %(n)s.") % {"n": len(players)})
    seen = set()
    for person, _entry, _line in players:
        if person.pk in seen:
            raise UltiError(_("%(name)s is entered twice.") % {"name": person})
        seen.add(person.pk)
    ruleset = settings.ruleset
    plan = fields.plan_for(len(players), event.format, event.event_class, ruleset.rounds)
    if event.format == Event.Format.SPORT_ULTI and (len(players) % 3 or len(players) < 9):
        raise UltiError(
            _("Sport ulti needs a field of at least 9 players, divisible by three; this event has %(n)s.")
            % {"n": len(players)}
        )
    ratings = live_ratings([p.pk for p, _e, _l in players], event.federation)
    kind = Stage.Kind.FINAL if event.event_class == Event.EventClass.NUB_FINAL else Stage.Kind.MAIN
    if plan.finalists:
        kind = Stage.Kind.QUALIFIER
    stage = Stage.objects.create(event=event, number=1, kind=kind, system=plan.system, rounds=plan.rounds)

    def by_rating(item):
        person = item[0]
        return (-ratings.get(person.pk, NEUTRAL_RATING), person.last_name, person.first_name, person.pk)

    if plan.by_line:
        missing = [str(p) for p, _e, line in players if line not in ("A", "B", "C")]
        if missing:
            raise UltiError(
                _("Team players need a line (A, B or C): %(names)s.") % {"names": ", ".join(missing)}
            )
        split = [sorted((x for x in players if x[2] == line), key=by_rating) for line in "ABC"]
        names = ["A", "B", "C"]
    else:
        ordered = sorted(players, key=by_rating)
        split = fields.split_by_rating(ordered, plan.groups) if len(plan.groups) > 1 else [ordered]
        names = [LETTERS[i] for i in range(len(split))] if len(split) > 1 else [""]
    for order, (name, members) in enumerate(zip(names, split, strict=True)):
        group = Group.objects.create(stage=stage, name=name, order=order)
        Participant.objects.bulk_create(
            Participant(
                stage=stage,
                group=group,
                person=person,
                entry=entry,
                line=line or "",
                number=number,
                rating=ratings.get(person.pk, NEUTRAL_RATING),
            )
            for number, (person, entry, line) in enumerate(sorted(members, key=by_rating), start=1)
        )
    return stage


def final_rounds(players: int, system: str, ruleset_rounds: int) -> int:
    return fields.all_play_all_rounds(players) if system == Stage.System.ALL_PLAY_ALL else ruleset_rounds


@transaction.atomic
def start_next_stage(
    stage: Stage, *, size: int, system: str | None = None, user=None, admit: list[int] | None = None
) -> Stage:
    """The next stage (e.g. the final) with the top ``size`` of this stage's combined standings.

    II. 10. (5): players equal on points and forints at the cut line are a tie for the staff to resolve:
    without ``admit`` (the participant ids of the tied players who go on, exactly as many as fit) a tied
    cut raises ``CutTied`` and nothing is created.
    """
    Event.objects.select_for_update().filter(pk=stage.event_id).first()
    if Stage.objects.filter(event_id=stage.event_id, number=stage.number + 1).exists():
        raise UltiError(_("The next stage already exists."))
    state = state_of(stage.event_id, "ulti")
    if not loading.stage_complete(stage) or state is None or state.processing:
        raise UltiError(
            _("Every round of %(stage)s must be scored before the next stage.") % {"stage": stage}
        )
    last = (
        Standing.objects.filter(stage=stage, group=None)
        .order_by("-after_round")
        .values_list("after_round", flat=True)
    )
    if not last:
        raise UltiError(_("%(stage)s has no standings yet.") % {"stage": stage})
    rows = list(
        Standing.objects.filter(stage=stage, group=None, after_round=last[0])
        .select_related("participant__person", "participant__entry")
        .order_by("order")
    )
    if size < 3 or size > len(rows):
        raise UltiError(_("The next stage needs between 3 and %(n)s players.") % {"n": len(rows)})
    system = system or (Stage.System.ALL_PLAY_ALL if fields.is_kirkman_size(size) else Stage.System.SWISS)
    settings = ensure_settings(stage.event)
    rounds = final_rounds(size, system, settings.ruleset.rounds)
    cut = cut_line(((str(r.participant_id), r.place_from, r.place_to) for r in rows), size)
    chosen = rows[:size]
    if cut.is_tied:
        tied = [r for r in rows if str(r.participant_id) in cut.tied]
        if admit is None:
            raise CutTied(cut, tied)
        picked = {str(a) for a in admit}
        if not picked <= set(cut.tied) or len(picked) != cut.seats:
            raise UltiError(_("Choose exactly %(n)s of the tied players to go on.") % {"n": cut.seats})
        chosen = [r for r in rows if str(r.participant_id) in set(cut.through) | picked]
    nxt = Stage.objects.create(
        event_id=stage.event_id,
        number=stage.number + 1,
        kind=Stage.Kind.FINAL,
        system=system,
        rounds=rounds,
        source=stage,
        qualified=size,
    )
    if stage.kind == Stage.Kind.MAIN:
        stage.kind = Stage.Kind.QUALIFIER
        stage.save(update_fields=["kind"])
    group = Group.objects.create(stage=nxt, name="", order=0)
    ratings = live_ratings([r.participant.person_id for r in chosen], stage.event.federation)
    # Start numbers follow the qualifier's order: number 1 is its winner.
    Participant.objects.bulk_create(
        Participant(
            stage=nxt,
            group=group,
            person=row.participant.person,
            entry=row.participant.entry,
            line=row.participant.line,
            number=i,
            rating=ratings.get(row.participant.person_id, NEUTRAL_RATING),
        )
        for i, row in enumerate(chosen, start=1)
    )
    return nxt


class CutTied(UltiError):
    """The cut line splits a shared place (II. 10. (5)): the staff choose who goes on."""

    def __init__(self, cut: CutLine, tied: list[Standing]):
        self.cut, self.tied = cut, tied
        first = tied[0]
        low, high = cut.sizes_without_tie
        super().__init__(
            _(
                "Places %(place)s are shared on %(points)s points and %(forint)s Ft by %(n)s players, and "
                "only %(seats)s of them fit in the top %(size)s: choose who goes on, or take %(low)s or "
                "%(high)s players."
            )
            % {
                "place": first.place,
                "points": first.points,
                "forint": f"{first.forint:+d}",
                "n": len(tied),
                "seats": cut.seats,
                "size": cut.size,
                "low": low,
                "high": high,
            }
        )


def cut_is_tied(stage: Stage, size: int) -> bool:
    """Whether the place at the cut is shared with a player left out (the director should know)."""
    last = Standing.objects.filter(stage=stage, group=None).order_by("-after_round").first()
    if last is None:
        return False
    rows = list(
        Standing.objects.filter(stage=stage, group=None, after_round=last.after_round).order_by("order")
    )
    if size >= len(rows) or size < 1:
        return False
    return rows[size - 1].place_to > size
