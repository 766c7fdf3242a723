"""A club's forms: creating one, and merging two of its people."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..collation import alphabetical
from ..models import Club, Person
from ..names import clean_text, has_visible_character


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name"]

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["name"].label = _("Club name")

    def clean_name(self) -> str:
        name = clean_text(self.cleaned_data["name"])
        if not has_visible_character(name):
            raise forms.ValidationError(_("A name needs at least one letter or digit."))
        return name


def person_choices(club: Club) -> list[tuple[int, str]]:
    return [(person.pk, str(person)) for person in alphabetical(club.people.all(), key=str)]


class MergeForm(forms.Form):
    """Which person of the club is kept and which one joins them."""

    keep = forms.TypedChoiceField(label=_("Keep"), coerce=int)
    other = forms.TypedChoiceField(label=_("and merge into them"), coerce=int)

    def __init__(self, *args, club: Club, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        choices = person_choices(club)
        self.fields["keep"].choices = self.fields["other"].choices = choices
        if len(choices) > 1:
            self.fields["other"].initial = choices[1][0]
        self.club = club

    def people(self) -> tuple[Person, Person]:
        keep, other = self.cleaned_data["keep"], self.cleaned_data["other"]
        found = {person.pk: person for person in self.club.people.filter(pk__in=[keep, other])}
        return found[keep], found[other]
