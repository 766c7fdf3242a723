"""Bring back a tournament from a backup made by export_event, its values checked as the set-up forms check them."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournaments.forms.backup import FORM_CHECKS
from tournaments.services.backup import BackupError, import_event, read_backup


class Command(BaseCommand):
    help = "Import a tournament from a JSON backup made by export_event (refused if its web address is taken)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The backup file; '-' reads it from standard input.")

    def handle(self, *args, file, **options):
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from error
        except UnicodeDecodeError as error:
            raise CommandError(_("%(file)s is not text in UTF-8.") % {"file": file}) from error
        try:
            event = import_event(read_backup(text), FORM_CHECKS)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"Imported {event.name} ({event.slug}): {event.players.count()} players, {event.rounds.count()} rounds."
        )
