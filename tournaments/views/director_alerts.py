"""The director's alerts page (issue #18): the disputes at the tables of the events he directs, newest
first, each linking to the control room that handles it (opening it marks the alert seen)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from ..services import director_alerts


@login_required
def alerts(request):
    rows = director_alerts.recent_alerts(request.user)
    return render(request, "tournaments/director_alerts.html", {"alerts": rows})
