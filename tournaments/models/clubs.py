"""Clubs that run events week after week, and the people who come back to them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from ..names import clean_text


class Club(models.Model):
    """A club whose events share people and ratings; its pages are for its organisers."""

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("web address"), max_length=140, unique=True, blank=True)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="clubs")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        if not self.slug:
            self.slug = unique_club_slug(self.name)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("tournaments:club", kwargs={"slug": self.slug})


def unique_club_slug(name: str) -> str:
    base = slugify(name)[:120] or "club"
    slug, n = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


class Person(models.Model):
    """Someone a club knows across its events: each event's player may be linked to one."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="people")
    name = models.CharField(_("name"), max_length=100)
    affiliation = models.CharField(
        _("player's club"), max_length=100, blank=True, help_text=_("The club the player names at registration.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "affiliation"]
        verbose_name = _("person")
        verbose_name_plural = _("people")
        constraints = [
            models.UniqueConstraint(
                Lower("name"), Lower("affiliation"), "club", name="person_name_affiliation_unique_in_club"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.affiliation})" if self.affiliation else self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:person", kwargs={"slug": self.club.slug, "person_id": self.pk})

    def clean(self) -> None:
        self.name, self.affiliation = clean_text(self.name), clean_text(self.affiliation)
