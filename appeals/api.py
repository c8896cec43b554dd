"""API viewsets of the appeals app; `register(router)` is called from config/api.py.

Every step goes through the same services and `rules` permissions as the pages: cases (file, agree, decline,
withdraw, deposit, panel, statements, decisions and votes, second instance, attachments), the appeals desk of
an event (committee, start, session ends, intentions), the director's measures and the disciplinary reports.
A refusal of a service is a 400 with its messages; a case the caller may not see is a 404.
"""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response

from federation.access import check
from federation.api_permissions import RulesPermission
from federation.models import Role
from tournaments.models import Entry, Event, Session

from . import serializers as s
from .models import CommitteeMember, Decision, DisciplinaryReport, Intention, Measure, PanelSeat
from .queries import visible_appeals
from .services import attachments, committee, discipline, filing, hearing, panel, second_instance
from .services import decision as decisions


def _refusal(error: DjangoValidationError):
    if hasattr(error, "error_dict"):
        return ValidationError(
            {k: [str(m) for e in v for m in e.messages] for k, v in error.error_dict.items()}
        )
    return ValidationError({"detail": error.messages})


def run(call):
    try:
        return call()
    except DjangoValidationError as error:
        raise _refusal(error)


class AppealViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Appeals: the public sees decided cases (anonymised where the federation says so), insiders the file."""

    permission_classes = [RulesPermission]
    serializer_class = s.AppealSerializer
    filterset_fields = ["event", "status"]
    search_fields = []
    ordering_fields = ["filed_at"]
    rules_permissions = {
        "create": "appeals.file_appeal",
        "agree": "appeals.respond_to_appeal",
        "decline": "appeals.respond_to_appeal",
        "withdraw": "appeals.respond_to_appeal",
        "deposit": "appeals.confirm_deposit",
        "panel": "appeals.form_panel",
        "statements": "appeals.hear_case",
        "decisions": "appeals.hear_case",
        "vote": "appeals.hear_case",
        "publish": "appeals.hear_case",
        "withdraw_proposal": "appeals.withdraw_proposal",
        "attachments": "appeals.add_attachment",
        "second_instance": "appeals.file_second_instance",
        "second_deposit": "appeals.confirm_second_deposit",
        "second_decision": "appeals.decide_second_instance",
        "second_vote": "appeals.decide_second_instance",
    }

    def get_queryset(self):
        return visible_appeals(self.request.user).prefetch_related(
            "entry__members__person",
            "respondent_entry__members__person",
            "decisions",
            Prefetch("panel", queryset=PanelSeat.objects.select_related("member__user", "member__person")),
        )

    def _reply(self, appeal, code=status.HTTP_200_OK):
        appeal = self.get_queryset().get(pk=appeal.pk)
        return Response(s.AppealSerializer(appeal, context=self.get_serializer_context()).data, status=code)

    @extend_schema(request=s.FileAppealSerializer, responses={201: s.AppealSerializer})
    def create(self, request, *args, **kwargs):
        data = s.FileAppealSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        session = Session.objects.filter(pk=d["session"]).select_related("event").first()
        if session is None or not request.user.has_perm("tournaments.view_event", session.event):
            raise ValidationError({"session": [_("No such session.")]})
        entries = Entry.objects.filter(event=session.event_id)
        entry = entries.filter(pk=d["entry"]).first()
        if entry is None:
            raise ValidationError({"entry": [_("No such entry in this event.")]})
        respondent = None
        if d.get("respondent_entry"):
            respondent = entries.filter(pk=d["respondent_entry"]).first()
            if respondent is None:
                raise ValidationError({"respondent_entry": [_("No such entry in this event.")]})
        director = None
        if d.get("director"):
            # Only among the event's directors, as on the form (issue #15): never any user id.
            director = filing.event_directors(session.event).filter(pk=d["director"]).first()
            if director is None:
                raise ValidationError(
                    {"director": [_("Choose the director who ruled among this event's directors.")]}
                )
        appeal = run(
            lambda: filing.file_appeal(
                request.user,
                session=session,
                entry=entry,
                respondent_entry=respondent,
                director=director,
                **{k: d[k] for k in ("board_number", "ruling", "request", "statement", "ns_pair", "ew_pair")},
                director_name=d["director_name"],
                appellant_pair=d["appellant_pair"],
            )
        )
        return self._reply(appeal, status.HTTP_201_CREATED)

    def _step(self, step):
        appeal = self.get_object()
        run(lambda: step(appeal, self.request.user))
        return self._reply(appeal)

    @extend_schema(request=None, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"])
    def agree(self, request, pk=None):
        """The partner agrees to the appeal (pairs: both partners must, VSz 22)."""
        return self._step(filing.agree)

    @extend_schema(request=None, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        return self._step(filing.decline)

    @extend_schema(request=None, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        return self._step(filing.withdraw)

    @extend_schema(request=None, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"])
    def deposit(self, request, pk=None):
        """The director confirms the deposit was paid."""
        return self._step(filing.confirm_deposit)

    @extend_schema(request=s.SeatRequestSerializer, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"])
    def panel(self, request, pk=None):
        """Seat one committee member (refused when involved), or an impartial panel of three."""
        appeal = self.get_object()
        data = s.SeatRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        member_pk = data.validated_data.get("member")
        if member_pk:
            member = CommitteeMember.objects.filter(pk=member_pk, committee__event=appeal.event_id).first()
            if member is None:
                raise ValidationError({"member": [_("Not a member of this event's committee.")]})
            run(lambda: panel.seat(appeal, member, request.user))
        else:
            run(lambda: panel.form_panel(appeal, request.user))
        return self._reply(appeal)

    @extend_schema(request=s.StatementSerializer, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"])
    def statements(self, request, pk=None):
        appeal = self.get_object()
        data = s.StatementSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        run(lambda: hearing.record_statement(appeal, request.user, **data.validated_data))
        return self._reply(appeal)

    @extend_schema(request=s.DecisionInputSerializer, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"])
    def decisions(self, request, pk=None):
        """Propose the panel's decision (the proposer's vote is counted for it)."""
        appeal = self.get_object()
        data = s.DecisionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        run(lambda: decisions.propose(appeal, request.user, **data.validated_data))
        return self._reply(appeal)

    def _decision(self, appeal, pk, **filters):
        """A decision of this case; another case's (or no such) id is a 400 naming the field."""
        decision = Decision.objects.filter(pk=pk, appeal=appeal, **filters).first()
        if decision is None:
            raise ValidationError({"decision": [_("No such decision in this case.")]})
        return decision

    @extend_schema(request=s.VoteSerializer, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"])
    def vote(self, request, pk=None):
        appeal = self.get_object()
        data = s.VoteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        decision = self._decision(appeal, d["decision"])
        run(lambda: decisions.vote(decision, request.user, d["agrees"], d["comment"]))
        return self._reply(appeal)

    @extend_schema(request=s.PublishSerializer, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        """Publish a decision every member voted on; a changed ruling flows to the results."""
        appeal = self.get_object()
        data = s.PublishSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        decision = self._decision(appeal, data.validated_data["decision"])
        run(lambda: decisions.publish(decision, request.user))
        return self._reply(appeal)

    @extend_schema(request=s.WithdrawProposalSerializer, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"], url_path="withdraw-proposal")
    def withdraw_proposal(self, request, pk=None):
        """The panel's chair withdraws the proposal being voted on; its votes no longer count, the panel
        proposes and votes again (the withdrawal stays on the timeline)."""
        appeal = self.get_object()
        data = s.WithdrawProposalSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        decision = self._decision(appeal, data.validated_data["decision"])
        run(lambda: decisions.withdraw(decision, request.user, data.validated_data["reason"]))
        return self._reply(appeal)

    @extend_schema(
        request={"multipart/form-data": s.UploadSerializer}, responses={201: s.AttachmentSerializer}
    )
    @action(detail=True, methods=["post"], parser_classes=[MultiPartParser, FormParser])
    def attachments(self, request, pk=None):
        """A PNG, JPEG or PDF of at most 5 MB; it is downloaded through the permission-checked page URL."""
        appeal = self.get_object()
        data = s.UploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        attachment = run(
            lambda: attachments.add_attachment(appeal, request.user, data.validated_data["file"])
        )
        return Response(s.AttachmentSerializer(attachment).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.SecondAppealInputSerializer, responses=s.AppealSerializer)
    @action(
        detail=True, methods=["post"], url_path="second-instance", parser_classes=[JSONParser, FormParser]
    )
    def second_instance(self, request, pk=None):
        """Appeal to the Rules and Ethics Committee within one week of publication (VSz 22)."""
        appeal = self.get_object()
        data = s.SecondAppealInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        run(lambda: second_instance.file(appeal, request.user, data.validated_data["statement"]))
        return self._reply(appeal)

    @extend_schema(request=None, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"], url_path="second-instance/deposit")
    def second_deposit(self, request, pk=None):
        return self._step(second_instance.confirm_deposit)

    @extend_schema(request=s.DecisionInputSerializer, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"], url_path="second-instance/decision")
    def second_decision(self, request, pk=None):
        """An ethics member proposes the Rules and Ethics Committee's decision (his vote counts for it); it is
        published, overriding the first and flowing to the results, once every member voted and a majority
        agrees."""
        appeal = self.get_object()
        data = s.DecisionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        run(lambda: second_instance.propose(appeal, request.user, **data.validated_data))
        return self._reply(appeal)

    @extend_schema(request=s.VoteSerializer, responses=s.AppealSerializer)
    @action(detail=True, methods=["post"], url_path="second-instance/vote")
    def second_vote(self, request, pk=None):
        """An ethics member's vote on the committee's proposed decision; the deciding vote publishes it."""
        appeal = self.get_object()
        data = s.VoteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        decision = self._decision(appeal, d["decision"], instance=Decision.Instance.SECOND)
        run(lambda: second_instance.vote(decision, request.user, d["agrees"], d["comment"]))
        return self._reply(appeal)


def _session_of(event, pk):
    """A session of this event; another event's (or no such) id is a 400 naming the field."""
    session = Session.objects.filter(pk=pk, event=event).first()
    if session is None:
        raise ValidationError({"session": [_("No such session in this event.")]})
    return session


class AppealEventViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The appeals desk of an event: its committee, its start, the end of its sessions, intentions to appeal."""

    permission_classes = [RulesPermission]
    queryset = Event.objects.select_related("federation")
    serializer_class = s.EventDeskSerializer
    rules_permissions = {
        "retrieve": "appeals.view_event_desk",
        "committee": "appeals.manage_committee",
        "leave": "appeals.leave_committee",
        "leave_decision": "appeals.consent_to_leave",
        "start": "appeals.start_event",
        "end_session": "appeals.run_session",
        "intentions": "appeals.run_session",
    }

    def _desk(self, event):
        problem = ""
        try:
            committee.check_can_start(event)
        except DjangoValidationError as error:
            problem = " ".join(error.messages)
        found = committee.committee_of(event)
        start = committee.started(event)
        sessions = [
            {"id": x.pk, "name": str(x), "deadline": filing.filing_deadline(x)} for x in event.sessions.all()
        ]
        return Response(
            s.EventDeskSerializer(
                {
                    "id": event.pk,
                    "title": event.title,
                    "needs_committee": committee.needs_committee(event),
                    "committee": list(found.members.all()) if found else [],
                    "started_at": start.started_at if start else None,
                    "can_start": not problem,
                    "problem": problem,
                    "sessions": sessions,
                }
            ).data
        )

    def retrieve(self, request, *args, **kwargs):
        return self._desk(self.get_object())

    @extend_schema(request=s.CommitteeMemberSerializer, responses=s.EventDeskSerializer)
    @action(detail=True, methods=["post"])
    def committee(self, request, pk=None):
        """Add a member or an alternate to the event's Appeals Committee."""
        event = self.get_object()
        data = s.CommitteeMemberSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        run(lambda: committee.add_member(event, d["user"], is_alternate=d["is_alternate"], by=request.user))
        return self._desk(event)

    @extend_schema(request=s.LeaveInputSerializer, responses=s.EventDeskSerializer)
    @action(detail=True, methods=["post"], url_path="committee/leave")
    def leave(self, request, pk=None):
        """A committee member asks the director's consent to leave the committee (VSz 9)."""
        event = self.get_object()
        data = s.LeaveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        member = get_object_or_404(
            CommitteeMember, committee__event=event, user=request.user, left_at__isnull=True
        )
        run(lambda: committee.request_leave(member, request.user, data.validated_data["reason"]))
        return self._desk(event)

    @extend_schema(request=s.LeaveDecisionInputSerializer, responses=s.EventDeskSerializer)
    @action(detail=True, methods=["post"], url_path="committee/leave-decision")
    def leave_decision(self, request, pk=None):
        """The event's director consents to (or refuses) a member's leaving; an alternate steps in."""
        event = self.get_object()
        data = s.LeaveDecisionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        member = CommitteeMember.objects.filter(pk=d["member"], committee__event=event).first()
        if member is None:
            raise ValidationError({"member": [_("Not a member of this event's committee.")]})
        run(lambda: committee.decide_leave(member, request.user, d["consents"]))
        return self._desk(event)

    @extend_schema(request=None, responses=s.EventDeskSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        """Start the event; refused without a complete Appeals Committee where one is needed (VSz 9)."""
        event = self.get_object()
        run(lambda: committee.start_event(event, request.user))
        return self._desk(event)

    @extend_schema(request=s.SessionEndInputSerializer, responses=s.EventDeskSerializer)
    @action(detail=True, methods=["post"], url_path="end-session")
    def end_session(self, request, pk=None):
        """Record that a session ended: the appeal deadline runs from now."""
        event = self.get_object()
        data = s.SessionEndInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = _session_of(event, data.validated_data["session"])
        run(lambda: filing.end_session(session, request.user))
        return self._desk(event)

    @extend_schema(request=s.IntentionInputSerializer, responses=s.EventDeskSerializer)
    @action(detail=True, methods=["post"])
    def intentions(self, request, pk=None):
        """The director ticks an entry's intention to appeal (before the session ends)."""
        event = self.get_object()
        data = s.IntentionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        session = _session_of(event, d["session"])
        entry = Entry.objects.filter(pk=d["entry"], event=event).first()
        if entry is None:
            raise ValidationError({"entry": [_("No such entry in this event.")]})
        run(
            lambda: filing.record_intention(
                session,
                entry,
                request.user,
                source=Intention.Source.DIRECTOR,
                board_number=d.get("board_number"),
                note=d["note"],
            )
        )
        return self._desk(event)


class MeasureViewSet(mixins.CreateModelMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """The director's measures at an event (VSz 23); list them with ?event=<id>."""

    permission_classes = [RulesPermission]
    serializer_class = s.MeasureSerializer
    rules_permissions = {"create": "appeals.take_measure", "consent": "appeals.consent_to_measure"}
    filterset_fields = ["event", "kind", "status"]
    search_fields = []
    ordering_fields = ["taken_at"]

    def get_queryset(self):
        measures = Measure.objects.select_related("person", "event__federation")
        if self.action != "list" or getattr(self, "swagger_fake_view", False):
            return measures
        events = Event.objects.filter(discipline_measures__isnull=False).distinct()
        allowed = [e.pk for e in events if self.request.user.has_perm("appeals.view_event_desk", e)]
        return measures.filter(event_id__in=allowed)

    def create(self, request, *args, **kwargs):
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        # An event the caller does not run is answered like one he cannot see (404).
        check(request, "appeals.take_measure", d["event"], visible="appeals.take_measure")
        if d.get("session") is not None and d["session"].event_id != d["event"].pk:
            raise ValidationError({"session": [_("No such session in this event.")]})
        measure = run(
            lambda: discipline.take_measure(
                d["event"],
                request.user,
                d["person"],
                d["kind"],
                d["reason"],
                session=d.get("session"),
                percent=d.get("percent"),
                points=d.get("points"),
            )
        )
        return Response(self.get_serializer(measure).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.ConsentInputSerializer, responses=s.MeasureSerializer)
    @action(detail=True, methods=["post"])
    def consent(self, request, pk=None):
        """A committee member consents to (or refuses) an exclusion from the event."""
        measure = self.get_object()
        data = s.ConsentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        measure = run(lambda: discipline.consent(measure, request.user, data.validated_data["agrees"]))
        return Response(self.get_serializer(measure).data)


class ReportViewSet(viewsets.ReadOnlyModelViewSet):
    """Reports to the Disciplinary Committee: its members read and decide them, the federation's staff read."""

    permission_classes = [RulesPermission]
    serializer_class = s.ReportSerializer
    rules_permissions = {
        "list": "appeals.view_reports",
        "retrieve": "appeals.view_reports",
        "decide": "appeals.decide_discipline",
    }
    filterset_fields = ["federation", "status"]
    search_fields = []
    ordering_fields = ["reported_at"]

    def get_queryset(self):
        reports = DisciplinaryReport.objects.select_related("person", "decision")
        user = self.request.user
        if user.is_superuser or getattr(self, "swagger_fake_view", False):
            return reports
        if not user.is_authenticated:
            return reports.none()
        federations = Role.objects.filter(
            user=user, kind__in=(Role.FEDERATION_STAFF, Role.DISCIPLINARY)
        ).values("federation_id")
        return reports.filter(federation_id__in=federations)

    @extend_schema(request=s.DisciplineDecisionInputSerializer, responses=s.ReportSerializer)
    @action(detail=True, methods=["post"])
    def decide(self, request, pk=None):
        """The Disciplinary Committee's decision; a suspension blocks the player's entries (VSz 6)."""
        report = self.get_object()
        data = s.DisciplineDecisionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        run(
            lambda: discipline.decide(
                report,
                request.user,
                d["outcome"],
                d["text"],
                starts_on=d.get("starts_on"),
                ends_on=d.get("ends_on"),
            )
        )
        report.refresh_from_db()
        return Response(self.get_serializer(report).data)


def register(router):
    router.register("appeals", AppealViewSet, basename="appeal")
    router.register("appeal-events", AppealEventViewSet, basename="appeal-event")
    router.register("discipline-measures", MeasureViewSet, basename="discipline-measure")
    router.register("discipline-reports", ReportViewSet, basename="discipline-report")
