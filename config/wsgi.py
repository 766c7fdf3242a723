"""WSGI entry point (gunicorn config.wsgi): the app, its process readied before it serves."""

import os

from django.core.wsgi import get_wsgi_application

from config.env import ensure_secret_key

ensure_secret_key()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

from tournaments.startup_checks import refuse_to_serve_if_misconfigured  # noqa: E402  (needs the apps loaded)

refuse_to_serve_if_misconfigured()

from tournaments.warm_up import warm_up  # noqa: E402  (needs the apps loaded)

warm_up()
