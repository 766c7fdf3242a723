"""Create the organiser account when there is none, and print how to log in."""

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

USERNAME = "organiser"


class Command(BaseCommand):
    help = "Create an organiser account if none exists and print its login."

    def add_arguments(self, parser):
        parser.add_argument(
            "--address", default="http://127.0.0.1:8000", help="Where the server answers, for the login link."
        )

    def handle(self, *args, **options):
        users = get_user_model()
        password_file = Path(settings.DATA_DIR) / ".organiser_password"
        if not users.objects.filter(is_superuser=True).exists():
            password = secrets.token_urlsafe(9)
            users.objects.create_superuser(USERNAME, email="", password=password)
            password_file.write_text(password + "\n")
            password_file.chmod(0o600)
        user = users.objects.filter(username=USERNAME).first()
        known = password_file.read_text().strip() if password_file.exists() else ""
        if user is not None and known and user.check_password(known):
            self.stdout.write(
                f"Log in at {options['address'].rstrip('/')}/accounts/login/ as '{USERNAME}' with password '{known}'."
            )
        else:
            self.stdout.write("Log in with your organiser account; `manage.py changepassword NAME` resets a password.")
