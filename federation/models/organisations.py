"""Federations, their regions and counties, and clubs."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from ..engine import text


class Federation(models.Model):
    BRIDGE = "bridge"
    ULTI = "ulti"
    GAMES = [(BRIDGE, _("Bridge")), (ULTI, _("Ulti"))]

    code = models.SlugField(_("code"), max_length=16, unique=True)
    name = models.CharField(_("name"), max_length=200)
    short_name = models.CharField(_("short name"), max_length=20)
    game = models.CharField(_("game"), max_length=10, choices=GAMES)
    website = models.URLField(_("website"), blank=True)
    # What a competition licence costs when a player buys it on entry (MAUSZ V.11 (3)); set by the board
    # each year, so kept here and not in the code.
    licence_fee = models.PositiveIntegerField(_("licence fee (Ft)"), default=0)

    class Meta:
        ordering = ["code"]
        verbose_name = _("federation")
        verbose_name_plural = _("federations")

    def __str__(self):
        return self.short_name


class Region(models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="regions")
    code = models.SlugField(_("code"), max_length=32)
    name = models.CharField(_("name"), max_length=100)

    class Meta:
        ordering = ["federation", "name"]
        unique_together = [("federation", "code")]
        verbose_name = _("region")
        verbose_name_plural = _("regions")

    def __str__(self):
        return self.name


class County(models.Model):
    """A Hungarian county (or Budapest); ulti regions are made of counties."""

    name = models.CharField(_("name"), max_length=60, unique=True)
    region = models.ForeignKey(
        Region, on_delete=models.SET_NULL, null=True, blank=True, related_name="counties"
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("county")
        verbose_name_plural = _("counties")

    def __str__(self):
        return self.name


class Club(models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="clubs")
    name = models.CharField(_("name"), max_length=200)
    short_name = models.CharField(_("short name"), max_length=40, blank=True)
    region = models.ForeignKey(Region, on_delete=models.PROTECT, null=True, blank=True, related_name="clubs")
    county = models.ForeignKey(County, on_delete=models.PROTECT, null=True, blank=True)
    postcode = models.CharField(_("postcode"), max_length=10, blank=True)
    city = models.CharField(_("city"), max_length=100)
    address = models.CharField(_("address"), max_length=200, blank=True)
    contact_name = models.CharField(_("contact person"), max_length=200, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    website = models.URLField(_("website"), blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    search_name = models.CharField(
        max_length=260, blank=True, editable=False
    )  # name, short name, city folded

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.search_name = text.search_key(" ".join(filter(None, [self.name, self.short_name, self.city])))
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "search_name"}
        super().save(*args, **kwargs)
