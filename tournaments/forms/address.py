"""The address phones reach Tablescore at, as an organiser types it for one event."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..public_address import AddressError, clean_public_url

HELP = _(
    "The start of every QR code and printed link, as phones on the venue's network reach this laptop, "
    "e.g. http://192.168.1.20:8000. Empty: the address Tablescore was started with (PUBLIC_URL), else the address you "
    "opened this page at."
)


def address_field() -> forms.CharField:
    return forms.CharField(label=_("Address for phones"), required=False, max_length=200, help_text=HELP)


def cleaned_address(value: str) -> str:
    """``value`` as ``scheme://host[:port]``, or the reason it cannot be one as a ValidationError."""
    try:
        return clean_public_url(value)
    except AddressError as error:
        raise forms.ValidationError(error.message, code="address") from None


class PublicAddressForm(forms.Form):
    """One event's address for phones; empty goes back to PUBLIC_URL or the page's own address."""

    public_url = address_field()

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def clean_public_url(self) -> str:
        return cleaned_address(self.cleaned_data["public_url"])
