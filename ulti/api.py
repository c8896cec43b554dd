"""API of ulti events; `register(router)` is called from config/api.py.

Rounds with their tables (read; publish and result upload for the director), groups (draw the next Swiss
round or the all-play-all schedule) and standings (read), through the same services and `rules`
permissions as the pages.
"""

from django.db.models import Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from config.query import api_int, column_range
from federation.api_permissions import RulesPermission
from federation.models import Role
from results.api_decisions import DecisionsPendingSerializer, ResolutionFields, conflict, resolution
from results.upload_decisions import DecisionsPending
from results.upload_input import UploadInputError, check_request_size
from tournaments.models import Event, public_events_q

from .models import Group, Round, Stage, Standing
from .services import UltiError, draw, pages, uploads

MANAGE = "ulti.manage_event"


def _managed_events(user):
    if not user.is_authenticated:
        return Q(pk__in=[])
    if user.is_superuser:
        return Q()
    roles = Role.objects.filter(user=user)
    return Q(pk__in=roles.filter(kind=Role.DIRECTOR).values("event_id")) | Q(
        federation_id__in=roles.filter(kind=Role.FEDERATION_STAFF).values("federation_id")
    )


def _public_event_ids():
    return Event.objects.filter(public_events_q()).values("pk")


def _managed_event_ids(user):
    return Event.objects.filter(_managed_events(user)).values("pk")


def _event_param(request):
    return api_int(request, "event")


EVENT = OpenApiParameter("event", OpenApiTypes.INT, description="Only this event's rows.")


class UltiSeatSerializer(serializers.Serializer):
    participant = serializers.IntegerField(source="participant.pk")
    person = serializers.IntegerField(source="participant.person_id")
    name = serializers.CharField(source="participant.person.__str__")
    start_number = serializers.IntegerField(source="participant.number")
    forint = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True)


class UltiTableSerializer(serializers.Serializer):
    number = serializers.IntegerField(source="table.number")
    has_result = serializers.BooleanField()
    seats = UltiSeatSerializer(many=True)


class UltiByeSerializer(serializers.Serializer):
    participant = serializers.IntegerField(source="pk")
    person = serializers.IntegerField(source="person_id")
    name = serializers.CharField(source="person.__str__")
    start_number = serializers.IntegerField(source="number")


class UltiRoundSerializer(serializers.ModelSerializer):
    event = serializers.IntegerField(source="group.stage.event_id", read_only=True)
    stage = serializers.CharField(source="group.stage.__str__", read_only=True)
    stage_number = serializers.IntegerField(source="group.stage.number", read_only=True)
    group_name = serializers.CharField(source="group.name", read_only=True)
    processing = serializers.SerializerMethodField()
    status = serializers.CharField(read_only=True, help_text="draft or published")

    class Meta:
        model = Round
        fields = [
            "id", "event", "stage", "stage_number", "group", "group_name", "number", "status", "method",
            "repeats", "published_at", "processing",
        ]  # fmt: skip

    def get_processing(self, rnd) -> bool:
        return pages.processing(rnd.group.stage.event_id)


class UltiRoundDetailSerializer(UltiRoundSerializer):
    tables = serializers.SerializerMethodField()
    byes = serializers.SerializerMethodField()
    version = serializers.SerializerMethodField()

    class Meta(UltiRoundSerializer.Meta):
        fields = [*UltiRoundSerializer.Meta.fields, "version", "tables", "byes"]

    def _view(self, rnd):
        cache = self.context.setdefault("round_tables", {})
        if rnd.pk not in cache:
            cache[rnd.pk] = pages.round_tables(rnd)
        return cache[rnd.pk]

    @extend_schema_field(UltiTableSerializer(many=True))
    def get_tables(self, rnd):
        return UltiTableSerializer(self._view(rnd)["tables"], many=True).data

    @extend_schema_field(UltiByeSerializer(many=True))
    def get_byes(self, rnd):
        return UltiByeSerializer(self._view(rnd)["byes"], many=True).data

    def get_version(self, rnd) -> int | None:
        latest = self._view(rnd)["latest"]
        return latest.number if latest else None


class UltiResultSerializer(serializers.Serializer):
    participant = serializers.IntegerField(help_text="Participant id (see the round's seats).")
    forint = serializers.IntegerField()


class UltiTableResultSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1)
    results = UltiResultSerializer(many=True)


class UltiUploadSerializer(ResolutionFields):
    """Every table of the round, or a CSV text. An upload that covers decisions in force (a ruling, a point
    deduction) answers 409 with them and stores nothing: send it again with `decisions`, `reasons` and
    `based_on_version`."""

    tables = UltiTableResultSerializer(many=True, required=False, help_text="Every table of the round.")
    csv = serializers.CharField(required=False, help_text="Or the CSV text: table;player;forint per line.")
    note = serializers.CharField(required=False, allow_blank=True, max_length=500)

    def validate(self, data):
        if bool(data.get("tables")) == bool(data.get("csv")):
            raise ValidationError("Give either tables or csv.")
        return data


class UltiUploadResultSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    version = serializers.IntegerField()
    processing = serializers.BooleanField()


class UltiErrorsSerializer(serializers.Serializer):
    errors = serializers.ListField(child=serializers.CharField())


class UltiRoundViewSet(viewsets.ReadOnlyModelViewSet):
    """Rounds of ulti events: published ones of public events; drafts too for the director."""

    permission_classes = [RulesPermission]
    rules_permissions = {"publish": MANAGE, "upload": MANAGE}

    def get_queryset(self):
        user = self.request.user
        visible = Q(status=Round.Status.PUBLISHED, group__stage__event__in=_public_event_ids()) | Q(
            group__stage__event__in=_managed_event_ids(user)
        )
        qs = (
            Round.objects.filter(visible)
            .select_related("group__stage__event")
            .order_by("group__stage__event", "group__stage__number", "group__order", "number")
        )
        event = _event_param(self.request)
        return qs.filter(group__stage__event_id=event) if event is not None else qs

    def get_serializer_class(self):
        return UltiRoundDetailSerializer if self.action == "retrieve" else UltiRoundSerializer

    @extend_schema(parameters=[EVENT])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(request=None, responses={200: UltiRoundSerializer, 400: UltiErrorsSerializer})
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        rnd = self.get_object()
        try:
            rnd = draw.publish_round(rnd, request.user)
        except UltiError as error:
            return Response({"errors": error.messages}, status=status.HTTP_400_BAD_REQUEST)
        return Response(UltiRoundSerializer(rnd).data)

    @extend_schema(
        request=UltiUploadSerializer,
        responses={
            201: UltiUploadResultSerializer,
            400: UltiErrorsSerializer,
            409: DecisionsPendingSerializer,
            413: UltiErrorsSerializer,
        },
    )
    @action(detail=True, methods=["post"])
    def upload(self, request, pk=None):
        """A new version of the round's forint results: every table, or a CSV text. Bad input writes nothing."""
        rnd = self.get_object()
        try:
            check_request_size(request)
        except UploadInputError as error:
            return Response({"errors": error.messages}, status=error.status_code)
        body = UltiUploadSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            if data.get("csv"):
                fmt, upload = uploads.Format.CSV, data["csv"]
            else:
                fmt = uploads.Format.FORM
                upload = {
                    t["table"]: {r["participant"]: r["forint"] for r in t["results"]} for t in data["tables"]
                }
            version = uploads.receive(
                rnd, fmt, upload, user=request.user, note=data.get("note", ""), **resolution(data)
            )
        except DecisionsPending as pending:
            return conflict(pending)
        except UltiError as error:
            return Response({"errors": error.messages}, status=status.HTTP_400_BAD_REQUEST)
        except UploadInputError as error:
            return Response({"errors": error.messages}, status=error.status_code)
        return Response(
            {"round": rnd.pk, "version": version.number, "processing": pages.processing(rnd.event_id)},
            status=status.HTTP_201_CREATED,
        )


class UltiGroupSerializer(serializers.ModelSerializer):
    event = serializers.IntegerField(source="stage.event_id", read_only=True)
    stage = serializers.CharField(source="stage.__str__", read_only=True)
    stage_number = serializers.IntegerField(source="stage.number", read_only=True)
    system = serializers.CharField(source="stage.system", read_only=True)
    rounds_planned = serializers.IntegerField(source="stage.rounds", read_only=True)

    class Meta:
        model = Group
        fields = ["id", "event", "stage", "stage_number", "system", "rounds_planned", "name"]


class UltiGroupViewSet(viewsets.ReadOnlyModelViewSet):
    """Groups of ulti stages; the director draws the next round (Swiss) or the whole schedule here."""

    serializer_class = UltiGroupSerializer
    permission_classes = [RulesPermission]
    rules_permissions = {"generate": MANAGE, "schedule": MANAGE}

    def get_queryset(self):
        visible = Q(stage__event__in=_public_event_ids()) | Q(
            stage__event__in=_managed_event_ids(self.request.user)
        )
        qs = (
            Group.objects.filter(visible)
            .select_related("stage")
            .order_by("stage__event", "stage__number", "order")
        )
        event = _event_param(self.request)
        return qs.filter(stage__event_id=event) if event is not None else qs

    @extend_schema(parameters=[EVENT])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(request=None, responses={201: UltiRoundDetailSerializer, 400: UltiErrorsSerializer})
    @action(detail=True, methods=["post"])
    def generate(self, request, pk=None):
        """Draw the group's next Swiss round as a draft (redraws an unpublished draft)."""
        group = self.get_object()
        try:
            rnd = draw.generate_round(group, request.user)
        except UltiError as error:
            return Response({"errors": error.messages}, status=status.HTTP_400_BAD_REQUEST)
        return Response(UltiRoundDetailSerializer(rnd, context={}).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={201: UltiRoundSerializer(many=True), 400: UltiErrorsSerializer})
    @action(detail=True, methods=["post"])
    def schedule(self, request, pk=None):
        """Draw every round of an all-play-all group (Kirkman for 9, 15, 21, ... players) as drafts."""
        group = self.get_object()
        try:
            rounds = draw.generate_schedule(group, request.user)
        except UltiError as error:
            return Response({"errors": error.messages}, status=status.HTTP_400_BAD_REQUEST)
        return Response(UltiRoundSerializer(rounds, many=True).data, status=status.HTTP_201_CREATED)


class UltiStandingSerializer(serializers.ModelSerializer):
    event = serializers.IntegerField(source="stage.event_id")
    stage_number = serializers.IntegerField(source="stage.number")
    group_name = serializers.CharField(source="group.name", allow_null=True, default=None)
    person = serializers.IntegerField(source="participant.person_id")
    name = serializers.CharField(source="participant.person.__str__")
    start_number = serializers.IntegerField(source="participant.number")

    class Meta:
        model = Standing
        fields = [
            "event", "stage_number", "group_name", "after_round", "place", "place_from", "place_to", "person",
            "name", "start_number", "points", "forint", "tables", "byes", "round_points",
        ]  # fmt: skip


class UltiStandingViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Standings of a public ulti event after a round (default: the latest), over a stage or one group."""

    serializer_class = UltiStandingSerializer
    permission_classes = [RulesPermission]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Standing.objects.none()
        event = _event_param(self.request)
        if event is None:
            raise ValidationError({"event": "required"})
        visible = Q(stage__event__in=_public_event_ids()) | Q(
            stage__event__in=_managed_event_ids(self.request.user)
        )
        qs = Standing.objects.filter(visible, stage__event_id=event).select_related(
            "stage", "group", "participant__person"
        )
        stage = api_int(self.request, "stage", *column_range(Stage._meta.get_field("number")))
        stages = qs.values_list("stage__number", flat=True).distinct()
        stage = stage if stage is not None else max(stages, default=None)
        qs = qs.filter(stage__number=stage)
        group = self.request.query_params.get("group")
        qs = qs.filter(group__name=group) if group else qs.filter(group=None)
        after = api_int(self.request, "after", *column_range(Standing._meta.get_field("after_round")))
        if after is None:
            after = max(qs.values_list("after_round", flat=True), default=None)
        return qs.filter(after_round=after).order_by("order")

    @extend_schema(
        parameters=[
            OpenApiParameter("event", OpenApiTypes.INT, required=True),
            OpenApiParameter("stage", OpenApiTypes.INT, description="Stage number (default: the last)."),
            OpenApiParameter("group", OpenApiTypes.STR, description="Group name (default: the whole stage)."),
            OpenApiParameter(
                "after", OpenApiTypes.INT, description="After this round (default: the latest)."
            ),
        ]
    )
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)


def register(router):
    router.register("ulti/rounds", UltiRoundViewSet, basename="ulti-round")
    router.register("ulti/groups", UltiGroupViewSet, basename="ulti-group")
    router.register("ulti/standings", UltiStandingViewSet, basename="ulti-standing")
