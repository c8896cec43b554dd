"""The register of qualified tournament directors (VSz 9): the staff of a federation add, renew, revoke and
restore."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from ..access import check, deny, object_or_deny
from ..forms import QualificationForm, RenewForm, RevokeForm
from ..models import Federation, QualifiedDirector
from ..predicates import staffed_federation_ids
from ..services import directors

MANAGE = directors.MANAGE


def register_home(request):
    """The navbar's entry: the register of the (first) federation the user is staff of."""
    check(request, MANAGE, None)
    if request.user.is_superuser:
        federation = Federation.objects.order_by("code").first()
    else:
        federation = Federation.objects.filter(pk__in=staffed_federation_ids(request.user)).first()
    if federation is None:
        deny(request)
    return redirect("director_register", federation.code)


def _show_error(request, error: ValidationError):
    for message in error.messages:
        messages.error(request, message)


@require_http_methods(["GET", "POST"])
def director_register(request, code):
    federation = get_object_or_404(Federation, code=code)
    check(request, MANAGE, federation)
    form = QualificationForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            d = form.cleaned_data
            try:
                row = directors.add(
                    request.user, federation, d["person"], d["level"], d["valid_from"], d["valid_until"]
                )
            except ValidationError as error:
                _show_error(request, error)
            else:
                messages.success(request, _("%(name)s is in the register.") % {"name": row.person})
                return redirect("director_register", federation.code)
        else:
            messages.error(request, _("Correct the marked fields; nothing was saved."))
    query = request.GET.get("q", "").strip()[:100]
    today = timezone.localdate()
    rows = list(federation.directors.select_related("person", "revoked_by"))
    return render(
        request,
        "federation/director_register.html",
        {
            "federation": federation,
            "rows": [(row, row.is_valid_on(today)) for row in rows],
            "query": query,
            "found": directors.members_matching(federation, query) if query else [],
            "form": form,
            "renew_form": RenewForm(),
            "levels": QualifiedDirector.LEVELS,
            "today": today,
        },
    )


def _row(request, pk):
    # Staff of another federation may not know the row exists: a 404 for them.
    return object_or_deny(
        request, QualifiedDirector.objects.select_related("federation"), MANAGE, visible=MANAGE, pk=pk
    )


def _show_followed(request, row):
    """How many events the change released and gave back (their organisers were mailed)."""
    released, restored = getattr(row, "released_events", 0), getattr(row, "restored_events", 0)
    if released:
        messages.info(
            request,
            ngettext(
                "%(count)s event not yet finished lost this director; its organiser was told.",
                "%(count)s events not yet finished lost this director; their organisers were told.",
                released,
            )
            % {"count": released},
        )
    if restored:
        messages.info(
            request,
            ngettext(
                "%(count)s event released earlier has this director again; its organiser was told.",
                "%(count)s events released earlier have this director again; their organisers were told.",
                restored,
            )
            % {"count": restored},
        )


@require_POST
def director_renew(request, pk):
    row = _row(request, pk)
    form = RenewForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the qualification and the new end of its validity."))
    else:
        try:
            renewed = directors.renew(
                request.user, row.pk, form.cleaned_data["valid_until"], form.cleaned_data["level"]
            )
        except ValidationError as error:
            _show_error(request, error)
        else:
            messages.success(request, _("The qualification is renewed."))
            _show_followed(request, renewed)
    return redirect("director_register", row.federation.code)


@require_POST
def director_restore(request, pk):
    row = _row(request, pk)
    try:
        restored = directors.restore(request.user, row.pk)
    except ValidationError as error:
        _show_error(request, error)
    else:
        messages.success(request, _("The revocation is withdrawn; the qualification is valid again."))
        _show_followed(request, restored)
    return redirect("director_register", row.federation.code)


@require_POST
def director_revoke(request, pk):
    row = _row(request, pk)
    form = RevokeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the reason of the revocation."))
    else:
        try:
            revoked = directors.revoke(request.user, row.pk, form.cleaned_data["reason"])
        except ValidationError as error:
            _show_error(request, error)
        else:
            messages.success(request, _("The qualification is revoked."))
            _show_followed(request, revoked)
    return redirect("director_register", row.federation.code)
