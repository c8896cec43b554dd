"""API of bridge pair events; `register(router)` is called from config/api.py.

Sessions (list, detail, standings, upload), events (standings; scoring settings, whose announced
tie-break the director or organiser sets) and correction requests (a pair's player files one, the director
countersigns or refuses), through the same services and `rules` permissions as the pages.
"""

from django.db.models import Q
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from federation.access import check, object_or_deny
from federation.api_permissions import RulesPermission
from federation.models import Role
from results.upload_input import UploadInputError, check_request_size
from tournaments.models import Event, public_events_q

from .models import (
    CorrectionRequest,
    EventStanding,
    PairEvent,
    PairSession,
    SessionPair,
    SessionStanding,
)
from .services import corrections, decisions, pages, setup, upload_readers, uploads, versions
from .services.pages import processing

MANAGE, VIEW = "bridge.manage_results", "bridge.view_results"
VIEW_SETTINGS, CHANGE_TIE_BREAK = "bridge.view_settings", "bridge.change_tie_break"


def _managed_events(user):
    """Events whose results the user runs (director of the event, staff of its federation)."""
    if not user.is_authenticated:
        return Q(pk__in=[])
    if user.is_superuser:
        return Q()
    roles = Role.objects.filter(user=user)
    return Q(pk__in=roles.filter(kind=Role.DIRECTOR).values("event_id")) | Q(
        federation_id__in=roles.filter(kind=Role.FEDERATION_STAFF).values("federation_id")
    )


def visible_sessions(user):
    managed = Event.objects.filter(_managed_events(user)).values("pk")
    published = Q(published_at__isnull=False, event__in=Event.objects.filter(public_events_q()).values("pk"))
    return PairSession.objects.filter(published | Q(event__in=managed))


class BridgeSectionSerializer(serializers.Serializer):
    letter = serializers.CharField()
    movement = serializers.CharField()
    tables = serializers.IntegerField()


class BridgePairSessionSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="__str__", read_only=True)
    event_title = serializers.CharField(source="event.title", read_only=True)
    starts_at = serializers.DateTimeField(read_only=True, allow_null=True)
    processing = serializers.SerializerMethodField()
    sections = BridgeSectionSerializer(many=True, read_only=True)

    class Meta:
        model = PairSession
        fields = [
            "id",
            "event",
            "event_title",
            "number",
            "name",
            "starts_at",
            "boards",
            "published_at",
            "processing",
            "sections",
        ]

    def get_processing(self, session) -> bool:
        return processing(session.event_id)


class BridgeSessionStandingSerializer(serializers.ModelSerializer):
    pair_number = serializers.IntegerField(source="pair.number")
    section = serializers.CharField(source="pair.section.letter")
    players = serializers.CharField(source="pair.pair.display_name")
    version = serializers.IntegerField(source="version.number")

    class Meta:
        model = SessionStanding
        fields = [
            "place",
            "field",
            "pair_number",
            "section",
            "direction",
            "players",
            "total",
            "top",
            "percentage",
            "boards",
            "penalty",
            "version",
        ]


class BridgeEventStandingSerializer(serializers.ModelSerializer):
    players = serializers.CharField(source="pair.display_name")
    sessions = serializers.JSONField()
    rights = serializers.JSONField()

    class Meta:
        model = EventStanding
        fields = [
            "place",
            "field",
            "players",
            "total",
            "top",
            "percentage",
            "boards",
            "sessions",
            "rights",
            "event_version",
        ]


class BridgeUploadSerializer(serializers.Serializer):
    file = serializers.FileField()
    file_format = serializers.ChoiceField(
        choices=["pbn", "usebio", "csv"],
        required=False,
        help_text="Default: from the file name (.csv, .xml for USEBIO, else PBN).",
    )
    note = serializers.CharField(max_length=500, required=False, allow_blank=True)
    decisions = serializers.JSONField(
        binary=True,
        required=False,
        help_text='The answer to a 409: decision id -> "keep", "reconfirm" or "set_aside" (a JSON object), '
        "for every decision the 409 listed.",
    )
    reasons = serializers.JSONField(
        binary=True,
        required=False,
        help_text="Decision id -> why (a JSON object); required for each decision set aside.",
    )
    accept_warnings = serializers.BooleanField(
        required=False,
        default=False,
        help_text="The answer to a 409 with warnings: the director has read them and the file is saved as read.",
    )
    base_version = serializers.IntegerField(
        required=False,
        help_text="The base_version of the 409 answered: if the results changed since, a new 409 lists the "
        "decisions again and nothing is stored.",
    )

    def validate_decisions(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError("a JSON object: decision id -> keep, reconfirm or set_aside")
        return value

    def validate_reasons(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError("a JSON object: decision id -> reason")
        return value


class BridgePairRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.CharField(help_text="The pair's number in the session (with the section letter).")
    name = serializers.CharField()


class BridgeConflictSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    ns = BridgePairRefSerializer(help_text="The N-S pair, or the penalised pair.")
    ew = BridgePairRefSerializer(allow_null=True)
    upload = serializers.DictField(
        allow_null=True, help_text="The upload's result: contract, declarer, tricks, score, artificial."
    )
    decision = serializers.DictField(help_text="The decision's result (same keys), or its penalty_percent.")
    upload_text = serializers.CharField()
    decision_text = serializers.CharField()


class BridgeAffectedDecisionSerializer(serializers.Serializer):
    id = serializers.IntegerField(
        help_text="The decision's version id: the key of `decisions` and `reasons`."
    )
    version = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=[
            "correction",
            "appeal",
            "artificial_score",
            "assigned_score",
            "penalty",
            "withdrawal",
            "adjustment",
        ]
    )
    label = serializers.CharField()
    by = serializers.CharField()
    at = serializers.DateTimeField()
    reason = serializers.CharField()
    conflicts = BridgeConflictSerializer(many=True)


class BridgeDecisionsPendingSerializer(serializers.Serializer):
    detail = serializers.CharField()
    base_version = serializers.IntegerField(allow_null=True)
    changed = serializers.BooleanField(help_text="The results changed since the base_version sent.")
    warnings = serializers.ListField(
        child=serializers.CharField(),
        help_text="What a lenient read of the file took on trust (each names its line); send "
        "accept_warnings=true to save it.",
    )
    decisions = BridgeAffectedDecisionSerializer(many=True)


class BridgeVersionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    source = serializers.CharField()
    event_version = serializers.IntegerField()
    results = serializers.IntegerField()


class BridgeUploadErrorSerializer(serializers.Serializer):
    errors = serializers.ListField(child=serializers.CharField())


class PairSessionViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = BridgePairSessionSerializer
    permission_classes = [RulesPermission]
    rules_permissions = {"upload": MANAGE}

    def get_queryset(self):
        return (
            visible_sessions(self.request.user)
            .select_related("event", "announced")
            .prefetch_related("sections")
            .order_by("-event__start_date", "event_id", "number")
        )

    # The whole standings in one unpaginated list, as the schema now says (it promised pages before).
    @extend_schema(responses=BridgeSessionStandingSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def standings(self, request, pk=None):
        session = self.get_object()
        check(request, VIEW, session)
        rows = [row for _field, rows in pages.standings_by_field(session) for row in rows]
        return Response(BridgeSessionStandingSerializer(rows, many=True).data)

    @extend_schema(
        request={"multipart/form-data": BridgeUploadSerializer},
        responses={
            201: BridgeVersionSerializer,
            400: BridgeUploadErrorSerializer,
            413: BridgeUploadErrorSerializer,
            409: BridgeDecisionsPendingSerializer,
        },
        description="Uploads a PBN or CSV file as the session's new results. The decisions in force "
        "(corrections, adjusted and artificial scores, penalties, appeal decisions) are re-applied on top of "
        "the file. If the file touches any of them, nothing is stored and the answer is 409 with the list; "
        "send the same file again with `decisions` ({id: keep | reconfirm | set_aside}), `reasons` "
        "({id: why}, required to set aside) and the `base_version` of the 409.",
    )
    @action(detail=True, methods=["post"], parser_classes=[MultiPartParser, FormParser])
    def upload(self, request, pk=None):
        session = self.get_object()
        try:
            check_request_size(request)
        except UploadInputError as error:
            return Response({"errors": error.messages}, status=error.status_code)
        data = BridgeUploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        file = data.validated_data["file"]
        kind = data.validated_data.get("file_format") or upload_readers.file_kind(file.name)
        try:
            version = uploads.submit(
                session,
                kind,
                user=request.user,
                file=file,
                note=data.validated_data.get("note", ""),
                resolutions=data.validated_data.get("decisions"),
                reasons=data.validated_data.get("reasons"),
                expected_base=data.validated_data.get("base_version"),
                accept_warnings=data.validated_data["accept_warnings"],
            )
        except decisions.DecisionsPending as pending:
            if pending.changed:
                detail = _("The results changed meanwhile: check the decisions again.")
            elif pending.warnings and not data.validated_data["accept_warnings"]:
                detail = _(
                    "The file was read with warnings: read them and send it again with accept_warnings."
                )
            else:
                detail = _(
                    "The upload touches decisions in force: say for each keep, reconfirm or set_aside."
                )
            body = {
                "detail": detail,
                "warnings": list(pending.warnings),
                "base_version": pending.base.pk if pending.base else None,
                "changed": pending.changed,
                "decisions": decisions.describe(session, pending.affected),
            }
            return Response(BridgeDecisionsPendingSerializer(body).data, status=status.HTTP_409_CONFLICT)
        except uploads.UploadError as error:
            return Response({"errors": error.messages}, status=status.HTTP_400_BAD_REQUEST)
        except UploadInputError as error:
            return Response({"errors": error.messages}, status=error.status_code)
        body = {
            "id": version.pk,
            "number": version.number,
            "source": version.source,
            "event_version": version.event_version,
            "results": versions.results_of(version).count(),
        }
        return Response(BridgeVersionSerializer(body).data, status=status.HTTP_201_CREATED)


class BridgePairEventSerializer(serializers.ModelSerializer):
    sessions = serializers.SerializerMethodField()

    class Meta:
        model = Event
        fields = ["id", "title", "start_date", "sessions"]

    def get_sessions(self, event) -> list[int]:
        return [s.pk for s in event.pair_sessions.all()]


class BridgePairEventSettingsSerializer(serializers.ModelSerializer):
    """An event's scoring settings; only the announced tie-break can be changed here."""

    scoring_method = serializers.ChoiceField(
        source="method", choices=PairEvent.Method.choices, read_only=True, help_text="mp, cross-imps, butler"
    )
    tie_break = serializers.ChoiceField(
        choices=PairEvent.TieBreak.choices,
        help_text="How equal totals are separated: shared (no tie-break, equal totals share the place), "
        "head_to_head, best_boards. Only a method announced before the event may be used (VSz 26).",
    )

    class Meta:
        model = PairEvent
        fields = ["event", "scoring_method", "scale", "rounding", "tie_break"]
        read_only_fields = ["event", "scale", "rounding"]


class PairEventViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = BridgePairEventSerializer
    permission_classes = [RulesPermission]
    rules_permissions = {"change_scoring_settings": CHANGE_TIE_BREAK}
    # Only a number routes here: the settings action looks the event up itself (not through get_object,
    # which turns a malformed id into a 404), so "AAA" must not reach it.
    lookup_value_regex = "[0-9]+"

    def get_queryset(self):
        sessions = visible_sessions(self.request.user).values("event_id")
        return (
            Event.objects.filter(format=Event.Format.PAIRS, pk__in=sessions)
            .prefetch_related("pair_sessions")
            .order_by("-start_date", "pk")
        )

    # The whole standings in one unpaginated list, as the schema now says (it promised pages before).
    @extend_schema(responses=BridgeEventStandingSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def standings(self, request, pk=None):
        event = self.get_object()
        check(request, VIEW, event)
        rows = [row for _field, rows in pages.event_standings_by_field(event) for row in rows]
        return Response(BridgeEventStandingSerializer(rows, many=True).data)

    def _pair_event(self, request, pk):
        """The pair event by id, from its announcement on (results need not exist yet)."""
        events = Event.objects.filter(format=Event.Format.PAIRS)
        return object_or_deny(request, events, VIEW_SETTINGS, visible=VIEW_SETTINGS, pk=pk)

    @extend_schema(responses=BridgePairEventSettingsSerializer)
    @action(detail=True, methods=["get"], url_path="settings")
    def scoring_settings(self, request, pk=None):
        """The event's scoring settings, readable by whoever may read the event."""
        event = self._pair_event(request, pk)
        settings = PairEvent.objects.filter(event=event).first() or PairEvent(
            event=event
        )  # reads write nothing
        return Response(BridgePairEventSettingsSerializer(settings).data)

    @extend_schema(
        request=BridgePairEventSettingsSerializer,
        responses={200: BridgePairEventSettingsSerializer},
    )
    @scoring_settings.mapping.patch
    def change_scoring_settings(self, request, pk=None):
        """Set the announced tie-break (director or organiser); computed standings are recomputed."""
        event = self._pair_event(request, pk)
        self.check_object_permissions(request, event)
        settings = setup.pair_event(event)
        data = BridgePairEventSettingsSerializer(settings, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        if "tie_break" in data.validated_data:
            settings = setup.change_tie_break(event, data.validated_data["tie_break"])
        return Response(BridgePairEventSettingsSerializer(settings).data)


class BridgeCorrectionSerializer(serializers.ModelSerializer):
    result = serializers.CharField(
        write_only=True, required=False, allow_blank=True, help_text="tricks, or =, +1, -2"
    )
    score = serializers.CharField(required=False, allow_blank=True)
    ns_pair = serializers.IntegerField(source="ns.number", read_only=True)
    ew_pair = serializers.IntegerField(source="ew.number", read_only=True)
    status = serializers.CharField(read_only=True)

    class Meta:
        model = CorrectionRequest
        fields = [
            "id",
            "session",
            "board",
            "ns_pair",
            "ew_pair",
            "contract",
            "declarer",
            "lead",
            "result",
            "tricks",
            "score",
            "reason",
            "opponents_agree",
            "recorded",
            "status",
            "requested_at",
            "decided_at",
            "decision_note",
            "version",
        ]
        read_only_fields = ["tricks", "recorded", "requested_at", "decided_at", "decision_note", "version"]


class BridgeDecisionSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=500, required=False, allow_blank=True)


class CorrectionViewSet(
    mixins.CreateModelMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    serializer_class = BridgeCorrectionSerializer
    permission_classes = [RulesPermission]
    rules_permissions = {
        "create": "bridge.request_correction",
        "list": "bridge.request_correction",
        "retrieve": "bridge.request_correction",
        "approve": MANAGE,
        "refuse": MANAGE,
    }

    def get_queryset(self):
        user = self.request.user
        if not user.is_authenticated:
            return CorrectionRequest.objects.none()
        person = getattr(user, "person", None)
        own = Q(pk__in=[])
        if person is not None:
            own = Q(requester_pair__pair__player1=person) | Q(requester_pair__pair__player2=person)
        managed = Event.objects.filter(_managed_events(user)).values("pk")
        return (
            CorrectionRequest.objects.filter(own | Q(session__event__in=managed))
            .select_related("session", "ns", "ew")
            .order_by("-requested_at", "-pk")
        )

    def check_object_permissions(self, request, obj):
        # Reading a request: its pair's players or the people who run the event (the queryset already says).
        if self.action == "retrieve":
            return
        super().check_object_permissions(request, obj)

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        session = data["session"]
        if not visible_sessions(request.user).filter(pk=session.pk).exists():
            raise NotFound
        person = getattr(request.user, "person", None)
        seat = None
        if person is not None:
            seat = (
                SessionPair.objects.filter(section__session=session)
                .filter(Q(pair__player1=person) | Q(pair__player2=person))
                .first()
            )
        if seat is None:
            raise PermissionDenied
        check(request, "bridge.request_correction", seat)
        row = (
            versions.results_of(versions.latest_version(session), boards=[data["board"]])
            .filter(Q(ns=seat) | Q(ew=seat))
            .select_related("ns", "ew")
            .first()
        )
        if row is None:
            raise ValidationError({"board": ["Your pair has no result on this board."]})
        try:
            created = corrections.request_correction(
                session,
                board=data["board"],
                ns=row.ns,
                ew=row.ew,
                requester=seat,
                contract=data.get("contract", ""),
                declarer=data.get("declarer", ""),
                lead=data.get("lead", ""),
                result=data.get("result", ""),
                score=data.get("score", ""),
                reason=data["reason"],
                opponents_agree=data.get("opponents_agree", False),
                user=request.user,
            )
        except corrections.CorrectionRefused as error:
            raise ValidationError({"non_field_errors": [str(error)]})
        return Response(self.get_serializer(created).data, status=status.HTTP_201_CREATED)

    def _decide(self, request, approve):
        correction = self.get_object()
        decision = BridgeDecisionSerializer(data=request.data)
        decision.is_valid(raise_exception=True)
        try:
            decided = corrections.decide(
                correction, approve=approve, user=request.user, note=decision.validated_data.get("note", "")
            )
        except corrections.CorrectionRefused as error:
            raise ValidationError({"non_field_errors": [str(error)]})
        return Response(self.get_serializer(decided).data)

    @extend_schema(request=BridgeDecisionSerializer, responses=BridgeCorrectionSerializer)
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        return self._decide(request, True)

    @extend_schema(request=BridgeDecisionSerializer, responses=BridgeCorrectionSerializer)
    @action(detail=True, methods=["post"])
    def refuse(self, request, pk=None):
        return self._decide(request, False)


def register(router):
    router.register("bridge/sessions", PairSessionViewSet, basename="bridge-session")
    router.register("bridge/events", PairEventViewSet, basename="bridge-event")
    router.register("bridge/corrections", CorrectionViewSet, basename="bridge-correction")
