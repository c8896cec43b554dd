"""The materialised lists: ``ListEntry`` rows written by Celery, stamped (``ListStamp``) with the data
version they reflect; pages never compute a list per request."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Federation, Person, Region


class ListKind(models.TextChoices):
    ANNUAL = "annual", _("annual masterpoint list")
    ALLTIME = "alltime", _("all-time masterpoint list")
    RATING = "rating", _("rating list")


class ListStamp(models.Model):
    """Which data version a stored list reflects; stale while below ``needs_version``."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=ListKind.choices)
    year = models.PositiveSmallIntegerField(default=0)  # 0: all-time and rating lists
    data_version = models.BigIntegerField(default=-1)
    needs_version = models.BigIntegerField(default=0)
    licence_year = models.PositiveSmallIntegerField(null=True, blank=True)  # the year licences were checked
    computed_at = models.DateTimeField(null=True, blank=True)
    rows = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict)  # rows per category: all, junior, senior, open, women

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["federation", "kind", "year"], name="unique_list_stamp")
        ]
        verbose_name = _("list stamp")
        verbose_name_plural = _("list stamps")

    def __str__(self):
        return f"{self.federation_id} {self.kind} {self.year}: {self.data_version}"

    @property
    def is_stale(self):
        return self.data_version < self.needs_version


class ListEntry(models.Model):
    """One row of a stored list, rebuilt as a whole by Celery (never computed per request)."""

    federation = models.ForeignKey(
        Federation, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+"
    )
    kind = models.CharField(max_length=8, choices=ListKind.choices)
    year = models.PositiveSmallIntegerField(default=0)
    position = models.PositiveIntegerField()
    place_from = models.PositiveIntegerField()
    place_to = models.PositiveIntegerField()
    age_position = models.PositiveIntegerField()  # display order within the age category
    age_place_from = models.PositiveIntegerField()
    age_place_to = models.PositiveIntegerField()
    women_position = models.PositiveIntegerField(null=True)
    women_place_from = models.PositiveIntegerField(null=True)
    women_place_to = models.PositiveIntegerField(null=True)
    person = models.ForeignKey(
        Person, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+"
    )
    name = models.CharField(max_length=201)
    search_key = models.CharField(max_length=240)
    member_number = models.CharField(max_length=20, blank=True)
    club = models.ForeignKey(
        Club, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, null=True, related_name="+"
    )
    club_name = models.CharField(max_length=200, blank=True)
    region = models.ForeignKey(
        Region, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, null=True, related_name="+"
    )
    age_category = models.CharField(max_length=6)  # junior / senior / open
    is_female = models.BooleanField()
    total = models.DecimalField(max_digits=12, decimal_places=2)  # masterpoints, or the rating
    events = models.PositiveIntegerField()  # events (masterpoints) or rated tables (rating)
    provisional = models.BooleanField(default=False)
    qualification = models.CharField(max_length=20, blank=True)
    data_version = models.BigIntegerField()

    class Meta:
        ordering = ["position"]
        indexes = [
            models.Index(fields=["federation", "kind", "year", "position"], name="list_pos_idx"),
            models.Index(fields=["federation", "kind", "year", "club", "position"], name="list_club_idx"),
            models.Index(
                fields=["federation", "kind", "year", "age_category", "age_position"], name="list_age_idx"
            ),
            models.Index(
                fields=["federation", "kind", "year", "is_female", "women_position"], name="list_women_idx"
            ),
            # Search: a trigram GIN index on search_key on PostgreSQL (migration 0002).
            models.Index(fields=["person", "federation", "kind"], name="list_person_idx"),
        ]
        verbose_name = _("list entry")
        verbose_name_plural = _("list entries")

    def __str__(self):
        return f"{self.kind} {self.year} {self.position}. {self.name}"
