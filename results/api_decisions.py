"""The API side of decisions as layers (results.upload_decisions), shared by the team and ulti uploads.

An upload that covers decisions in force without a resolution answers 409 with the list and stores nothing;
the client sends it again with ``decisions`` ({"<id>": "keep" | "reconfirm" | "set_aside"}), ``reasons``
({"<id>": "why"}, needed to set one aside) and ``based_on_version`` (from the 409: refused when the results
changed meanwhile).
"""

from django.utils.translation import gettext as _
from rest_framework import serializers, status
from rest_framework.response import Response

from .upload_decisions import CHOICES, DecisionsPending


class DecisionChangeSerializer(serializers.Serializer):
    what = serializers.CharField(
        help_text="The board, the match's IMP result, a player's forints at a table."
    )
    upload = serializers.CharField(help_text="What the upload says.")
    decision = serializers.CharField(help_text="What the decision says.")


class AffectedDecisionSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The decision's id: the key in `decisions` and `reasons`.")
    version = serializers.IntegerField(help_text="The result version the decision made.")
    kind = serializers.ChoiceField(choices=["correction", "adjustment", "appeal"])
    kind_label = serializers.CharField()
    by = serializers.CharField(help_text="Who decided (name).")
    at = serializers.DateTimeField()
    reason = serializers.CharField(help_text="Why (the decision's note).")
    match = serializers.CharField(required=False, help_text="Teams: the match.")
    teams = serializers.ListField(child=serializers.CharField(), required=False, help_text="Teams: by name.")
    round = serializers.IntegerField(required=False, help_text="Ulti: the round number.")
    tables = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="Ulti: tables."
    )
    players = serializers.ListField(child=serializers.CharField(), required=False, help_text="Ulti: by name.")
    changes = DecisionChangeSerializer(many=True)


class DecisionsPendingSerializer(serializers.Serializer):
    detail = serializers.CharField()
    based_on_version = serializers.IntegerField()
    decisions = AffectedDecisionSerializer(many=True)


class ResolutionFields(serializers.Serializer):
    """Mixed into an upload's request serializer."""

    decisions = serializers.DictField(
        child=serializers.ChoiceField(choices=[str(c) for c in CHOICES]),
        required=False,
        help_text='Per decision id of a 409 answer: "keep" (re-applied on top, the default answer), '
        '"reconfirm" or "set_aside".',
    )
    reasons = serializers.DictField(
        child=serializers.CharField(max_length=500, allow_blank=True),
        required=False,
        help_text="Per decision id: why it is set aside (required for set_aside).",
    )
    based_on_version = serializers.IntegerField(
        required=False, min_value=0, help_text="The based_on_version of the 409 answer."
    )


def resolution(values) -> dict:
    """The service keywords from the validated request."""
    return {
        "decisions": values.get("decisions"),
        "reasons": values.get("reasons"),
        "based_on": values.get("based_on_version"),
    }


def conflict(pending: DecisionsPending) -> Response:
    body = {
        "detail": _("The upload covers decisions in force: send it again with a choice for each decision."),
        "based_on_version": pending.based_on,
        "decisions": pending.affected,
    }
    return Response(body, status=status.HTTP_409_CONFLICT)
