"""What the navbar needs from tournaments: the count of a director's disputes not yet seen (issue #18),
read only when a logged-in page's navbar asks for it."""

from django.utils.functional import SimpleLazyObject

from .services import director_alerts


def alerts(request):
    return {
        "director_alert_count": SimpleLazyObject(lambda: director_alerts.open_alerts(request.user).count())
    }
