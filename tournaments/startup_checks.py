"""What an app server runs before it serves: Django's system checks, which ``manage.py`` runs for its commands."""

from __future__ import annotations

from django.core import checks
from django.core.exceptions import ImproperlyConfigured


def refuse_to_serve_if_misconfigured() -> None:
    """Raise ImproperlyConfigured, naming each setting at fault, when a system check reports an error (a bad
    ``PUBLIC_URL``...): a server started without ``manage.py`` (gunicorn) stops as ``runserver`` would."""
    serious = [message for message in checks.run_checks() if message.is_serious()]
    if serious:
        raise ImproperlyConfigured("\n".join(str(message) for message in serious))
