"""Admin pages for every model, with the lists and filters an organiser uses."""

from django import forms
from django.contrib import admin

from . import games
from .models import (
    Club,
    Event,
    Manche,
    Person,
    Player,
    Rating,
    Round,
    Season,
    Seat,
    SheetRevision,
    Standing,
    Table,
    Team,
)


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ("name", "club", "team", "active", "checked_in")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "venue", "game", "variant", "rounds_planned", "status", "public")
    list_filter = ("game", "status", "public", "seating_method", "date")
    search_fields = ("name", "venue")
    prepopulated_fields = {"slug": ("name",)}
    date_hierarchy = "date"
    filter_horizontal = ("organisers",)
    inlines = [PlayerInline]

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        """The game is chosen among the games the app knows."""
        if db_field.name == "game":
            return forms.ChoiceField(
                choices=games.game_choices, label=db_field.verbose_name, help_text=db_field.help_text
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "event")
    list_filter = ("event",)
    search_fields = ("name",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "team", "event", "active", "checked_in")
    list_filter = ("event", "active", "checked_in", "club")
    list_editable = ("active", "checked_in")
    search_fields = ("name", "club")
    list_select_related = ("event", "team")
    raw_id_fields = ("person",)


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ("number", "status", "locked")
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("event", "number", "status", "published", "seating_method")
    list_filter = ("event", "status", "published")
    list_select_related = ("event",)
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "player", "score", "rank", "placement_points")
    readonly_fields = ("score", "rank", "placement_points")
    raw_id_fields = ("player",)


class MancheInline(admin.TabularInline):
    model = Manche
    extra = 0
    fields = ("number", "version", "entered_at", "confirmed_at")
    readonly_fields = ("version", "entered_at", "confirmed_at")
    show_change_link = True


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "round", "number", "status", "locked")
    list_filter = ("round__event", "round__number", "status", "locked")
    list_select_related = ("round", "round__event")
    readonly_fields = ("token",)
    inlines = [SeatInline, MancheInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("player", "table", "position", "score", "rank", "placement_points")
    list_filter = ("round__event", "round__number")
    search_fields = ("player__name",)
    list_select_related = ("player", "table", "table__round", "table__round__event")
    raw_id_fields = ("player", "table")


@admin.register(Manche)
class MancheAdmin(admin.ModelAdmin):
    """Sheets are read here; they change only through the table and desk forms, which check the version."""

    list_display = ("__str__", "number", "version", "entered_at", "confirmed_at")
    list_filter = ("table__round__event", "table__round__number")
    list_select_related = ("table", "table__round", "table__round__event")
    readonly_fields = (
        "document",
        "result",
        "version",
        "entered_by",
        "entered_seat",
        "entered_at",
        "confirmed_seat",
        "confirmed_at",
    )
    raw_id_fields = ("table",)


@admin.register(SheetRevision)
class SheetRevisionAdmin(admin.ModelAdmin):
    list_display = ("manche", "version", "changed_at", "user", "via", "seat", "after_completion")
    list_filter = ("via", "after_completion", "manche__table__round__event")
    list_select_related = ("manche", "manche__table", "manche__table__round", "manche__table__round__event", "user")
    readonly_fields = [f.name for f in SheetRevision._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    """Standings are rebuilt from the results; here they are only read."""

    list_display = ("rank", "player", "event", "points", "score", "tiebreak", "buchholz", "rounds_played")
    list_filter = ("event",)
    search_fields = ("player__name",)
    list_select_related = ("player", "event")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    search_fields = ("name",)
    filter_horizontal = ("organisers",)


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ("name", "affiliation", "club")
    list_filter = ("club",)
    search_fields = ("name", "affiliation")


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "rule", "best")
    list_filter = ("club",)
    filter_horizontal = ("events",)


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    """Ratings are rebuilt from the results (manage.py rebuild_ratings): shown here, never typed."""

    list_display = ("person", "game", "ordinal", "mu", "sigma", "rounds", "events", "updated")
    list_filter = ("game", "person__club")
    search_fields = ("person__name",)
    list_select_related = ("person",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
