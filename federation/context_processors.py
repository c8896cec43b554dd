from django.utils.functional import SimpleLazyObject

from .models import Federation
from .predicates import staffed_federation_ids


def portal(request):
    """Values every page needs for its navigation."""
    user = request.user
    person = getattr(user, "person", None) if user.is_authenticated else None

    def staffs_ulti():
        # Licences and region notices are the ulti federation's: their menu items only for its staff.
        if not user.is_authenticated:
            return False
        if user.is_superuser:
            return True
        return Federation.objects.filter(pk__in=staffed_federation_ids(user), game=Federation.ULTI).exists()

    return {"portal_person": person, "staffs_ulti": SimpleLazyObject(staffs_ulti)}
