"""The list of clubs (a club's page is tournaments' views/clubs.py, the person page rankings' views/people.py:
both read the events, which this bottom layer may not import)."""

from django.shortcuts import render

from ..models import Club, Federation


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
