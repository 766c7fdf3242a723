"""System checks of the settings, run as the server and management commands start: a bad one stops them."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error

from .public_address import AddressError, clean_public_url


def public_url(app_configs, **kwargs) -> list[Error]:
    """``PUBLIC_URL`` is empty or an address phones can be sent to: http or https, a host, an optional port."""
    value = getattr(settings, "PUBLIC_URL", "") or ""
    try:
        clean_public_url(value)
    except AddressError as error:
        return [
            Error(
                f"PUBLIC_URL must be an address such as http://192.168.1.20:8000 (http or https, a host, an optional "
                f"port, no path), not {value!r}",
                hint=str(error),
                id="tournaments.E001",
            )
        ]
    return []
