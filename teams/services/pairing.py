"""The pairing manager: load standings and history, call the `teams.engine.pairing` generator, write the round.

Generators never see the database (Tabbycat's pattern); everything they return - pairings, flags and
the sentence explaining each - is stored with the round, so the director sees why a pairing was made.
A round is generated as a preview (draft), may be regenerated or edited by hand, and is then published.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from federation.engine.notes import Note, Ref
from results.services import lock_state, mark_uploaded, state_of
from results.tasks import request_recompute
from teams.engine.pairing.danish import pair_danish
from teams.engine.pairing.first_round import draw_first_round, seeded_first_round
from teams.engine.pairing.hybrid import pair_danish_swiss
from teams.engine.pairing.knockout import advance, consolation_draw, plan_match, seed_knockout
from teams.engine.pairing.pairings import REMATCH, RoundPairing
from teams.engine.pairing.round_robin import round_robin
from teams.engine.pairing.standing import TeamStanding
from teams.engine.pairing.swiss import pair_swiss

from ..models import SCOPE, LineUp, Match, MatchUpload, Round, Standing, TeamEvent, minimum_refusal
from . import Refused, explanations
from . import knockout as ko
from .setup import ensure_teams, setup_of

HAND_EDIT = "hand_edit"
# A hand edit's note on the match (stored as a structured note, see `explanations`), and its warning.
EDITED_BY_HAND = gettext_noop("edited by hand")
EDITED_REMATCH = gettext_noop("%(a)s and %(b)s already met in round %(round)s: this is a rematch.")
EDITED_BYE = gettext_noop("bye")
F = TeamEvent.Format


def _recompute_after_commit(event_id):
    mark_uploaded(event_id, SCOPE)
    request_recompute(SCOPE, event_id)


def _check_minimum(boards, setup, main_draw=False):
    try:
        plan_match(boards, setup.plan_options(main_draw=main_draw))
    except ValueError as error:
        raise Refused(minimum_refusal(error))


def _check_previous_done(event, rounds):
    state = state_of(event.pk, SCOPE)
    if state is not None and state.processing:
        raise Refused(_("The latest results are still being processed; try again in a moment."))
    unplayed = Match.objects.filter(round__in=rounds, away__isnull=False, result__isnull=True)
    if unplayed.exists():
        names = ", ".join(str(m) for m in unplayed.select_related("home", "away")[:5])
        raise Refused(
            _("Every match of the earlier rounds needs a result first (missing: %(names)s).")
            % {"names": names}
        )


@transaction.atomic
def generate_round(event, user, *, seed=None) -> Round:
    """Generate the next round as a preview (replacing an earlier preview)."""
    lock_state(event.pk, SCOPE)  # one generation at a time, and never beside a recompute
    setup = setup_of(event)
    teams = ensure_teams(event)
    Round.objects.filter(event=event, status=Round.Status.DRAFT).delete()
    published = list(event.team_rounds.order_by("number"))
    _check_previous_done(event, published)
    stage_rounds = [r for r in published if r.kind == Round.Kind.STAGE]
    number = len(published) + 1
    if setup.has_stage and len(stage_rounds) < setup.rounds:
        _check_minimum(setup.boards_per_match, setup)
        pairing = _stage_pairing(event, setup, teams, len(stage_rounds) + 1, seed)
        return _write_stage_round(event, user, number, setup.boards_per_match, pairing)
    if setup.has_knockout:
        return _knockout_round(event, user, setup, teams, published, number)
    raise Refused(_("Every round of the event has been played."))


def _stage_pairing(event, setup, teams, stage_round, seed) -> RoundPairing:
    by_start = [t.pk for t in teams]
    fmt = setup.pairing_format
    if fmt == F.ROUND_ROBIN:
        schedule = round_robin(by_start)
        if setup.rounds > len(schedule):
            raise Refused(
                _("A round robin of %(teams)s teams has %(rounds)s rounds; the setup asks for %(asked)s.")
                % {"teams": len(teams), "rounds": len(schedule), "asked": setup.rounds}
            )
        return schedule[stage_round - 1]
    if stage_round == 1:
        if setup.first_round == TeamEvent.FirstRound.SEEDING:
            return seeded_first_round([t.pk for t in sorted(teams, key=lambda t: t.strength)])
        return draw_first_round(by_start, {"seed": seed})
    standings = _standings_for_pairing(event, teams, stage_round - 1)
    options = {"tiebreak": setup.tiebreak}
    if fmt == F.DANISH:
        return pair_danish(standings, options)
    if fmt == F.SWISS:
        return pair_swiss(standings, options)
    options.update(swiss_rounds=setup.swiss_rounds, total_rounds=setup.rounds)
    return pair_danish_swiss(standings, stage_round, options)


def stage_history(event) -> dict[int, list]:
    """team id -> opponent of each stage round so far (None: a bye), in round order."""
    history: dict[int, list] = {t.pk: [] for t in event.teams.all()}
    matches = Match.objects.filter(round__event=event, round__kind=Round.Kind.STAGE).order_by("round__number")
    for match in matches.values("home_id", "away_id"):
        history[match["home_id"]].append(match["away_id"])
        if match["away_id"] is not None:
            history[match["away_id"]].append(match["home_id"])
    return history


def _standings_for_pairing(event, teams, after_round) -> list[TeamStanding]:
    rows = {s.team_id: s for s in Standing.objects.filter(event=event, after_round=after_round)}
    previous = {s.team_id: s.place for s in Standing.objects.filter(event=event, after_round=after_round - 1)}
    if len(rows) != len(teams):
        raise Refused(_("The standings after round %(round)s are not ready yet.") % {"round": after_round})
    history = stage_history(event)
    return [
        TeamStanding(
            t.pk,
            t.start_number,
            rows[t.pk].vp,
            rows[t.pk].imps,
            previous.get(t.pk, rows[t.pk].place),
            tuple(history[t.pk]),
        )
        for t in teams
    ]


def _write_stage_round(event, user, number, boards, pairing: RoundPairing) -> Round:
    names = dict(event.teams.values_list("pk", "name"))
    round_ = Round.objects.create(
        event=event,
        number=number,
        kind=Round.Kind.STAGE,
        boards=boards,
        method=pairing.method,
        explanation=explanations.stored(pairing.explanation, names),
        flags=list(pairing.flags),
        draw_seed=pairing.draw_seed or "",
        generated_by=user,
    )
    Match.objects.bulk_create(
        Match(
            round=round_,
            table=p.table,
            home_id=p.home,
            away_id=p.away,
            flags=list(p.flags),
            explanation=explanations.stored(p.explanation, names, limit=500),
        )
        for p in pairing.pairings
    )
    return round_


def _knockout_round(event, user, setup, teams, published, number) -> Round:
    _check_minimum(setup.knockout_boards, setup, main_draw=True)
    previous = next((r for r in reversed(published) if r.kind == Round.Kind.KNOCKOUT), None)
    if previous is None:
        brackets = {"main": seed_knockout(_knockout_field(event, setup, teams))}
        # Stored untranslated and translated on display, so each reader sees his own language.
        method, explanation = (
            "knockout",
            gettext_noop("Main draw seeded by strength: 1 v last, 2 v second-last, ..."),
        )
    else:
        brackets = {}
        for name, data in previous.brackets.items():
            last = ko.from_json(name, data)
            won = ko.winners(previous, name)
            following = advance(last, won)
            if following is not None:
                brackets[name] = following
            if name == "main" and last.round_no == 1 and setup.consolation:
                drawn = consolation_draw(last, won)
                if drawn is not None:
                    brackets["consolation"] = drawn
        if not brackets:
            raise Refused(_("The knockout is over: every bracket has its winner."))
        method, explanation = "knockout", gettext_noop("Winners advance along the bracket.")
    round_ = Round.objects.create(
        event=event,
        number=number,
        kind=Round.Kind.KNOCKOUT,
        boards=setup.knockout_boards,
        method=method,
        explanation=explanation,
        brackets={name: ko.to_json(b) for name, b in brackets.items()},
        generated_by=user,
    )
    table = 0
    for name in ("main", "consolation"):
        bracket = brackets.get(name)
        for line in bracket.matches if bracket else ():
            if line.top is None and line.bottom is None:
                continue
            real = line.top is not None and line.bottom is not None
            table += 1 if real else 0
            Match.objects.create(
                round=round_,
                table=table if real else None,
                home_id=line.top if line.top is not None else line.bottom,
                away_id=line.bottom if real else None,
                flags=["seeded"] if real else ["bye"],
                explanation=_seed_note(line),
                bracket=name,
                bracket_round=bracket.round_no,
                line=line.number,
            )
    return round_


def _seed_note(line) -> str:
    seeds = [str(s) for s in (line.top_seed, line.bottom_seed) if s is not None]
    return (
        explanations.stored(Note(gettext_noop("seeds %(seeds)s"), seeds=" v ".join(seeds))) if seeds else ""
    )


def _knockout_field(event, setup, teams):
    if not setup.has_stage:
        return [t.pk for t in sorted(teams, key=lambda t: t.strength)]
    last = event.team_rounds.filter(kind=Round.Kind.STAGE).order_by("-number").first()
    order = list(
        Standing.objects.filter(event=event, after_round=last.number)
        .order_by("place")
        .values_list("team_id", flat=True)
    )
    if setup.knockout_teams > len(order):
        raise Refused(
            _("The knockout asks for %(ko)s teams but the event has %(teams)s.")
            % {"ko": setup.knockout_teams, "teams": len(order)}
        )
    return order[: setup.knockout_teams]


@transaction.atomic
def publish_round(round_, user) -> Round:
    lock_state(round_.event_id, SCOPE)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.is_published:
        return round_
    round_.status = Round.Status.PUBLISHED
    round_.published_by = user
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_by", "published_at"])
    _recompute_after_commit(round_.event_id)  # byes score as soon as the round is out
    return round_


def is_editable(round_) -> bool:
    """A stage round may be edited by hand until a result or a line-up refers to its matches."""
    return (
        round_.kind == Round.Kind.STAGE
        and not MatchUpload.objects.filter(match__round=round_).exists()
        and not LineUp.objects.filter(match__round=round_).exists()
    )


@transaction.atomic
def swap_teams(round_, team_a: int, team_b: int, user) -> list[str]:
    """Exchange two teams' places in a round (within one match: home and away). Returns warnings.

    The edit stands even when it makes a rematch - the director may have reasons - but the match is
    flagged and the warning says which earlier round the teams met in.
    """
    lock_state(round_.event_id, SCOPE)
    if round_.kind == Round.Kind.KNOCKOUT:
        raise Refused(_("A knockout round follows its bracket; change the seeding instead."))
    if not is_editable(round_):
        raise Refused(_("This round already has results; it can no longer be edited."))
    matches = list(round_.matches.select_for_update())
    slots = []
    for match in matches:
        for side in ("home_id", "away_id"):
            if getattr(match, side) in (team_a, team_b):
                slots.append((match, side))
    if team_a == team_b or len(slots) != 2:
        raise Refused(_("Choose two different teams of this round."))
    (m1, s1), (m2, s2) = slots
    v1, v2 = getattr(m1, s1), getattr(m2, s2)
    setattr(m1, s1, v2)
    setattr(m2, s2, v1)
    warnings = []
    met = _earlier_meetings(round_)
    names = {t.pk: t.name for t in round_.event.teams.all()}
    for match in {m1.pk: m1, m2.pk: m2}.values():
        flags = [f for f in match.flags if f not in (REMATCH,)]
        if HAND_EDIT not in flags:
            flags.append(HAND_EDIT)
        parts = [Note(EDITED_BY_HAND)]
        if match.away_id is not None:
            earlier = met.get(frozenset((match.home_id, match.away_id)))
            if earlier:
                flags.append(REMATCH)
                parts.append(Note(EDITED_REMATCH, a=Ref(match.home_id), b=Ref(match.away_id), round=earlier))
                warnings.append(
                    _(EDITED_REMATCH)
                    % {"a": names[match.home_id], "b": names[match.away_id], "round": earlier}
                )
        else:
            parts.append(Note(EDITED_BYE))
        match.flags, match.edited = flags, True
        match.explanation = explanations.stored(Note.join(parts), names, limit=500)
        match.save(update_fields=["home_id", "away_id", "flags", "explanation", "edited"])
    if round_.is_published:
        _recompute_after_commit(round_.event_id)
    return warnings


def _earlier_meetings(round_) -> dict[frozenset, int]:
    met = {}
    earlier = Match.objects.filter(
        round__event_id=round_.event_id, round__number__lt=round_.number, away__isnull=False
    )
    for home, away, number in earlier.values_list("home_id", "away_id", "round__number").order_by(
        "round__number"
    ):
        met.setdefault(frozenset((home, away)), number)
    return met
