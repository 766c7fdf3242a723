"""Forms of the players page: one player typed in, a player list uploaded or pasted."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Event
from ..names import clean_text, has_visible_character
from ..services.players import MAX_LENGTH, name_key, registered_names
from ..spreadsheets import ENCODINGS, MAX_XLSX_BYTES, UnreadableFile, is_xlsx, read_upload

#: The largest player list read at once, in characters (a few thousand players); a CSV file's largest size in bytes.
MAX_IMPORT_CHARS = 200_000
#: The most lines a player list may have.
MAX_IMPORT_LINES = 2_000


def too_long(text: str) -> str:
    """Why ``text`` is too long a player list to read, or nothing."""
    if len(text) > MAX_IMPORT_CHARS:
        return _("The list is too long: at most %(count)d characters.") % {"count": MAX_IMPORT_CHARS}
    if len(text.splitlines()) > MAX_IMPORT_LINES:
        return _("The list is too long: at most %(count)d lines.") % {"count": MAX_IMPORT_LINES}
    return ""


def duplicate_name(name: str) -> forms.ValidationError:
    return forms.ValidationError(
        _("A player called %(name)s is already registered: names must differ (capitals do not count)."),
        code="duplicate",
        params={"name": name},
    )


class PlayerEditForm(forms.Form):
    """One player's details as the organiser corrects them: the name stays unique in the event."""

    name = forms.CharField(label=_("Name"), max_length=MAX_LENGTH)
    club = forms.CharField(label=_("Club"), max_length=MAX_LENGTH, required=False)
    team = forms.CharField(label=_("Team"), max_length=MAX_LENGTH, required=False)
    checked_in = forms.BooleanField(label=_("Checked in"), required=False)
    active = forms.BooleanField(label=_("Plays on (untick to drop)"), required=False)

    def __init__(self, *args, player, **kwargs):
        super().__init__(*args, **kwargs)
        self.player = player

    def clean_name(self) -> str:
        name = clean_text(self.cleaned_data["name"])
        if not has_visible_character(name):
            raise forms.ValidationError(_("A name needs at least one letter or digit."), code="invisible")
        others = registered_names(self.player.event) - {name_key(self.player.name)}
        if name_key(name) in others:
            raise duplicate_name(name)
        return name

    def clean_club(self) -> str:
        return clean_text(self.cleaned_data["club"])

    def clean_team(self) -> str:
        return clean_text(self.cleaned_data["team"])


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=MAX_LENGTH)
    club = forms.CharField(label=_("Club"), max_length=MAX_LENGTH, required=False)
    team = forms.CharField(
        label=_("Team"),
        max_length=MAX_LENGTH,
        required=False,
        help_text=_("Optional. A new team name creates the team."),
    )
    checked_in = forms.BooleanField(label=_("Checked in"), required=False)

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_name(self) -> str:
        name = clean_text(self.cleaned_data["name"])
        if not has_visible_character(name):
            raise forms.ValidationError(_("A name needs at least one letter or digit."), code="invisible")
        if name_key(name) in registered_names(self.event):
            raise duplicate_name(name)
        return name

    def clean_club(self) -> str:
        return clean_text(self.cleaned_data["club"])

    def clean_team(self) -> str:
        return clean_text(self.cleaned_data["team"])


class ImportForm(forms.Form):
    """A player list as a file or as pasted text; the file, if chosen, is used instead of the text."""

    file = forms.FileField(
        label=_("CSV or Excel file"),
        required=False,
        help_text=_(
            "A CSV file (UTF-8 or Windows-1252, columns separated by semicolons or commas) or an Excel workbook "
            "(.xlsx). Used instead of the pasted text."
        ),
    )
    text = forms.CharField(
        label=_("Or paste the list"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_(
            "One player a line: name, club, team. A first line of column names is recognised, "
            "and the app's own player list (CSV or Excel) is read back as it was downloaded."
        ),
    )
    keep_status = forms.BooleanField(
        label=_("Keep check-ins and dropped players from the file"),
        required=False,
        help_text=_(
            "Left unticked, everyone is imported not checked in and playing, as a new event starts, whatever the "
            "file says: a list from another evening brings none of its check-ins and drops."
        ),
    )

    def clean_file(self):
        """The chosen file's text: refused past the size of its kind before it is read, and past the list's length."""
        upload = self.cleaned_data.get("file")
        if not upload:
            return None
        data = upload.read(MAX_XLSX_BYTES + 1)
        limit = MAX_XLSX_BYTES if is_xlsx(upload.name, data) else MAX_IMPORT_CHARS
        if len(data) > limit:
            raise forms.ValidationError(
                _("The file is too large: at most %(size)d kB."), params={"size": limit // 1000}
            )
        try:
            text, self.encoding = read_upload(upload.name, data, MAX_IMPORT_LINES)
        except UnreadableFile as error:
            raise forms.ValidationError(str(error)) from error
        if reason := too_long(text):
            raise forms.ValidationError(reason)
        return text

    @property
    def read_as(self) -> str:
        """How the uploaded file was read, in words; empty for pasted text."""
        return str(ENCODINGS.get(getattr(self, "encoding", ""), ""))

    def clean(self):
        cleaned = super().clean()
        text = cleaned.get("file") or cleaned.get("text") or ""
        if "file" in self.errors:
            return cleaned
        if not text.strip():
            self.add_error("text", _("Choose a CSV file or paste the list of players."))
        elif reason := too_long(text):
            self.add_error("text", reason)
        cleaned["text"] = text
        return cleaned
