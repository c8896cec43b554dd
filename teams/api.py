"""API of the teams app: rounds with their pairings (read; generate and publish for the director),
matches (read; upload a result) and standings (read). `register(router)` is called from config/api.py.

The same services and `rules` permissions as the pages: `teams.run_event` on the event for every write.
"""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response

from bridge.services.upload_readers import file_kind
from config.query import api_int, column_range, id_or_none
from federation.access import deny, object_or_deny
from federation.api_permissions import RulesPermission
from results.api_decisions import DecisionsPendingSerializer, ResolutionFields, conflict, resolution
from results.upload_decisions import DecisionsPending
from results.upload_input import UploadInputError, check_request_size
from tournaments.models import Event, public_events_q

from .engine.parsed import ParsedBoard, ParsedResult, UploadError
from .models import Match, MatchResult, Round, Standing, Team
from .services import Refused, explanations, uploads
from .services import pairing as pairing_service
from .services import results as results_service
from .views.common import RUN_EVENT, VIEW_EVENT, sees_round, team_events


class ExplanationField(serializers.CharField):
    """The stored note in the request's language, as the pages show it."""

    def __init__(self, **kwargs):
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value):
        return explanations.shown(value)


class TeamRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "name", "start_number"]


class TeamMatchResultSerializer(serializers.ModelSerializer):
    class Meta:
        model = MatchResult
        fields = ["home_imps", "away_imps", "home_vp", "away_vp", "boards", "winner", "version"]


class TeamMatchSerializer(serializers.ModelSerializer):
    home = TeamRefSerializer(read_only=True)
    away = TeamRefSerializer(read_only=True, allow_null=True)
    result = TeamMatchResultSerializer(read_only=True, allow_null=True)
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    event = serializers.IntegerField(source="round.event_id", read_only=True)
    explanation = ExplanationField()

    class Meta:
        model = Match
        fields = [
            "id",
            "event",
            "round_number",
            "table",
            "home",
            "away",
            "bracket",
            "flags",
            "explanation",
            "result",
        ]


class TeamRoundSerializer(serializers.ModelSerializer):
    matches = TeamMatchSerializer(many=True, read_only=True)
    explanation = ExplanationField()

    class Meta:
        model = Round
        fields = [
            "id",
            "event",
            "number",
            "kind",
            "status",
            "boards",
            "method",
            "explanation",
            "flags",
            "draw_seed",
            "matches",
        ]


class GenerateSerializer(serializers.Serializer):
    event = serializers.IntegerField()


class BoardInputSerializer(serializers.Serializer):
    board = serializers.IntegerField(min_value=1)
    open_ns = serializers.IntegerField()
    closed_ns = serializers.IntegerField()


class TeamUploadSerializer(ResolutionFields):
    """One of: `boards` (board by board), `home_imps` + `away_imps` (IMP result), or `file` + `file_format`.

    An upload that covers decisions in force (a correction, an adjusted score, an appeal decision) answers
    409 with them and stores nothing; send it again with `decisions`, `reasons` and `based_on_version`."""

    boards = BoardInputSerializer(many=True, required=False)
    home_imps = serializers.DecimalField(max_digits=7, decimal_places=2, min_value=0, required=False)
    away_imps = serializers.DecimalField(max_digits=7, decimal_places=2, min_value=0, required=False)
    boards_played = serializers.IntegerField(min_value=1, required=False)
    file = serializers.FileField(required=False)
    file_format = serializers.ChoiceField(choices=["pbn", "csv", "usebio"], required=False)
    note = serializers.CharField(required=False, allow_blank=True, max_length=500)


class TeamUploadResultSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    version = serializers.IntegerField()
    processing = serializers.BooleanField()


class TeamStandingSerializer(serializers.ModelSerializer):
    team = TeamRefSerializer(read_only=True)
    imps = serializers.DecimalField(max_digits=8, decimal_places=2, read_only=True)

    class Meta:
        model = Standing
        fields = ["after_round", "place", "team", "vp", "imps_won", "imps_lost", "imps", "played", "version"]


def _visible_events():
    return Event.objects.filter(public_events_q(), format=Event.Format.TEAMS)


EVENT_FILTER = OpenApiParameter("event", int, description="event id")


class TeamRoundViewSet(viewsets.ReadOnlyModelViewSet):
    """Published rounds of public team events; a preview (draft) only for the event's director."""

    serializer_class = TeamRoundSerializer
    permission_classes = [RulesPermission]
    rules_permissions = {"generate": "teams.run_event", "publish": "teams.run_event"}
    filter_backends = []

    def get_queryset(self):
        rounds = Round.objects.prefetch_related("matches__home", "matches__away", "matches__result").order_by(
            "event", "number"
        )
        if self.action in ("publish", "retrieve"):
            return rounds
        rounds = rounds.filter(status=Round.Status.PUBLISHED, event__in=_visible_events())
        event = api_int(self.request, "event")
        return rounds.filter(event_id=event) if event is not None else rounds

    def get_permission_object(self):
        data = getattr(self.request, "data", None)
        event_id = data.get("event") if isinstance(data, dict) else None
        event_id = id_or_none(event_id)
        return Event.objects.filter(pk=event_id).first() if event_id is not None else None

    @extend_schema(parameters=[EVENT_FILTER])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    def retrieve(self, request, *args, **kwargs):
        round_ = self.get_object()
        if not sees_round(request.user, round_):
            deny(request, round_, visible=sees_round)  # a draft round, or a private event's: 404
        return Response(self.get_serializer(round_).data)

    @extend_schema(request=GenerateSerializer, responses={201: TeamRoundSerializer})
    @action(detail=False, methods=["post"])
    def generate(self, request):
        data = GenerateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = object_or_deny(
            request, team_events(), RUN_EVENT, visible=VIEW_EVENT, pk=data.validated_data["event"]
        )
        try:
            round_ = pairing_service.generate_round(event, request.user)
        except Refused as error:
            return Response({"errors": error.messages}, status=status.HTTP_400_BAD_REQUEST)
        return Response(self.get_serializer(round_).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=TeamRoundSerializer)
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        round_ = pairing_service.publish_round(self.get_object(), request.user)
        return Response(self.get_serializer(round_).data)


class TeamMatchViewSet(viewsets.ReadOnlyModelViewSet):
    """Matches of published rounds; the director uploads a result as a new version."""

    serializer_class = TeamMatchSerializer
    permission_classes = [RulesPermission]
    rules_permissions = {"upload": "teams.run_event"}
    parser_classes = [JSONParser, MultiPartParser, FormParser]
    filter_backends = []

    def get_queryset(self):
        matches = Match.objects.select_related("round", "home", "away", "result").order_by(
            "round__number", "table", "pk"
        )
        matches = matches.filter(round__status=Round.Status.PUBLISHED)
        if self.action != "upload":
            matches = matches.filter(round__event__in=_visible_events())
        event = api_int(self.request, "event")
        return matches.filter(round__event_id=event) if event is not None else matches

    @extend_schema(parameters=[EVENT_FILTER])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(
        request=TeamUploadSerializer,
        responses={201: TeamUploadResultSerializer, 409: DecisionsPendingSerializer},
    )
    @action(detail=True, methods=["post"])
    def upload(self, request, pk=None):
        match = self.get_object()
        try:
            check_request_size(request)
        except UploadInputError as error:
            return Response({"errors": error.messages}, status=error.status_code)
        data = TeamUploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        try:
            fmt, parsed = _input(values)
            upload = uploads.upload_match(
                match,
                request.user,
                fmt,
                file=values.get("file"),
                parsed=parsed,
                note=values.get("note", ""),
                **resolution(values),
            )
        except DecisionsPending as pending:
            return conflict(pending)
        except UploadError as error:
            return Response({"errors": error.messages}, status=status.HTTP_400_BAD_REQUEST)
        except UploadInputError as error:
            return Response({"errors": error.messages}, status=error.status_code)
        body = {"match": match.pk, "version": upload.number, "processing": not hasattr(match, "result")}
        return Response(body, status=status.HTTP_201_CREATED)


def _input(values) -> tuple[str, ParsedResult | None]:
    """The upload's format ("pbn", "csv", "usebio" or the form's) and, for the form's, its parsed result.
    A file without `file_format` is read by its name: .csv as CSV, .xml as USEBIO, anything else as PBN."""
    if values.get("file") is not None:
        if values.get("file_format"):
            return values["file_format"], None
        return file_kind(values["file"].name), None
    if "home_imps" in values or "away_imps" in values:
        if "home_imps" not in values or "away_imps" not in values:
            raise UploadError(_("Send both home_imps and away_imps."))
        imps = results_service.imps_result(
            values["home_imps"], values["away_imps"], values.get("boards_played")
        )
        return uploads.FORM, imps
    if values.get("boards"):
        boards = tuple(ParsedBoard(b["board"], b["open_ns"], b["closed_ns"]) for b in values["boards"])
        return uploads.FORM, ParsedResult(boards)
    raise UploadError(_("Send boards, home_imps and away_imps, or a file."))


class TeamStandingViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Standings after each stage round; `?event=` (required) and optionally `?after_round=`."""

    serializer_class = TeamStandingSerializer
    filter_backends = []

    def get_queryset(self):
        rows = Standing.objects.select_related("team").filter(event__in=_visible_events())
        event = api_int(self.request, "event")
        rows = rows.filter(event_id=event) if event is not None else rows.none()
        after = api_int(self.request, "after_round", *column_range(Standing._meta.get_field("after_round")))
        return rows.filter(after_round=after) if after is not None else rows.order_by("after_round", "place")

    @extend_schema(parameters=[EVENT_FILTER, OpenApiParameter("after_round", int)])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)


def register(router):
    router.register("team-rounds", TeamRoundViewSet, basename="team-round")
    router.register("team-matches", TeamMatchViewSet, basename="team-match")
    router.register("team-standings", TeamStandingViewSet, basename="team-standing")
