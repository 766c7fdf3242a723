"""An event: one tournament of one game."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from scoring import default_placement_points

from .. import games
from ..names import clean_text, has_visible_character


class SeatingMethod(models.TextChoices):
    RANDOM = "random", _("Random")
    SWISS = "swiss", _("Swiss (by standings)")
    MIXER = "mixer", _("Mixer (new opponents)")


class EventStatus(models.TextChoices):
    SETUP = "setup", _("Setting up")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Confirmation(models.TextChoices):
    """Who may confirm a sheet entered at a table."""

    PLAYER_LINK = "player", _("Another player, with their own link (player card or seating list)")
    SECOND_PHONE = "phone", _("Honour mode: any second phone at the table (not verified)")


class PaperSize(models.TextChoices):
    A4 = "A4", "A4"
    LETTER = "letter", _("Letter")


#: The most places a placement-points scheme names: the largest table a sheet may hold.
MAX_PLACES = 9
#: The most tournament points one place may earn (a seat stores at most 9999.99).
MAX_PLACEMENT_POINTS = 999


def valid_placement_points(points: object) -> bool:
    """Whether ``points`` is a scheme the event may keep: at most ``MAX_PLACES`` whole numbers, never rising."""
    return (
        isinstance(points, list)
        and len(points) <= MAX_PLACES
        and all(type(p) is int and 0 <= p <= MAX_PLACEMENT_POINTS for p in points)
        and points == sorted(points, reverse=True)
    )


#: The fields ``standings/refresh.py`` keeps; never written back from an event loaded before they changed.
STANDINGS_BOOKKEEPING = frozenset(
    {"standings_version", "standings_stale", "standings_built_from", "standings_built_at", "standings_lease"}
)


def new_seed() -> int:
    return secrets.randbelow(2**31)


class Event(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("web address"), max_length=140, unique=True, blank=True)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    game = models.CharField(_("game"), max_length=20, help_text=_("The key of one of the games the app knows."))
    variant = models.CharField(_("variant"), max_length=30, blank=True, help_text=_("Empty: the game's default."))
    rounds_planned = models.PositiveSmallIntegerField(_("rounds planned"), default=4)
    manches_per_round = models.PositiveSmallIntegerField(_("manches per round"), default=1)
    table_size = models.PositiveSmallIntegerField(_("table size"), default=4)
    seating_method = models.CharField(
        _("seating method"), max_length=10, choices=SeatingMethod.choices, default=SeatingMethod.MIXER
    )
    placement_points = models.JSONField(
        _("placement points"),
        default=list,
        blank=True,
        help_text=_("Points for 1st, 2nd... at a full table, e.g. [4, 2, 1, 0]. Empty: 4/2/1/0."),
    )
    options = models.JSONField(
        _("game options"),
        default=dict,
        blank=True,
        help_text=_("What the game lets an event decide, as its game checks it."),
    )
    confirmation_required = models.BooleanField(_("a second player confirms each sheet"), default=True)
    confirmation = models.CharField(
        _("who confirms"),
        max_length=6,
        choices=Confirmation.choices,
        default=Confirmation.PLAYER_LINK,
        help_text=_(
            "Honour mode is for an evening without player cards: a confirmation then proves only that a "
            "second phone agreed."
        ),
    )
    status = models.CharField(_("status"), max_length=10, choices=EventStatus.choices, default=EventStatus.SETUP)
    public = models.BooleanField(_("public pages"), default=True)
    public_url = models.URLField(
        _("public address"),
        max_length=200,
        blank=True,
        help_text=_("The address phones reach this Tablescore at, for QR codes and printed links. Empty: PUBLIC_URL."),
    )
    language = models.CharField(_("language of printouts"), max_length=5, choices=settings.LANGUAGES, default="en")
    paper_size = models.CharField(_("paper size"), max_length=6, choices=PaperSize.choices, default=PaperSize.A4)
    seed = models.PositiveIntegerField(_("seating seed"), default=new_seed)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="events")
    club = models.ForeignKey(
        "tournaments.Club",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("club"),
        help_text=_("The club whose people and ratings the event counts towards; empty: the event stands alone."),
    )
    # The stored standings' bookkeeping (tournaments/standings/refresh.py), changed by single UPDATEs only.
    #: Changes whenever the stored standings do: the live pages compare it.
    standings_version = models.PositiveIntegerField(_("standings version"), default=0, editable=False)
    #: A sheet changed since the stored standings were built.
    standings_stale = models.BooleanField(_("standings out of date"), default=False, editable=False)
    #: The stored standings count every sheet saved before this moment...
    standings_built_from = models.DateTimeField(_("standings count sheets saved before"), null=True, editable=False)
    #: ...and were stored at this one (rebuilds are spaced from it).
    standings_built_at = models.DateTimeField(_("standings built at"), null=True, editable=False)
    #: Set while one process rebuilds them, until this moment: the others leave the rebuild to it.
    standings_lease = models.DateTimeField(_("standings being rebuilt until"), null=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(condition=models.Q(rounds_planned__gte=1), name="event_rounds_planned_positive"),
            models.CheckConstraint(condition=models.Q(manches_per_round__gte=1), name="event_manches_positive"),
            models.CheckConstraint(condition=models.Q(table_size__gte=2), name="event_table_size_at_least_two"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    def save(self, *args, **kwargs) -> None:
        """Saving an event loaded earlier leaves the standings' bookkeeping as the database has it now."""
        if not self.slug:
            self.slug = unique_slug(self.name, self.date)
        updating = self.pk is not None and not self._state.adding and not kwargs.get("force_insert")
        if updating and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields if not f.primary_key and f.name not in STANDINGS_BOOKKEEPING
            ]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("tournaments:event", kwargs={"slug": self.slug})

    @property
    def game_bundle(self) -> games.Game:
        """Everything the app knows of this event's game (KeyError for a game it does not know)."""
        return games.get_game(self.game)

    @property
    def rules(self):
        return self.game_bundle.rules

    @property
    def game_name(self) -> str:
        game = games.find_game(self.game)
        return game.name if game else self.game

    @property
    def effective_variant(self) -> str:
        return self.variant or self.rules.default_variant(self.table_size)

    @property
    def variant_label(self) -> str:
        return self.game_bundle.variant_label(self.effective_variant)

    def placement_points_for(self, table_size: int) -> tuple[int, ...]:
        """Points for each place at a table of ``table_size``: the event's scheme cut to size."""
        if not self.placement_points:
            return default_placement_points(table_size)
        points = tuple(self.placement_points[:table_size])
        return points + (0,) * (table_size - len(points))

    def clean(self) -> None:
        """The name and venue tidied to what shows, then the settings checked against the game's rules. A name typed
        with nothing to see is refused (an empty one is the field's own error; a name a form refused never
        reaches the event)."""
        errors: dict[str, str] = {}
        typed = self.name
        self.name, self.venue = clean_text(self.name), clean_text(self.venue)
        if typed and not has_visible_character(self.name):
            errors["name"] = _("A name needs at least one letter or digit.")
        game = games.find_game(self.game)
        if game is None:
            raise ValidationError({**errors, "game": _("Choose one of the games.")})
        rules = game.rules
        if self.table_size not in rules.table_sizes:
            sizes = ", ".join(str(n) for n in rules.table_sizes)
            errors["table_size"] = _("%(game)s is played at tables of %(sizes)s.") % {
                "game": rules.name,
                "sizes": sizes,
            }
        if self.variant and rules.variant(self.variant) is None:
            choices = ", ".join(v.key for v in rules.variants)
            errors["variant"] = _("The variants of %(game)s are: %(choices)s.") % {
                "game": rules.name,
                "choices": choices,
            }
        errors.update(game.clean_event(self))
        try:
            self.options = game.clean_options(self.options, self.effective_variant)
        except ValidationError as error:
            errors[NON_FIELD_ERRORS] = [_("Game options: %(problem)s") % {"problem": " ".join(error.messages)}]
        if self.placement_points and not valid_placement_points(self.placement_points):
            errors["placement_points"] = _(
                "Give at most %(places)d whole numbers from 0 to %(maximum)d, from first place down, never rising, "
                "e.g. [4, 2, 1, 0]."
            ) % {"places": MAX_PLACES, "maximum": MAX_PLACEMENT_POINTS}
        if errors:
            raise ValidationError(errors)


def unique_slug(name: str, date) -> str:
    base = slugify(f"{name}-{date:%Y}")[:120] or "event"
    slug, n = base, 2
    while Event.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug
