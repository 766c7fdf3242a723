"""Write the backup of one event as JSON, to a file or to the terminal."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.services.backup import export_event_json


class Command(BaseCommand):
    help = "Export a tournament (with players, rounds, sheets and standings) as one JSON file."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's web address, e.g. autumn-open-2026.")
        parser.add_argument("-o", "--output", help="File to write; the terminal when left out.")

    def handle(self, *args, slug, output=None, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No tournament has the web address “{slug}”.")
        text = export_event_json(event)
        if output:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"Backup of {event.name} written to {output}.")
        else:
            self.stdout.write(text, ending="")
