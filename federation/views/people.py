"""The public pages of clubs and members."""

from django.shortcuts import get_object_or_404, render

from ..models import Club, Federation, Person


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
