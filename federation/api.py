from django.contrib.auth import get_user_model
from django.core.validators import validate_email
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from .api_permissions import RulesPermission
from .models import Club, Federation, Membership, Person, Region, Role


class FederationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Federation
        fields = ["id", "code", "name", "short_name", "game", "website"]


class RegionSerializer(serializers.ModelSerializer):
    counties = serializers.SlugRelatedField(many=True, read_only=True, slug_field="name")
    federation = serializers.SlugRelatedField(read_only=True, slug_field="code")

    class Meta:
        model = Region
        fields = ["id", "federation", "code", "name", "counties"]


class ClubSerializer(serializers.ModelSerializer):
    federation = serializers.SlugRelatedField(read_only=True, slug_field="code")
    # Clubs of a federation without regions (MBSz) have none.
    region = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    # Validated like an EmailField, but published as a plain string: Django accepts internationalised
    # domains (info@pannónia.example.hu is a real club's address), OpenAPI's `format: email` does not.
    email = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=254,
        help_text="E-mail address; internationalised (IDN) domains are allowed and kept as written.",
    )

    class Meta:
        model = Club
        fields = [
            "id",
            "federation",
            "name",
            "short_name",
            "region",
            "postcode",
            "city",
            "address",
            "contact_name",
            "email",
            "phone",
            "website",
            "is_active",
        ]
        read_only_fields = ["id", "federation", "region"]

    def validate_email(self, value):
        if value:
            validate_email(value)
        return value


class MembershipPublicSerializer(serializers.ModelSerializer):
    federation = serializers.SlugRelatedField(read_only=True, slug_field="code")
    club = serializers.StringRelatedField()

    class Meta:
        model = Membership
        fields = ["federation", "member_number", "club"]


class PersonPublicSerializer(serializers.ModelSerializer):
    """What anybody may see of a player: no birth date, phone or e-mail."""

    name = serializers.CharField(source="full_name", read_only=True)
    memberships = MembershipPublicSerializer(many=True, read_only=True)

    class Meta:
        model = Person
        fields = ["id", "name", "memberships"]


class PersonPrivateSerializer(PersonPublicSerializer):
    class Meta(PersonPublicSerializer.Meta):
        fields = PersonPublicSerializer.Meta.fields + [
            "birth_date",
            "gender",
            "citizenship",
            "resident_in_hungary",
            "email",
            "phone",
        ]


class FederationViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Federation.objects.all()
    serializer_class = FederationSerializer
    search_fields = ["name", "short_name", "code"]


class RegionViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Region.objects.select_related("federation").prefetch_related("counties")
    serializer_class = RegionSerializer
    filterset_fields = ["federation__code"]


class ClubViewSet(mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    queryset = Club.objects.select_related("federation")
    serializer_class = ClubSerializer
    permission_classes = [RulesPermission]
    rules_permissions = {"update": "federation.change_club", "partial_update": "federation.change_club"}
    filterset_fields = ["federation__code", "region", "is_active"]
    search_fields = ["name", "city"]


class PersonViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Person.objects.prefetch_related("memberships__federation", "memberships__club")
    serializer_class = PersonPublicSerializer
    search_fields = ["last_name", "first_name", "memberships__member_number"]
    filterset_fields = ["memberships__federation__code", "memberships__club"]

    def get_serializer_class(self):
        if getattr(self, "swagger_fake_view", False):
            return PersonPublicSerializer
        if self.action == "retrieve" and self.request.user.has_perm(
            "federation.view_person_private", self.get_object()
        ):
            return PersonPrivateSerializer
        return PersonPublicSerializer


class RoleSerializer(serializers.ModelSerializer):
    class Meta:
        model = Role
        fields = ["kind", "federation", "club", "event"]


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    email = serializers.EmailField()
    person = PersonPrivateSerializer(allow_null=True)
    roles = RoleSerializer(many=True)


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=MeSerializer)
    def get(self, request):
        user = get_user_model().objects.get(pk=request.user.pk)
        data = {
            "id": user.pk,
            "email": user.email,
            "person": getattr(user, "person", None),
            "roles": user.portal_roles.all(),
        }
        return Response(MeSerializer(data).data)
