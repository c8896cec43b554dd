"""API of the rankings app; `register(router)` is called from config/api.py."""

import django_filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from config.query import BoundedFilterSet
from federation.access import check
from federation.api_permissions import RulesPermission
from federation.models import Federation

from .engine import awards as award_engine
from .engine.standings_list import place_label
from .models import Award, AwardScheme, ListEntry, PlayerRating, Qualification, SeasonEntry
from .services.schemes import change_scheme
from .services.season import respond
from .text import fold


class ListEntrySerializer(serializers.ModelSerializer):
    federation = serializers.SlugRelatedField(read_only=True, slug_field="code")
    place = serializers.SerializerMethodField()

    class Meta:
        model = ListEntry
        fields = [
            "federation",
            "kind",
            "year",
            "position",
            "place",
            "place_from",
            "place_to",
            "person",
            "name",
            "member_number",
            "club",
            "club_name",
            "region",
            "age_category",
            "total",
            "events",
            "provisional",
            "qualification",
            "data_version",
        ]

    def get_place(self, obj) -> str:
        return place_label(obj.place_from, obj.place_to)


class ListEntryFilter(BoundedFilterSet):
    federation = django_filters.CharFilter(field_name="federation__code")
    category = django_filters.ChoiceFilter(
        choices=[("junior", "junior"), ("senior", "senior"), ("women", "women")], method="filter_category"
    )
    q = django_filters.CharFilter(method="filter_q")

    class Meta:
        model = ListEntry
        fields = ["federation", "kind", "year", "club", "region", "person"]

    def filter_category(self, queryset, name, value):
        if value == "women":
            return queryset.filter(is_female=True)
        return queryset.filter(age_category=value)

    def filter_q(self, queryset, name, value):
        return queryset.filter(search_key__contains=fold(value))


class ListEntryViewSet(viewsets.ReadOnlyModelViewSet):
    """Stored ranking lists (annual, all-time, rating); filter by federation, kind and year."""

    queryset = ListEntry.objects.select_related("federation").order_by(
        "federation", "kind", "year", "position"
    )
    serializer_class = ListEntrySerializer
    filterset_class = ListEntryFilter
    search_fields = []
    ordering_fields = ["position"]


class AwardSerializer(serializers.ModelSerializer):
    federation = serializers.SlugRelatedField(read_only=True, slug_field="code")
    version = serializers.IntegerField(source="version.version", read_only=True)

    class Meta:
        model = Award
        fields = [
            "id",
            "federation",
            "event",
            "person",
            "date",
            "amount",
            "reason",
            "version",
            "place_from",
            "place_to",
            "event_class",
            "is_current",
        ]


class AwardViewSet(viewsets.ReadOnlyModelViewSet):
    """The masterpoint ledger: every award of every version (``is_current`` marks the counting ones)."""

    queryset = Award.objects.select_related("federation", "version").order_by(
        "date", "event_id", "person_id", "pk"
    )
    serializer_class = AwardSerializer
    filterset_fields = ["federation__code", "person", "event", "is_current", "year"]
    search_fields = []


class PlayerRatingSerializer(serializers.ModelSerializer):
    federation = serializers.SlugRelatedField(read_only=True, slug_field="code")

    class Meta:
        model = PlayerRating
        fields = [
            "federation",
            "person",
            "display",
            "mu",
            "sigma",
            "tables",
            "events",
            "provisional",
            "last_date",
        ]


class PlayerRatingViewSet(viewsets.ReadOnlyModelViewSet):
    """Current live ratings (értékszám)."""

    queryset = PlayerRating.objects.select_related("federation").order_by("-display", "person_id")
    serializer_class = PlayerRatingSerializer
    filterset_fields = ["federation__code", "person", "provisional"]
    search_fields = []


class AwardSchemeSerializer(serializers.ModelSerializer):
    federation = serializers.SlugRelatedField(slug_field="code", queryset=Federation.objects.all())

    class Meta:
        model = AwardScheme
        fields = ["id", "federation", "version", "valid_from", "rules", "note", "created_at"]
        read_only_fields = ["id", "version", "created_at"]

    def validate_rules(self, value):
        try:
            award_engine.scheme_from_dict(value)
        except award_engine.SchemeError as error:
            raise serializers.ValidationError(str(error))
        return value


class AwardSchemeViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Award scheme versions; staff of a federation create a new version (re-awards in Celery)."""

    queryset = AwardScheme.objects.select_related("federation").order_by("federation", "-version")
    serializer_class = AwardSchemeSerializer
    permission_classes = [RulesPermission]
    rules_permissions = {"create": "rankings.change_scheme"}
    filterset_fields = ["federation__code"]
    search_fields = []

    def perform_create(self, serializer):
        federation = serializer.validated_data["federation"]
        check(self.request, "rankings.change_scheme", federation)
        serializer.instance = change_scheme(
            federation,
            serializer.validated_data["rules"],
            serializer.validated_data["valid_from"],
            serializer.validated_data.get("note", ""),
            self.request.user,
        )


class SeasonEntrySerializer(serializers.ModelSerializer):
    season = serializers.IntegerField(source="season.year", read_only=True)
    place = serializers.CharField(read_only=True)

    class Meta:
        model = SeasonEntry
        fields = [
            "season",
            "stage",
            "person",
            "name",
            "region",
            "attended",
            "points",
            "forint",
            "eligible",
            "position",
            "place",
            "status",
            "reserve_position",
            "results",
        ]


class SeasonEntryViewSet(viewsets.ReadOnlyModelViewSet):
    """NUB season tables: qualifiers and semifinal with status and reserve order, sport ulti invitations."""

    queryset = SeasonEntry.objects.select_related("season").order_by(
        "season", "stage", "eligible", "position", "pk"
    )
    serializer_class = SeasonEntrySerializer
    filterset_fields = ["season__year", "season__federation__code", "stage", "status", "person"]
    search_fields = []


class QualificationSerializer(serializers.ModelSerializer):
    season = serializers.IntegerField(source="season.year", read_only=True)

    class Meta:
        model = Qualification
        fields = [
            "id",
            "season",
            "stage",
            "person",
            "rank",
            "via",
            "status",
            "invited_at",
            "deadline",
            "responded_at",
        ]
        read_only_fields = fields


class QualificationViewSet(viewsets.ReadOnlyModelViewSet):
    """The signed-in player's NUB invitations; confirm or give up a place before the deadline."""

    serializer_class = QualificationSerializer
    permission_classes = [IsAuthenticated]
    search_fields = []
    filterset_fields = ["stage", "status"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Qualification.objects.none()
        return (
            Qualification.objects.filter(person__user=self.request.user)
            .select_related("season")
            .order_by("-pk")
        )

    def _answer(self, request, accept):
        q = self.get_object()
        check(request, "rankings.respond_qualification", q)
        return Response(QualificationSerializer(respond(q, accept)).data)

    @extend_schema(request=None, responses=QualificationSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        return self._answer(request, True)

    @extend_schema(request=None, responses=QualificationSerializer)
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        return self._answer(request, False)


def register(router):
    router.register("rankings/lists", ListEntryViewSet, basename="ranking-list")
    router.register("rankings/awards", AwardViewSet, basename="ranking-award")
    router.register("rankings/ratings", PlayerRatingViewSet, basename="ranking-rating")
    router.register("rankings/schemes", AwardSchemeViewSet, basename="ranking-scheme")
    router.register("rankings/season-entries", SeasonEntryViewSet, basename="ranking-season-entry")
    router.register("rankings/qualifications", QualificationViewSet, basename="ranking-qualification")
