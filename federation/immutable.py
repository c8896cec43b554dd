"""Append-only rows: result versions, histories and timelines are written once and never changed.

Refused on the model (save of an existing row, delete) and on the queryset (bulk update / delete), so a
view, a task or the admin cannot rewrite history by accident.
"""

from django.db import models


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError(f"{self.model._meta.verbose_name} rows are append-only.")

    def delete(self):
        raise TypeError(f"{self.model._meta.verbose_name} rows are append-only.")


class AppendOnly(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.get("force_insert"):
            raise TypeError(f"{self._meta.verbose_name} rows are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError(f"{self._meta.verbose_name} rows are append-only.")
