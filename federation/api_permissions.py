from rest_framework.permissions import SAFE_METHODS, BasePermission


class RulesPermission(BasePermission):
    """Checks the `rules` permission a view names per action, on the object when there is one.

    A view sets `rules_permissions = {"update": "federation.change_club", ...}`; actions not listed are
    read-only for everybody (safe methods) and refused otherwise.
    """

    def _perm(self, request, view):
        perms = getattr(view, "rules_permissions", {})
        action = getattr(view, "action", None) or request.method.lower()
        return perms.get(action)

    def has_permission(self, request, view):
        perm = self._perm(request, view)
        if perm is None:
            return request.method in SAFE_METHODS
        if getattr(view, "action", None) in ("create", "list") or not getattr(view, "detail", True):
            # No object yet: a role anywhere may try; the serializer / object check narrows it.
            target = view.get_permission_object() if hasattr(view, "get_permission_object") else None
            return request.user.has_perm(perm, target)
        return request.user.is_authenticated

    def has_object_permission(self, request, view, obj):
        perm = self._perm(request, view)
        if perm is None:
            return request.method in SAFE_METHODS
        return request.user.has_perm(perm, obj)
