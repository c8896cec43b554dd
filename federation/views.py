from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token

from .forms import LinkMemberForm, MailAddressForm, MemberRequestForm, RegistrationForm
from .models import Club, Federation, Person
from .notifications import address_of


def home(request):
    from tournaments.models import Event

    upcoming = (
        Event.objects.filter(status=Event.Status.APPROVED)
        .select_related("federation", "club")
        .order_by("start_date")[:8]
    )
    return render(request, "home.html", {"federations": Federation.objects.all(), "upcoming": upcoming})


@require_http_methods(["GET", "POST"])
def register(request):
    if request.user.is_authenticated:
        return redirect("profile")
    form = RegistrationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome! Link your account to your member record."))
        return redirect("link_member")
    return render(request, "registration/register.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def link_member(request):
    form = LinkMemberForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        person = form.save()
        messages.success(
            request, _("Your account is linked to the member record of %(name)s.") % {"name": person}
        )
        return redirect("profile")
    return render(request, "registration/link_member.html", {"form": form})


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


def club_list(request):
    clubs = Club.objects.filter(is_active=True).select_related("federation", "region")
    fed = request.GET.get("federation")
    if fed:
        clubs = clubs.filter(federation__code=fed)
    return render(
        request,
        "federation/club_list.html",
        {"clubs": clubs, "federations": Federation.objects.all(), "selected": fed},
    )


def club_detail(request, pk):
    club = get_object_or_404(Club.objects.select_related("federation", "region", "county"), pk=pk)
    return render(request, "federation/club_detail.html", {"club": club})


def person_detail(request, pk):
    person = get_object_or_404(Person, pk=pk)
    show_private = request.user.has_perm("federation.view_person_private", person)
    memberships = person.memberships.select_related("federation", "club")
    return render(
        request,
        "federation/person_detail.html",
        {"person": person, "memberships": memberships, "show_private": show_private},
    )


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, with the link in the mail built from PORTAL_URL like every other mail's, not from the
    request's Host header."""

    @property
    def extra_email_context(self):
        return {"portal_url": settings.PORTAL_URL.rstrip("/")}
