from pathlib import Path

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import register
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import checks
        from .games.registry import read_bundle_translations
        from .ratings import signals  # noqa: F401  (connects the receivers)

        read_bundle_translations()

        register(checks.public_url)
        make_static_root()


def make_static_root() -> None:
    """Makes ``STATIC_ROOT`` if missing: whitenoise serves it and warns at every start when it is not there, as it
    is until ``collectstatic`` fills it (the static files are served from their own folders meanwhile)."""
    if settings.STATIC_ROOT:
        Path(settings.STATIC_ROOT).mkdir(parents=True, exist_ok=True)
