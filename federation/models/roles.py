"""Portal roles and requests to become a member."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .organisations import Club, Federation
from .people import Person


class Role(models.Model):
    """A role held by a user, scoped to one object: a federation, a club or an event."""

    FEDERATION_STAFF = "federation_staff"
    CLUB_ADMIN = "club_admin"
    DIRECTOR = "director"
    APPEALS = "appeals"
    ETHICS = "ethics"
    DISCIPLINARY = "disciplinary"
    KINDS = [
        (FEDERATION_STAFF, _("federation staff")),
        (CLUB_ADMIN, _("club administrator")),
        (DIRECTOR, _("tournament director")),
        (APPEALS, _("appeals committee member")),
        (ETHICS, _("rules and ethics committee member")),
        (DISCIPLINARY, _("disciplinary committee member")),
    ]
    # Which scope each kind needs: staff, the ethics and the disciplinary committees act for a federation,
    # a club admin for a club, a director and an appeals committee member for one event.
    SCOPE = {
        FEDERATION_STAFF: "federation",
        ETHICS: "federation",
        DISCIPLINARY: "federation",
        CLUB_ADMIN: "club",
        DIRECTOR: "event",
        APPEALS: "event",
    }

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="portal_roles")
    kind = models.CharField(_("role"), max_length=20, choices=KINDS)
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, null=True, blank=True)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, null=True, blank=True)
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, null=True, blank=True)
    granted_at = models.DateTimeField(default=timezone.now)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "federation", "club", "event"], name="unique_role"
            )
        ]
        verbose_name = _("role")
        verbose_name_plural = _("roles")

    def __str__(self):
        return f"{self.user} - {self.get_kind_display()} ({self.scope_object})"

    @property
    def scope_object(self):
        return getattr(self, self.SCOPE[self.kind])

    def clean(self):
        needed = self.SCOPE.get(self.kind)
        given = {name for name in ("federation", "club", "event") if getattr(self, f"{name}_id")}
        if given != {needed}:
            raise ValidationError(
                _("A %(role)s role must name exactly one %(scope)s.")
                % {"role": self.get_kind_display(), "scope": needed}
            )


class MemberRequest(models.Model):
    """A registered user without a member record asks the federation to create one."""

    PENDING, APPROVED, REJECTED = "pending", "approved", "rejected"
    STATUSES = [(PENDING, _("pending")), (APPROVED, _("approved")), (REJECTED, _("rejected"))]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="member_requests"
    )
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE)
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True)
    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100)
    birth_date = models.DateField(_("birth date"))
    gender = models.CharField(_("gender"), max_length=1, choices=Person.GENDERS)
    note = models.TextField(_("note"), blank=True)
    status = models.CharField(_("status"), max_length=10, choices=STATUSES, default=PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    # The member record an approval created.
    person = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("person")
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("membership request")
        verbose_name_plural = _("membership requests")

    def __str__(self):
        return f"{self.last_name} {self.first_name} -> {self.federation}"
