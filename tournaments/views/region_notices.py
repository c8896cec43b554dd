"""The staff's page of region notices (MAUSZ 9 (2)) and the board's consent to a switch."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from federation.access import check, object_or_deny
from federation.models import Federation, Membership, Region
from federation.predicates import staffed_federation_ids

from ..models import RegionNotice
from ..services import region_notices


class RegionNoticeForm(forms.Form):
    member_number = forms.CharField(label=_("Member number"), max_length=20)
    region = forms.ModelChoiceField(label=_("Region"), queryset=Region.objects.none())
    season = forms.IntegerField(label=_("Season"), min_value=2000, max_value=2100)
    note = forms.CharField(label=_("Note"), required=False)

    def __init__(self, *args, federations, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["region"].queryset = Region.objects.filter(federation__in=federations)


def _federations(user):
    federations = Federation.objects.filter(game=Federation.ULTI)
    return federations if user.is_superuser else federations.filter(pk__in=staffed_federation_ids(user))


@login_required
@require_http_methods(["GET", "POST"])
def region_notice_list(request):
    federations = list(_federations(request.user))
    check(
        request,
        "tournaments.manage_region_notices",
        federations[0] if federations else Federation.objects.filter(game=Federation.ULTI).first(),
    )
    season = timezone.localdate().year
    form = RegionNoticeForm(request.POST or None, federations=federations, initial={"season": season})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        federation = data["region"].federation
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
                region_notices.record(
                    membership.person, federation, data["region"], data["season"], request.user, data["note"]
                )
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
            else:
                messages.success(request, _("The region notice is recorded."))
                return redirect("region_notice_list")
    notices = list(
        RegionNotice.objects.filter(federation__in=federations)
        .select_related("person", "region", "recorded_by")
        .order_by("-season", "person__last_name")[:300]
    )
    rows = [(n, region_notices.needs_consent(n)) for n in notices]
    return render(request, "tournaments/region_notices.html", {"form": form, "rows": rows})


@login_required
@require_http_methods(["POST"])
def region_notice_consent(request, pk):
    notice = object_or_deny(
        request,
        RegionNotice.objects.select_related("person"),
        "tournaments.manage_region_notices",
        visible="tournaments.manage_region_notices",
        pk=pk,
    )
    consent = request.POST.get("consent") == "grant"
    region_notices.set_consent(notice, consent, request.user)
    if consent:
        messages.success(
            request, _("The board's consent is recorded for %(person)s.") % {"person": notice.person}
        )
    else:
        messages.info(
            request, _("The board's consent is withdrawn for %(person)s.") % {"person": notice.person}
        )
    return redirect("region_notice_list")
