"""The staff's membership pages: ulti licences (issue, revoke, a bought licence's payment) and member
requests (approving one creates the member)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..access import check, object_or_deny
from ..forms import LicenceIssueForm, LicenceRevokeForm, MemberRequestDecisionForm
from ..models import Federation, Licence, LicenceFee, MemberRequest, Membership
from ..predicates import staffed_federation_ids
from ..services import licences, member_requests


def _ulti_federations(user):
    federations = Federation.objects.filter(game=Federation.ULTI)
    return federations if user.is_superuser else federations.filter(pk__in=staffed_federation_ids(user))


def _errors(request, error):
    messages.error(request, " ".join(error.messages))


@login_required
@require_http_methods(["GET", "POST"])
def licence_list(request):
    check(request, "federation.manage_licences", None)
    federations = list(_ulti_federations(request.user))
    if not federations:
        check(request, "federation.manage_licences", Federation.objects.filter(game=Federation.ULTI).first())
    federation = federations[0] if federations else None
    year = timezone.localdate().year
    form = LicenceIssueForm(request.POST or None, initial={"year": year})
    if request.method == "POST" and form.is_valid() and federation is not None:
        data = form.cleaned_data
        membership = (
            Membership.objects.filter(
                federation=federation, member_number__iexact=data["member_number"].strip()
            )
            .select_related("person")
            .first()
        )
        if membership is None:
            form.add_error("member_number", _("There is no member with this number."))
        else:
            try:
                licences.issue(membership.person, federation, data["year"], request.user, data["number"])
            except ValidationError as error:
                _errors(request, error)
            else:
                messages.success(request, _("Licence issued to %(person)s.") % {"person": membership.person})
                return redirect("licence_list")
    rows = (
        Licence.objects.filter(federation__in=federations)
        .select_related("person", "federation", "fee", "issued_by", "revoked_by")
        .order_by("-year", "person__last_name", "person__first_name")[:300]
    )
    return render(
        request,
        "federation/licence_list.html",
        {"form": form, "licences": rows, "federation": federation, "revoke_form": LicenceRevokeForm()},
    )


@login_required
@require_http_methods(["POST"])
def licence_revoke(request, pk):
    licence = object_or_deny(
        request,
        Licence.objects.select_related("person"),
        "federation.manage_licences",
        visible="federation.manage_licences",
        pk=pk,
    )
    form = LicenceRevokeForm(request.POST)
    try:
        licences.revoke(licence, request.user, form.data.get("reason", ""))
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(request, _("The licence of %(person)s is revoked.") % {"person": licence.person})
    return redirect("licence_list")


@login_required
@require_http_methods(["POST"])
def licence_fee_paid(request, pk):
    fee = object_or_deny(
        request,
        LicenceFee.objects.select_related("licence__person", "licence"),
        "federation.manage_licences",
        visible="federation.manage_licences",
        pk=pk,
    )
    try:
        licences.record_payment(fee, request.user)
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(request, _("Payment recorded."))
    return redirect("licence_list")


@login_required
@require_http_methods(["GET"])
def member_request_list(request):
    check(request, "federation.review_member_requests", None)
    return render(
        request,
        "federation/member_requests.html",
        {"pending": member_requests.pending_for(request.user), "form": MemberRequestDecisionForm()},
    )


@login_required
@require_http_methods(["POST"])
def member_request_decide(request, pk):
    req = object_or_deny(
        request,
        MemberRequest.objects.select_related("user", "federation"),
        "federation.review_member_requests",
        visible="federation.review_member_requests",
        pk=pk,
        status=MemberRequest.PENDING,
    )
    form = MemberRequestDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose approve or reject."))
        return redirect("member_request_list")
    try:
        if form.cleaned_data["decision"] == "approve":
            req = member_requests.approve(req, request.user, form.cleaned_data["member_number"])
            messages.success(request, _("%(person)s is now a member.") % {"person": req.person})
        else:
            member_requests.reject(req, request.user)
            messages.info(request, _("The request was refused."))
    except ValidationError as error:
        _errors(request, error)
    return redirect("member_request_list")
