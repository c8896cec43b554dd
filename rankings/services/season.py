"""The NUB season: qualifier, semifinal and team final tables, sport ulti invitations, confirmations."""

from __future__ import annotations

import datetime
from collections import defaultdict
from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from federation.models import Federation, MailPreference, Membership, Person
from federation.services.notifications import absolute_url, address_of, notify

from ..engine import season as season_engine
from ..engine import team_final as team_engine
from ..models import (
    Award,
    AwardVersion,
    Qualification,
    RankingState,
    Season,
    SeasonEntry,
    SeasonTeamEntry,
    SeasonTieChoice,
    Stage,
)


def _player_regions(federation: Federation, person_ids) -> dict[int, int | None]:
    result = {}
    for m in Membership.objects.filter(federation=federation, person_id__in=person_ids).select_related(
        "club"
    ):
        result[m.person_id] = m.region_id or (m.club.region_id if m.club_id else None)
    return result


def _season_versions(season: Season, event_class: str):
    return list(
        AwardVersion.objects.filter(
            federation=season.federation, is_current=True, season=season.year, event_class=event_class
        )
        .select_related("event", "region")
        .order_by("date", "series_number", "event_id")
    )


def _stage_rows(season: Season, stage: str, versions, lines, names, regions) -> list[SeasonEntry]:
    results_of: dict[int, list[dict]] = defaultdict(list)
    for v in versions:
        for p in v.snapshot["placings"]:
            for s in p["players"]:
                results_of[s["person_id"]].append(
                    {
                        "event_id": v.event_id,
                        "number": v.series_number,
                        "region": v.region.name if v.region else "",
                        "points": p["points"] or "0",
                        "forint": p["forint"] or 0,
                        "place": p["place"],
                        "counted": False,
                    }
                )
    rows = []
    for line in lines:
        results = results_of[line.person_id]
        for r in results:
            r["counted"] = r["event_id"] in line.counted
        rows.append(
            SeasonEntry(
                season=season,
                stage=stage,
                person_id=line.person_id,
                name=names.get(line.person_id, str(line.person_id)),
                region_id=regions.get(line.person_id),
                attended=line.attended,
                points=Decimal(str(line.points)),
                forint=line.forint,
                eligible=line.eligible,
                position=line.position,
                place_from=line.place_from,
                place_to=line.place_to,
                status=line.status,
                reserve_position=line.reserve_position,
                results=results,
            )
        )
    return rows


def _players_of(versions) -> dict[int, list[season_engine.EventScore]]:
    scores: dict[int, list[season_engine.EventScore]] = defaultdict(list)
    for v in versions:
        for p in v.snapshot["placings"]:
            points = Decimal(p["points"] or "0")
            for s in p["players"]:
                scores[s["person_id"]].append(season_engine.EventScore(v.event_id, points, p["forint"] or 0))
    return scores


def _chosen(season: Season, table: str) -> list[int]:
    """The staff's latest choice at a tie on the table's cut line (the engine checks it still fits)."""
    latest = SeasonTieChoice.objects.filter(season=season, stage=table).order_by("-chosen_at", "-pk").first()
    return list(latest.person_ids) if latest else []


def places_of(season: Season, table: str) -> int:
    """How many go on from the table: the top 60 of the qualifiers, the best 21 of the semifinal."""
    return season.semifinal_places if table == Stage.QUALIFIER else season.final_places


def tie_of(season: Season, table: str) -> tuple[season_engine.TieAtCut, list[SeasonEntry]] | None:
    """The tie at the table's cut line (II. 10. (5)) as stored, with its rows, resolved or not; or None."""
    rows = list(
        SeasonEntry.objects.filter(season=season, stage=table, eligible=True)
        .select_related("person")
        .order_by("position")
    )
    places = places_of(season, table)
    lines = [
        season_engine.SeasonLine(
            r.person_id,
            r.attended,
            (),
            r.points,
            r.forint,
            True,
            r.position,
            r.place_from,
            r.place_to,
            r.status,
            r.reserve_position,
        )  # fmt: skip
        for r in rows
    ]
    tie = season_engine.tie_at_cut(lines, places)
    if tie is None:
        return None
    return tie, [r for r in rows if r.person_id in tie.tied]


def resolve_tie(user, season: Season, table: str, person_ids, reason: str) -> SeasonTieChoice:
    """The staff choose who of the players tied at the cut line goes on (exactly the seats left); the
    others head the reserve list. Recorded append-only, then the season's tables are recomputed."""
    if not user.has_perm("rankings.manage_season", season):
        raise PermissionDenied
    if table not in (Stage.QUALIFIER, Stage.SEMIFINAL):
        raise ValidationError(_("Choose the table whose cut line is tied."))
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(_("Say how the tie was resolved (e.g. the draw made before the players)."))
    found = tie_of(season, table)
    if found is None:
        raise ValidationError(_("There is no tie at this cut line."))
    tie, _rows = found
    chosen = {int(pid) for pid in person_ids}
    if not chosen <= set(tie.tied) or len(chosen) != tie.seats:
        raise ValidationError(
            _("Choose exactly %(n)s of the %(tied)s tied players.") % {"n": tie.seats, "tied": len(tie.tied)}
        )
    choice = SeasonTieChoice.objects.create(
        season=season, stage=table, person_ids=sorted(chosen), reason=reason, chosen_by=user
    )
    recompute_season(season.pk)
    return choice


def recompute_season(season_id: int) -> Season:
    """Rebuild the season's tables (qualifiers, semifinal, team final, sport ulti invitations)."""
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("federation").get(pk=season_id)
        federation = season.federation
        qualifiers = _season_versions(season, "nub_qualifier")
        semifinals = _season_versions(season, "nub_semifinal")
        q_scores, s_scores = _players_of(qualifiers), _players_of(semifinals)
        ids = set(q_scores) | set(s_scores)
        people = {p.pk: p for p in Person.objects.filter(pk__in=ids)}
        names = {pid: str(p) for pid, p in people.items()}
        regions = _player_regions(federation, ids)

        def order_key(pid):
            p = people.get(pid)
            return (p.last_name, p.first_name) if p else ("", "")

        q_lines = season_engine.qualifier_table(
            [season_engine.PlayerResults(pid, tuple(r), order_key(pid)) for pid, r in q_scores.items()],
            best=season.best_of,
            min_attended=season.min_attended,
            places=season.semifinal_places,
            resolved=_chosen(season, Stage.QUALIFIER),
        )
        s_lines = season_engine.stage_table(
            [season_engine.PlayerResults(pid, tuple(r), order_key(pid)) for pid, r in s_scores.items()],
            places=season.final_places,
            resolved=_chosen(season, Stage.SEMIFINAL),
        )
        SeasonEntry.objects.filter(season=season).delete()
        SeasonEntry.objects.bulk_create(
            _stage_rows(season, Stage.QUALIFIER, qualifiers, q_lines, names, regions)
            + _stage_rows(season, Stage.SEMIFINAL, semifinals, s_lines, names, regions)
            + _sport_ulti_rows(season, regions)
        )
        _team_rows(season)
        season.computed_at = timezone.now()
        season.computed_version = (
            RankingState.objects.filter(pk=federation.pk).values_list("data_version", flat=True).first() or 0
        )
        season.save(update_fields=["computed_at", "computed_version"])
    return season


def _team_rows(season: Season) -> None:
    versions = _season_versions(season, "team_regional")
    best: dict[str, tuple] = {}
    for v in versions:
        region = v.region.code if v.region else ""
        for p in v.snapshot["placings"]:
            key = p["entry_key"]
            score = (Decimal(p["points"] or "0"), p["forint"] or 0)
            if key not in best or score > best[key][0]:
                best[key] = (score, region, v.region, p)
    result = team_engine.team_final(
        [team_engine.TeamResult(k, b[1], b[0][0], b[0][1]) for k, b in best.items()],
        places=season.team_final_places,
        per_region=season.team_per_region,
    )
    ids = {s["person_id"] for b in best.values() for s in b[3]["players"]}
    names = {p.pk: str(p) for p in Person.objects.filter(pk__in=ids)}
    SeasonTeamEntry.objects.filter(season=season).delete()
    SeasonTeamEntry.objects.bulk_create(
        SeasonTeamEntry(
            season=season,
            region=best[line.key][2],
            region_name=best[line.key][2].name if best[line.key][2] else "",
            entry_key=line.key,
            name=best[line.key][3]["name"] or line.key,
            players=", ".join(names.get(s["person_id"], "") for s in best[line.key][3]["players"]),
            points=line.points,
            forint=line.forint,
            region_place_from=line.region_place_from,
            region_place_to=line.region_place_to,
            status=line.status,
            via=line.via,
            reserve_position=line.reserve_position,
        )
        for line in result.lines
    )


def _sport_ulti_rows(season: Season, regions) -> list[SeasonEntry]:
    federation = season.federation
    previous = list(
        Award.objects.filter(
            federation=federation, is_current=True, year=season.year - 1, event_class="sport_ulti"
        )
        .values("person_id")
        .annotate(total=Sum("amount"))
        .order_by("-total", "person__last_name", "person__first_name", "person_id")
        .values_list("person_id", flat=True)
    )
    finals = _season_versions(season, "nub_final")
    if finals:
        final_players = [s["person_id"] for v in finals for p in v.snapshot["placings"] for s in p["players"]]
    else:
        final_players = list(
            Qualification.objects.filter(season=season, stage=Stage.FINAL, status=Qualification.CONFIRMED)
            .order_by("rank")
            .values_list("person_id", flat=True)
        )
    invited = season_engine.sport_ulti_invitations(
        previous, final_players, from_list=season.sport_ulti_from_list
    )
    people = {p.pk: p for p in Person.objects.filter(pk__in=[pid for pid, _ in invited])}
    return [
        SeasonEntry(
            season=season,
            stage=Stage.SPORT_ULTI,
            person_id=pid,
            name=str(people[pid]),
            region_id=regions.get(pid),
            position=i + 1,
            status=SeasonEntry.INVITED,
            note=why,
        )
        for i, (pid, why) in enumerate(invited)
        if pid in people
    ]


STAGE_SOURCE = {Stage.SEMIFINAL: Stage.QUALIFIER, Stage.FINAL: Stage.SEMIFINAL}


def _notify_invitation(q: Qualification, replacement: bool) -> None:
    with translation.override("hu"):
        stage = Stage(q.stage).label
        subject = _("NUB %(year)s: you qualified for the %(stage)s") % {"year": q.season.year, "stage": stage}
        if replacement:
            subject = _("NUB %(year)s: a place in the %(stage)s from the reserve list") % {
                "year": q.season.year,
                "stage": stage,
            }
        body = _(
            "Dear %(name)s,\n\nyou have a place in the %(stage)s of the National Ulti Championship %(year)s. "
            "Please confirm it on the portal by %(deadline)s, otherwise the next player on the reserve list "
            "takes it.\n"
        ) % {
            "name": q.person,
            "stage": stage,
            "year": q.season.year,
            "deadline": timezone.localtime(q.deadline).strftime("%Y-%m-%d %H:%M"),
        }
    season_url = absolute_url("rankings_season", code=q.season.federation.code, year=q.season.year)
    notify(
        [address_of(q.person)],
        subject,
        body + season_url,
        federation=q.season.federation_id,
        category=MailPreference.RANKINGS,
    )


def open_confirmations(season: Season, stage: str, deadline: datetime.datetime) -> list[Qualification]:
    """Invite the qualified players of the stage's source table; each must confirm by ``deadline``."""
    source = STAGE_SOURCE[stage]
    if SeasonEntry.objects.filter(season=season, stage=source, status=SeasonEntry.TIED).exists():
        # II. 10. (5): nobody is invited over the number, nor the tie left to the display order.
        raise ValidationError(_("Players are tied at the cut line: resolve the tie before inviting."))
    created = []
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        setattr(season, "semifinal_deadline" if stage == Stage.SEMIFINAL else "final_deadline", deadline)
        season.save()
        rows = SeasonEntry.objects.filter(season=season, stage=source, status=SeasonEntry.QUALIFIED)
        invited = set(
            Qualification.objects.filter(season=season, stage=stage).values_list("person_id", flat=True)
        )
        for row in rows.select_related("person").order_by("position"):
            if row.person_id in invited:
                continue
            q = Qualification.objects.create(
                season=season, stage=stage, person=row.person, rank=row.position, deadline=deadline
            )
            _notify_invitation(q, replacement=False)
            created.append(q)
    return created


def respond(qualification: Qualification, accept: bool, now=None) -> Qualification:
    """The player confirms (or gives up) his place; a late answer after expiry changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        q = Qualification.objects.select_for_update().get(pk=qualification.pk)
        if q.status != Qualification.INVITED or q.deadline < now:
            return q
        q.status = Qualification.CONFIRMED if accept else Qualification.DECLINED
        q.responded_at = now
        q.save(update_fields=["status", "responded_at"])
    if not accept:
        process_deadlines(now, season=q.season)
    return q


def process_deadlines(now=None, season: Season | None = None) -> int:
    """Replace every qualified player who missed his deadline (or declined) from the reserve list in
    order, and notify the replacement. Idempotent; run periodically by Celery beat."""
    now = now or timezone.now()
    seasons = (
        [season] if season is not None else Season.objects.filter(qualifications__isnull=False).distinct()
    )
    replaced = 0
    for s in seasons:
        for stage in (Stage.SEMIFINAL, Stage.FINAL):
            replaced += _replace_stage(s.pk, stage, now)
    return replaced


def _replace_stage(season_id: int, stage: str, now) -> int:
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season_id)
        invitations = list(
            Qualification.objects.filter(season=season, stage=stage)
            .select_related("person")
            .order_by("invited_at", "rank", "pk")
        )
        if not invitations:
            return 0
        replaced_ids = set(
            Qualification.objects.filter(season=season, stage=stage, replaces__isnull=False).values_list(
                "replaces_id", flat=True
            )
        )
        reserve_rows = list(
            SeasonEntry.objects.filter(season=season, stage=STAGE_SOURCE[stage], status=SeasonEntry.RESERVE)
            .select_related("person")
            .order_by("reserve_position")
        )
        plan = season_engine.replacements(
            [
                season_engine.Invitation(q.person_id, q.status, q.deadline, replaced=q.pk in replaced_ids)
                for q in invitations
            ],
            [row.person_id for row in reserve_rows],
            now,
        )
        by_person = {q.person_id: q for q in invitations}
        reserve_of = {row.person_id: row for row in reserve_rows}
        for step in plan:
            old = by_person[step.vacated_by]
            if step.expired:
                old.status = Qualification.EXPIRED
                old.save(update_fields=["status"])
            if step.replacement is None:
                continue
            row = reserve_of[step.replacement]
            new = Qualification.objects.create(
                season=season,
                stage=stage,
                person=row.person,
                rank=row.position,
                via=Qualification.RESERVE,
                deadline=now + datetime.timedelta(days=season.replacement_days),
                invited_at=now,
                replaces=old,
            )
            _notify_invitation(new, replacement=True)
        return sum(1 for step in plan if step.replacement is not None)
