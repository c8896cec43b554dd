"""Personal data pages: the privacy notice, "download my data", erasure requests (the person's and the
staff's), mail preferences (the logged-in person's and the signed unsubscribe link's) and the legal basis of
a record kept without an account."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .. import personal_data
from ..access import check, object_or_deny
from ..forms import (
    DataBasisForm,
    ErasureConfirmForm,
    ErasureDecisionForm,
    ErasureRequestForm,
    MailPreferenceForm,
)
from ..models import ErasureRequest, MailPreference, Person
from ..services import erasure, mail_preferences, privacy
from ..services.notifications import address_of


def privacy_notice(request):
    return render(request, "federation/privacy_notice.html", {"version": privacy.NOTICE_VERSION})


def _person_of(user):
    return Person.objects.filter(user=user).first()


@login_required
@require_http_methods(["GET"])
def my_data(request):
    person = _person_of(request.user)
    requests = ErasureRequest.objects.filter(person=person) if person else ErasureRequest.objects.none()
    context = {
        "person": person,
        "erasure_requests": requests,
        "pending": requests.filter(state=ErasureRequest.PENDING).first(),
        "erasure_form": ErasureRequestForm(),
        "confirm_form": ErasureConfirmForm(user=request.user),
        "consents": request.user.privacy_consents.all(),
        "notice_version": privacy.NOTICE_VERSION,
    }
    return render(request, "federation/my_data.html", context)


@login_required
@require_http_methods(["GET"])
def my_data_export(request, fmt):
    data = privacy.export(_person_of(request.user), request.user)
    stamp = timezone.localdate().isoformat()
    if fmt == "json":
        response = HttpResponse(personal_data.as_json(data), content_type="application/json; charset=utf-8")
    elif fmt == "csv":
        response = HttpResponse(personal_data.as_csv(data), content_type="text/csv; charset=utf-8")
    else:
        raise Http404
    response["Content-Disposition"] = f'attachment; filename="versenyportal-adataim-{stamp}.{fmt}"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["POST"])
def erasure_request(request):
    person = _person_of(request.user)
    if person is None:
        messages.error(
            request, _("Your account is not linked to a member record: there is nothing to erase.")
        )
        return redirect("my_data")
    form = ErasureRequestForm(request.POST)
    if form.is_valid():
        try:
            erasure.request_erasure(person, request.user, form.cleaned_data["reason"])
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("Your erasure request was recorded."))
    return redirect("my_data")


@login_required
@require_http_methods(["POST"])
def erasure_confirm(request, pk):
    """The person carries out his own pending request, with his password."""
    req = object_or_deny(
        request,
        ErasureRequest.objects.select_related("person"),
        "federation.view_erasure_request",
        visible="federation.view_erasure_request",
        pk=pk,
    )
    if req.person.user_id != request.user.pk:
        raise Http404
    form = ErasureConfirmForm(request.POST, user=request.user)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect("my_data")
    try:
        erasure.carry_out(req, request.user, note=_("carried out by the person"))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("my_data")
    logout(request)
    return render(request, "federation/erasure_done.html")


@login_required
@require_http_methods(["POST"])
def erasure_cancel(request, pk):
    req = object_or_deny(
        request,
        ErasureRequest.objects.select_related("person"),
        "federation.view_erasure_request",
        visible="federation.view_erasure_request",
        pk=pk,
    )
    if req.person.user_id != request.user.pk:
        raise Http404
    if erasure.cancel(req, request.user):
        messages.info(request, _("Your erasure request was cancelled."))
    return redirect("my_data")


@login_required
@require_http_methods(["GET"])
def erasure_requests(request):
    check(request, "federation.review_erasure_requests", None)
    done = ErasureRequest.objects.exclude(state=ErasureRequest.PENDING)
    if not request.user.is_superuser:
        done = done.filter(decided_by=request.user)
    context = {"pending": erasure.pending_for(request.user), "done": done.select_related("person")[:50]}
    return render(request, "federation/erasure_requests.html", context)


@login_required
@require_http_methods(["POST"])
def erasure_decide(request, pk):
    req = object_or_deny(
        request,
        ErasureRequest.objects.select_related("person"),
        "federation.decide_erasure",
        visible="federation.view_erasure_request",
        pk=pk,
    )
    form = ErasureDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose carry out or refuse."))
        return redirect("erasure_requests")
    try:
        if form.cleaned_data["decision"] == "carry_out":
            erasure.carry_out(req, request.user, form.cleaned_data["note"])
            messages.success(request, _("The record was anonymised."))
        else:
            erasure.reject(req, request.user, form.cleaned_data["note"])
            messages.info(request, _("The request was refused."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("erasure_requests")


def _preferences_page(request, address, action):
    form = MailPreferenceForm(
        request.POST if request.method == "POST" else None,
        initial={"receive": sorted(set(dict(MailPreference.OPTIONAL)) - mail_preferences.opted_out(address))},
    )
    if request.method == "POST" and form.is_valid():
        mail_preferences.save(address, set(form.cleaned_data["receive"]))
        messages.success(request, _("Your e-mail choices are saved."))
        return redirect(action)
    return render(
        request, "federation/mail_preferences.html", {"form": form, "address": address, "action": action}
    )


@login_required
@require_http_methods(["GET", "POST"])
def mail_preferences_page(request):
    address = address_of(request.user)
    if not address:
        messages.error(request, _("Your account has no e-mail address."))
        return redirect("profile")
    return _preferences_page(request, address, request.path)


@require_http_methods(["GET", "POST"])
def mail_preferences_link(request, token):
    address = mail_preferences.address_from(token)
    if address is None:
        raise Http404
    return _preferences_page(request, address, request.path)


@login_required
@require_http_methods(["GET", "POST"])
def data_basis(request, pk):
    person = object_or_deny(
        request,
        Person.objects.prefetch_related("memberships"),
        "federation.record_data_basis",
        visible="federation.record_data_basis",
        pk=pk,
    )
    form = DataBasisForm(request.POST or None, instance=person)
    if request.method == "POST" and form.is_valid():
        privacy.record_data_basis(person, form.cleaned_data["data_basis"], request.user)
        messages.success(request, _("The legal basis is recorded."))
        return redirect("data_basis", pk=person.pk)
    return render(request, "federation/data_basis.html", {"form": form, "person": person})
