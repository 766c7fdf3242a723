"""Bring back a tournament from a backup made by export_event."""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.services.backup import import_event


class Command(BaseCommand):
    help = "Import a tournament from a JSON backup made by export_event (refused if its web address is taken)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The backup file; '-' reads it from standard input.")

    def handle(self, *args, file, **options):
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from error
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(f"{file} is not JSON: {error}.") from error
        try:
            event = import_event(document)
        except ValueError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"Imported {event.name} ({event.slug}): {event.players.count()} players, {event.rounds.count()} rounds."
        )
