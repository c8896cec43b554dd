"""API viewsets of the tournaments app; `register(router)` is called from config/api.py.

Events: list (the calendar filters) and detail. Entries: list per event, create, withdraw, confirm and
decline, through the same services and `rules` permissions as the pages.
"""

from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from federation.api_permissions import RulesPermission

from .engine import fees
from .filters import EventFilter
from .models import Division, Entry, EntryMember, Event, Session
from .queries import visible_events
from .refusals import Refused
from .services import entries as service
from .services.ledger import fee_terms
from .services.player_facts import find_player

OPEN = (Entry.Status.ACTIVE, Entry.Status.WAITING)


def _status_field(choices):
    """A read-only status with its values inlined: two models' "status" enums would collide in the schema."""

    @extend_schema_field({"type": "string", "enum": [value for value, _label in choices]})
    class StatusField(serializers.CharField):
        pass

    return StatusField(read_only=True)


class SessionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Session
        fields = ["name", "starts_at"]


class DivisionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Division
        fields = ["id", "name"]


class EventSerializer(serializers.ModelSerializer):
    federation = serializers.SlugRelatedField(read_only=True, slug_field="code")
    club_name = serializers.CharField(source="club.name", read_only=True, default="")
    status = _status_field(Event.Status.choices)
    open_for_entry = serializers.SerializerMethodField()
    places_left = serializers.SerializerMethodField()
    sessions = SessionSerializer(many=True, read_only=True)
    divisions = DivisionSerializer(many=True, read_only=True)
    fee_per_player = serializers.SerializerMethodField()
    licence_required = serializers.BooleanField(source="needs_licence", read_only=True)

    class Meta:
        model = Event
        fields = [
            "id",
            "title",
            "federation",
            "club",
            "club_name",
            "region",
            "format",
            "event_class",
            "status",
            "start_date",
            "end_date",
            "venue",
            "entry_deadline",
            "capacity",
            "places_left",
            "open_for_entry",
            "in_federation_calendar",
            "season",
            "qualifier_number",
            "movement",
            "boards",
            "sessions",
            "divisions",
            "venue_address",
            "organiser_name",
            "organiser_address",
            "organiser_phone",
            "director_name",
            "entry_fee",
            "junior_entry_fee",
            "fee_per_player",
            "meal_fee",
            "meal_compulsory",
            "lodging",
            "masterpoint_multiplier",
            "scoring_program",
            "earns_rating",
            "prizes",
            "rule_set",
            "members_only",
            "citizens_only",
            "residency_required",
            "gender_restriction",
            "age_restriction",
            "licence_required",
            "appeal_deadline_minutes",
            "appeal_deposit",
            "notes",
        ]

    @extend_schema_field(serializers.BooleanField())
    def get_open_for_entry(self, event):
        return event.is_open_for_entry()

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_places_left(self, event):
        return event.places_left()

    @extend_schema_field(serializers.IntegerField())
    def get_fee_per_player(self, event):
        return fees.player_fee(fee_terms(event), junior=False).total


class EntryPlayerSerializer(serializers.ModelSerializer):
    """A player as the public sees him: name and club only."""

    name = serializers.CharField(source="person.full_name", read_only=True)
    club = serializers.CharField(source="home_club.name", read_only=True, default="")
    confirmed = serializers.SerializerMethodField()

    class Meta:
        model = EntryMember
        fields = ["name", "club", "line", "confirmed"]

    @extend_schema_field(serializers.BooleanField())
    def get_confirmed(self, member):
        return member.confirmed_at is not None


class EntrySerializer(serializers.ModelSerializer):
    players = EntryPlayerSerializer(source="members", many=True, read_only=True)
    division = serializers.StringRelatedField(allow_null=True)  # null: the event has no divisions
    status = _status_field(Entry.Status.choices)
    waiting_position = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = ["id", "event", "division", "team_name", "status", "waiting_position", "players"]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_waiting_position(self, entry):
        return entry.waiting_position()


class EntryCreateSerializer(serializers.Serializer):
    event = serializers.PrimaryKeyRelatedField(queryset=Event.objects.all())
    division = serializers.IntegerField(required=False, allow_null=True)
    team_name = serializers.CharField(required=False, allow_blank=True, default="")
    member_numbers = serializers.ListField(
        child=serializers.CharField(max_length=20),
        required=False,
        default=list,
        help_text="The other players' member numbers (partner, team mates in line order); "
        "with by_organiser every player's, the captain first.",
    )
    by_organiser = serializers.BooleanField(required=False, default=False)
    over_capacity = serializers.BooleanField(required=False, default=False)


class EventViewSet(viewsets.ReadOnlyModelViewSet):
    """The calendar: the list takes the calendar's filters; each event carries its whole announcement."""

    serializer_class = EventSerializer
    filterset_class = EventFilter
    search_fields = ["title", "venue"]
    ordering_fields = ["start_date", "title"]

    def get_queryset(self):
        return (
            visible_events(self.request.user)
            .select_related("federation", "club", "region")
            .prefetch_related("sessions", "divisions")
            .order_by("start_date", "title")
        )

    @extend_schema(responses=EntrySerializer(many=True), filters=False)
    @action(detail=True, filterset_class=None, search_fields=[], ordering_fields=[])
    def entries(self, request, pk=None):
        event = self.get_object()
        members = Prefetch("members", queryset=EntryMember.objects.select_related("person", "home_club"))
        entries = (
            event.entries.filter(status__in=OPEN)
            .select_related("division", "event")
            .prefetch_related(members)
            .order_by("status", "waiting_since", "entered_at", "pk")
        )
        page = self.paginate_queryset(entries)
        return self.get_paginated_response(EntrySerializer(page, many=True).data)


class EntryViewSet(
    mixins.CreateModelMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    permission_classes = [RulesPermission]
    rules_permissions = {
        "create": "tournaments.create_entry",
        "withdraw": "tournaments.withdraw_entry",
        "confirm": "tournaments.respond_to_entry",
        "decline": "tournaments.respond_to_entry",
    }
    filterset_fields = ["event", "status"]
    search_fields = []
    ordering_fields = ["entered_at"]

    def get_queryset(self):
        members = Prefetch("members", queryset=EntryMember.objects.select_related("person", "home_club"))
        entries = (
            Entry.objects.filter(event__in=visible_events(self.request.user))
            .select_related("division", "event")
            .prefetch_related(members)
            .order_by("event", "entered_at", "pk")
        )
        if self.action in ("list", "retrieve"):
            entries = entries.filter(status__in=OPEN)
        return entries

    def get_serializer_class(self):
        return EntryCreateSerializer if self.action == "create" else EntrySerializer

    @extend_schema(request=EntryCreateSerializer, responses={201: EntrySerializer})
    def create(self, request, *args, **kwargs):
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        event = d["event"]
        if not request.user.has_perm("tournaments.view_event", event):
            raise ValidationError({"event": ["No such event."]})
        try:
            players = [find_player(event, n) for n in d["member_numbers"]]
            if not d["by_organiser"]:
                person = getattr(request.user, "person", None)
                players = ([person] if person else []) + players
            entry = service.create_entry(
                event.pk,
                request.user,
                players,
                division_id=d.get("division"),
                team_name=d["team_name"],
                by_organiser=d["by_organiser"],
                over_capacity=d["over_capacity"],
            )
        except Refused as refused:
            raise ValidationError({"detail": refused.messages})
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    def _step(self, request, step):
        entry = self.get_object()
        try:
            entry = step(entry.pk, request.user)
        except Refused as refused:
            raise ValidationError({"detail": refused.messages})
        entry = Entry.objects.prefetch_related("members__person", "members__home_club").get(pk=entry.pk)
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=None, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        return self._step(request, service.withdraw)

    @extend_schema(request=None, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        return self._step(request, service.confirm)

    @extend_schema(request=None, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        return self._step(request, service.decline)


def register(router):
    router.register("events", EventViewSet, basename="event")
    router.register("entries", EntryViewSet, basename="entry")
