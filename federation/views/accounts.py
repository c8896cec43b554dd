"""The account pages: registration, e-mail verification, linking to a member record, the profile, the API
token and the password reset mail."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token

from ..access import check, deny, object_or_deny
from ..client_ip import client_ip
from ..forms import (
    LinkMemberForm,
    MailAddressForm,
    MemberRequestForm,
    RegistrationForm,
    ResendVerificationForm,
    VerifyEmailForm,
)
from ..models import LinkRequest
from ..services import accounts
from ..services.notifications import address_of
from ..services.throttle import throttled


def _limits(*pairs):
    window = settings.ACCOUNT_THROTTLE_WINDOW
    return [(scope, value, settings.ACCOUNT_THROTTLE_LIMITS[scope], window) for scope, value in pairs]


def _too_many(request, template, context, wait):
    context["throttled"] = _("Too many attempts. Try again in %(minutes)d minutes.") % {
        "minutes": max(1, (wait + 59) // 60)
    }
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(wait)
    return response


@require_http_methods(["GET", "POST"])
def register(request):
    if request.user.is_authenticated:
        return redirect("profile")
    form = RegistrationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        wait = throttled(_limits(("register_ip", client_ip(request)), ("register_address", email)))
        if wait:
            return _too_many(request, "registration/register.html", {"form": form}, wait)
        accounts.register(form.cleaned_data, request)
        # The same answer whether the address was new or already had an account.
        return redirect("register_done")
    return render(request, "registration/register.html", {"form": form})


def register_done(request):
    return render(request, "registration/register_done.html")


@require_http_methods(["GET", "POST"])
def verify_email(request, token):
    user = accounts.user_from_verification_token(token)
    if user is None:
        return render(request, "registration/verify_email.html", {"validlink": False})
    form = VerifyEmailForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        user = accounts.verify(user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, _("Your e-mail address is confirmed. Link your account to your member record.")
        )
        return redirect("link_member")
    return render(request, "registration/verify_email.html", {"form": form, "account": user})


@require_http_methods(["GET", "POST"])
def resend_verification(request):
    form = ResendVerificationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        wait = throttled(_limits(("register_ip", client_ip(request)), ("register_address", email)))
        if wait:
            return _too_many(request, "registration/resend_verification.html", {"form": form}, wait)
        accounts.resend_verification(email, request)
        messages.info(
            request,
            _("If an account at this address is waiting for confirmation, we have sent it a new link."),
        )
        return redirect("register_done")
    return render(request, "registration/resend_verification.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def link_member(request):
    form = LinkMemberForm(request.POST or None)
    context = {"form": form, "pending": request.user.link_requests.filter(status=LinkRequest.PENDING)}
    if getattr(request.user, "person", None) is not None:
        messages.info(request, _("Your account is already linked to a member record."))
        return redirect("profile")
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        # Counted before the record is looked at, per account, per member record and per address, so
        # neither many accounts nor many addresses can walk through the birth dates of one member.
        wait = throttled(
            _limits(
                ("link_account", request.user.pk),
                ("link_member", f"{data['federation'].pk}:{data['member_number'].strip()}"),
                ("link_ip", client_ip(request)),
            )
        )
        if wait:
            return _too_many(request, "registration/link_member.html", context, wait)
        membership = form.matching_membership()
        if membership is not None:
            link = accounts.request_link(request.user, membership, request)
            if link.method == LinkRequest.BY_EMAIL:
                messages.success(
                    request,
                    _(
                        "We have sent a confirmation link to the e-mail address on the member record. "
                        "Your account acts as the member once the link is followed."
                    ),
                )
            else:
                messages.success(
                    request,
                    _(
                        "The member record has no e-mail address: your club's administrator or the "
                        "federation's staff will approve the link. Until then your account cannot act "
                        "as the member."
                    ),
                )
            return redirect("profile")
    return render(request, "registration/link_member.html", context)


@require_http_methods(["GET", "POST"])
def link_confirm(request, token):
    """The member opens the link mailed to the record's address: confirm (or refuse) with a button."""
    link = accounts.link_from_token(token)
    if link is None:
        return render(request, "registration/link_confirm.html", {"validlink": False})
    if request.method == "POST":
        if request.POST.get("decision") == "refuse":
            accounts.reject_link(link)
            messages.info(request, _("The link was refused; the account cannot act as you."))
        elif accounts.confirm_link(link):
            messages.success(
                request, _("Confirmed: the account now acts as %(name)s.") % {"name": link.person}
            )
        else:
            messages.error(request, _("This link can no longer be confirmed."))
        return redirect("home")
    return render(request, "registration/link_confirm.html", {"link": link})


@login_required
@require_http_methods(["GET"])
def link_requests(request):
    check(request, "federation.review_link_request", None)
    return render(
        request, "registration/link_requests.html", {"links": accounts.reviewable_links(request.user)}
    )


@login_required
@require_http_methods(["POST"])
def link_request_decide(request, pk):
    link = object_or_deny(
        request,
        LinkRequest.objects.select_related("user", "person"),
        "federation.review_link_request",
        pk=pk,
        status=LinkRequest.PENDING,
        method=LinkRequest.BY_APPROVAL,
    )
    # Nobody approves his own request (a club admin linking himself to a member of his club).
    if link.user_id == request.user.pk:
        deny(request, link)
    if request.POST.get("decision") == "approve":
        if accounts.confirm_link(link, by=request.user):
            messages.success(
                request,
                _("Approved: %(account)s now acts as %(name)s.")
                % {"account": link.user.email, "name": link.person},
            )
        else:
            messages.error(request, _("This request can no longer be approved."))
    elif request.POST.get("decision") == "reject":
        accounts.reject_link(link, by=request.user)
        messages.info(request, _("The request was refused."))
    else:
        return HttpResponseBadRequest(_("Choose approve or reject."))
    return redirect("link_requests")


@login_required
@require_http_methods(["GET", "POST"])
def member_request(request):
    form = MemberRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        req = form.save(commit=False)
        req.user = request.user
        req.save()
        messages.success(request, _("Your request was sent to the federation."))
        return redirect("profile")
    return render(request, "registration/member_request.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    person = getattr(request.user, "person", None)
    mail_form = MailAddressForm(request.POST or None, instance=person, prefix="mail") if person else None
    if request.method == "POST" and mail_form is not None and mail_form.is_valid():
        mail_form.save()
        messages.success(request, _("Your e-mail address choice is saved."))
        return redirect("profile")
    token = Token.objects.filter(user=request.user).first()
    context = {
        "mail_form": mail_form,
        "mail_address": address_of(request.user),
        "person": person,
        "memberships": person.memberships.select_related("federation", "club") if person else [],
        "licences": person.licences.all() if person else [],
        "suspensions": person.suspensions.all() if person else [],
        "roles": request.user.portal_roles.select_related("federation", "club", "event"),
        "requests": request.user.member_requests.all(),
        "link_requests": request.user.link_requests.select_related("person")[:5],
        "token": token,
    }
    return render(request, "registration/profile.html", context)


@login_required
@require_http_methods(["POST"])
def api_token(request):
    Token.objects.filter(user=request.user).delete()
    Token.objects.create(user=request.user)
    messages.success(request, _("A new API token was created."))
    return redirect("profile")


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, with the link in the mail built from PORTAL_URL like every other mail's, not from the
    request's Host header."""

    @property
    def extra_email_context(self):
        return {"portal_url": settings.PORTAL_URL.rstrip("/")}
