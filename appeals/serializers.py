"""Serializers of the appeals API: what the public sees of a case, the case file for insiders, the inputs."""

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .models import (
    Appeal,
    Attachment,
    CommitteeMember,
    Consent,
    Decision,
    DisciplinaryDecision,
    DisciplinaryReport,
    Measure,
    PanelSeat,
    Statement,
    TimelineEntry,
    Vote,
)
from .queries import anonymised_for


def _enum(choices):
    """A read-only choice field with its values inlined: several models' "status" enums would collide."""

    @extend_schema_field({"type": "string", "enum": [value for value, _label in choices]})
    class ChoiceValue(serializers.CharField):
        pass

    return ChoiceValue(read_only=True)


class DecisionSerializer(serializers.ModelSerializer):
    instance = _enum(Decision.Instance.choices)
    status = _enum(Decision.Status.choices)
    outcome = _enum(Decision.Outcome.choices)

    class Meta:
        model = Decision
        fields = ["id", "instance", "status", "published_at", "effect", "refusal", *Decision.INPUT_FIELDS]
        read_only_fields = fields


class SeatSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="member.name", read_only=True)
    alternate = serializers.BooleanField(source="member.is_alternate", read_only=True)

    class Meta:
        model = PanelSeat
        fields = ["member", "name", "alternate", "seated_at"]


class StatementSerializer(serializers.ModelSerializer):
    class Meta:
        model = Statement
        fields = ["id", "speaker", "speaker_name", "text", "recorded_at"]
        read_only_fields = ["id", "recorded_at"]


class TimelineSerializer(serializers.ModelSerializer):
    action = _enum(TimelineEntry.Action.choices)
    actor = serializers.SerializerMethodField()

    class Meta:
        model = TimelineEntry
        fields = ["at", "action", "actor", "note"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_actor(self, row):
        return row.actor.email if row.actor_id else None


class ConsentSerializer(serializers.ModelSerializer):
    person = serializers.CharField(source="person.full_name", read_only=True)

    class Meta:
        model = Consent
        fields = ["person", "agreed_at", "declined_at"]


class AttachmentSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()

    class Meta:
        model = Attachment
        fields = ["id", "original_name", "content_type", "size", "uploaded_at", "url"]

    @extend_schema_field(serializers.CharField())
    def get_url(self, attachment):
        return reverse("appeal_attachment", args=[attachment.appeal_id, attachment.pk])


class VoteOutSerializer(serializers.ModelSerializer):
    instance = serializers.CharField(source="decision.instance", read_only=True)
    name = serializers.SerializerMethodField()

    class Meta:
        model = Vote
        fields = ["decision", "instance", "user", "name", "agrees", "comment", "voted_at"]
        read_only_fields = fields

    def get_name(self, vote) -> str:
        person = getattr(vote.user, "person", None)
        return person.full_name if person else (vote.user.get_full_name() or vote.user.email)


class CaseFileSerializer(serializers.ModelSerializer):
    """What only the case's insiders see: statements, the panel, votes, attachments, the timeline."""

    votes = serializers.SerializerMethodField()

    panel = SeatSerializer(many=True, read_only=True)
    statements = StatementSerializer(many=True, read_only=True)
    consents = ConsentSerializer(many=True, read_only=True)
    attachments = AttachmentSerializer(many=True, read_only=True)
    timeline = TimelineSerializer(many=True, read_only=True)

    class Meta:
        model = Appeal
        fields = [
            "statement",
            "filed_at",
            "deposit_paid_at",
            "appellant_pair",
            "panel",
            "votes",
            "statements",
            "consents",
            "attachments",
            "timeline",
        ]

    def get_votes(self, appeal) -> list[dict]:
        """Every member's vote on every decision: the panel's at first instance, the ethics committee's at
        the second."""
        found = Vote.objects.filter(decision__appeal=appeal).select_related("decision", "user__person")
        return VoteOutSerializer(found.order_by("voted_at", "pk"), many=True).data


class AppealSerializer(serializers.ModelSerializer):
    status = _enum(Appeal.Status.choices)
    deposit_outcome = _enum(Appeal.Deposit.choices)
    event_title = serializers.CharField(source="event.title", read_only=True)
    session_name = serializers.CharField(source="session.__str__", read_only=True)
    appellant = serializers.SerializerMethodField()
    opponents = serializers.SerializerMethodField()
    decisions = serializers.SerializerMethodField()
    case_file = serializers.SerializerMethodField()

    class Meta:
        model = Appeal
        fields = [
            "id",
            "reference",
            "event",
            "event_title",
            "session",
            "session_name",
            "board_number",
            "ns_pair",
            "ew_pair",
            "appellant",
            "opponents",
            "director_name",
            "ruling",
            "request",
            "status",
            "deposit_amount",
            "deposit_outcome",
            "decisions",
            "case_file",
        ]

    def _reader(self):
        return self.context["request"].user

    def _name(self, appeal, entry):
        if entry is None:
            return None
        return None if anonymised_for(self._reader(), appeal) else entry.display_name

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_appellant(self, appeal):
        return self._name(appeal, appeal.entry)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_opponents(self, appeal):
        return self._name(appeal, appeal.respondent_entry)

    @extend_schema_field(DecisionSerializer(many=True))
    def get_decisions(self, appeal):
        insider = self._reader().has_perm("appeals.view_case_file", appeal)
        rows = [d for d in appeal.decisions.all() if insider or d.published_at]
        return DecisionSerializer(rows, many=True).data

    @extend_schema_field(CaseFileSerializer(allow_null=True))
    def get_case_file(self, appeal):
        if not self._reader().has_perm("appeals.view_case_file", appeal):
            return None
        return CaseFileSerializer(appeal).data


class FileAppealSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    entry = serializers.IntegerField(help_text="The appellant's entry (the caller plays in it).")
    respondent_entry = serializers.IntegerField(required=False, allow_null=True)
    board_number = serializers.IntegerField(min_value=1)
    ns_pair = serializers.CharField(max_length=10, required=False, allow_blank=True, default="")
    ew_pair = serializers.CharField(max_length=10, required=False, allow_blank=True, default="")
    appellant_pair = serializers.CharField(max_length=10, required=False, allow_blank=True, default="")
    director = serializers.IntegerField(required=False, allow_null=True, help_text="User id of the director.")
    director_name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    ruling = serializers.CharField()
    request = serializers.CharField()
    statement = serializers.CharField()


class SeatRequestSerializer(serializers.Serializer):
    member = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="A committee member to seat; empty: seat an impartial panel.",
    )


class DecisionInputSerializer(serializers.ModelSerializer):
    ulti_forints = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text='Ulti: the table\'s corrected forints by start number, e.g. {"12": 300, "5": -100, "31": -200}.',
    )

    class Meta:
        model = Decision
        fields = Decision.INPUT_FIELDS


class VoteSerializer(serializers.Serializer):
    decision = serializers.IntegerField()
    agrees = serializers.BooleanField()
    comment = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class PublishSerializer(serializers.Serializer):
    decision = serializers.IntegerField()


class WithdrawProposalSerializer(serializers.Serializer):
    decision = serializers.IntegerField(help_text="The proposal being voted on.")
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class SecondAppealInputSerializer(serializers.Serializer):
    statement = serializers.CharField()


class UploadSerializer(serializers.Serializer):
    file = serializers.FileField()


class CommitteeMemberSerializer(serializers.ModelSerializer):
    name = serializers.CharField(read_only=True)

    class Meta:
        model = CommitteeMember
        fields = [
            "id",
            "user",
            "name",
            "is_alternate",
            "added_at",
            "leave_requested_at",
            "leave_reason",
            "left_at",
            "replaces",
            "stepped_in_at",
        ]
        read_only_fields = [
            "id",
            "name",
            "added_at",
            "leave_requested_at",
            "leave_reason",
            "left_at",
            "replaces",
            "stepped_in_at",
        ]


class LeaveInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class LeaveDecisionInputSerializer(serializers.Serializer):
    member = serializers.IntegerField(help_text="The committee member who asked to leave.")
    consents = serializers.BooleanField()


class EventDeskSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    needs_committee = serializers.BooleanField()
    committee = CommitteeMemberSerializer(many=True)
    started_at = serializers.DateTimeField(allow_null=True)
    can_start = serializers.BooleanField()
    problem = serializers.CharField(allow_blank=True)
    sessions = serializers.ListField(child=serializers.DictField())


class IntentionInputSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    entry = serializers.IntegerField()
    board_number = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class SessionEndInputSerializer(serializers.Serializer):
    session = serializers.IntegerField()


class MeasureSerializer(serializers.ModelSerializer):
    kind = serializers.ChoiceField(choices=Measure.Kind.choices)
    status = _enum(Measure.Status.choices)
    person_name = serializers.CharField(source="person.full_name", read_only=True)

    class Meta:
        model = Measure
        fields = [
            "id",
            "event",
            "session",
            "person",
            "person_name",
            "kind",
            "percent",
            "points",
            "reason",
            "status",
            "taken_at",
            "consent_at",
            "effect",
        ]
        read_only_fields = ["id", "status", "taken_at", "consent_at", "effect"]


class ConsentInputSerializer(serializers.Serializer):
    agrees = serializers.BooleanField()


class ReportSerializer(serializers.ModelSerializer):
    status = _enum(DisciplinaryReport.Status.choices)
    person_name = serializers.CharField(source="person.full_name", read_only=True)
    outcome = serializers.SerializerMethodField()

    class Meta:
        model = DisciplinaryReport
        fields = [
            "id",
            "federation",
            "event",
            "person",
            "person_name",
            "text",
            "status",
            "reported_at",
            "outcome",
        ]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_outcome(self, report):
        decision = getattr(report, "decision", None)
        return decision.outcome if decision else None


class DisciplineDecisionInputSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=DisciplinaryDecision.Outcome.choices)
    text = serializers.CharField()
    starts_on = serializers.DateField(required=False, allow_null=True)
    ends_on = serializers.DateField(required=False, allow_null=True)
