"""A team event's published results as a USEBIO 1.2 file (`bridge.engine.pbn.usebio.write_team_usebio`).

Built from what the pages show: the teams with their players and latest place, and every match of a
published round with a board-by-board result (each match's latest version, decisions applied). The file
reads back through the upload seam (`uploads.upload_match(..., "usebio")`) match by match, to the same
boards. A match entered as IMP totals only has no boards to write and is left out.
"""

from bridge.engine.pbn.usebio import TeamBoard, TeamEntry, TeamLine, TeamMatch, write_team_usebio
from bridge.engine.scoring.imps import imps as imp_scale
from federation.models import Membership

from ..engine.scores import played_of
from ..models import FinalPlace, Match, MatchUpload, Round, Standing, TeamEvent

EVENT_TYPES = {TeamEvent.Format.SWISS: "SWISS_TEAMS", TeamEvent.Format.KNOCKOUT: "KO"}


def _line(direction: str, score: int, shown: str) -> TeamLine:
    played = played_of(shown)
    contract, declarer, tricks = played if played else (None, None, None)
    return TeamLine(direction, score, contract, declarer, tricks)


def _places(event) -> dict[int, tuple[str, object]]:
    """Team id -> (place, VP total): the final place when there is one, else the latest standings."""
    out = {}
    latest = (
        Standing.objects.filter(event=event).order_by("-after_round").values_list("after_round", flat=True)
    )
    if latest:
        for row in Standing.objects.filter(event=event, after_round=latest[0]):
            out[row.team_id] = (str(row.place), row.vp)
    for final in FinalPlace.objects.filter(event=event):
        out[final.team_id] = (final.label, out.get(final.team_id, (None, None))[1])
    return out


def _teams(event) -> list[TeamEntry]:
    teams = list(event.teams.select_related("entry").prefetch_related("entry__members__person"))
    people = [m.person_id for t in teams for m in t.entry.members.all()]
    numbers = dict(
        Membership.objects.filter(federation_id=event.federation_id, person_id__in=people).values_list(
            "person_id", "member_number"
        )
    )
    places = _places(event)
    out = []
    for team in teams:
        members = list(team.entry.members.all())
        place, total = places.get(team.pk, (None, None))
        out.append(
            TeamEntry(
                team.start_number,
                team.name,
                tuple(str(m.person) for m in members),
                place,
                total,
                tuple(numbers.get(m.person_id) for m in members),
            )
        )
    return out


def _matches(event) -> list[TeamMatch]:
    matches = (
        Match.objects.filter(round__event=event, round__status=Round.Status.PUBLISHED, away__isnull=False)
        .select_related("round", "home", "away", "result")
        .order_by("round__number", "bracket", "table", "pk")
    )
    latest = {}
    for upload in MatchUpload.objects.filter(match__in=matches).prefetch_related("boards").order_by("number"):
        latest[upload.match_id] = upload
    out = []
    for match in matches:
        upload = latest.get(match.pk)
        if upload is None or upload.imps_only:
            continue
        boards = [b for b in upload.boards.all() if b.open_ns is not None and b.closed_ns is not None]
        result = getattr(match, "result", None)
        out.append(
            TeamMatch(
                match.round.number,
                match.home.start_number,
                match.away.start_number,
                tuple(
                    TeamBoard(
                        b.board,
                        imp_scale(b.open_ns - b.closed_ns),
                        # The home team sits NS in the open room and EW in the closed one.
                        (
                            _line("NS", b.open_ns, b.open_contract),
                            _line("EW", b.closed_ns, b.closed_contract),
                        ),
                    )
                    for b in boards
                ),
                result.home_vp if result else None,
                result.away_vp if result else None,
            )
        )
    return out


def usebio_text(event) -> str:
    setup = TeamEvent.objects.filter(event=event).first()
    kind = EVENT_TYPES.get(setup.pairing_format, "TEAMS") if setup else "TEAMS"
    club = event.club
    return write_team_usebio(
        _teams(event),
        _matches(event),
        event_type=kind,
        title=event.title,
        date=event.start_date.strftime("%Y.%m.%d") if event.start_date else None,
        club_name=club.name if club else event.federation.name,
    )
