"""The person page (/people/<id>/) and the player's own page ("Saját oldal", /me/).

It lives here, not in federation, because it reads the events (tournaments), the games' final results
(through ``rankings.sources``) and the masterpoint ledger; federation is the bottom layer and imports none.
Public: memberships, every event played with place, score, masterpoints and rating change, masterpoints
by year, the masterpoint and rating history charts and the qualifications. The person himself and his federations' staff (``federation.view_person_private``) also see the
birth date and contacts, open entries with waiting-list positions, suspensions and licences.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from federation.models import Person

from ..services import player_page


def person_detail(request, pk):
    person = get_object_or_404(Person, pk=pk)
    show_private = request.user.has_perm("federation.view_person_private", person)
    context = {
        "person": person,
        "memberships": person.memberships.select_related("federation", "club"),
        "show_private": show_private,
        "is_self": request.user.is_authenticated and person.user_id == request.user.pk,
        "played": player_page.played_events(person),
        "by_year": player_page.masterpoints_by_year(person),
        "charts": player_page.history_charts(person),
        "qualifications": player_page.qualifications(person),
    }
    if show_private:
        context["open_entries"] = player_page.open_entries(person)
        context.update(player_page.private_facts(person))
        context["fee_rows"] = player_page.fee_rows(person)
    return render(request, "federation/person_detail.html", context)


@login_required
def my_page(request):
    person = Person.objects.filter(user=request.user).first()
    if person is None:
        messages.info(request, _("Your account is not linked to a member record yet."))
        return redirect("profile")
    return redirect("person_detail", pk=person.pk)
