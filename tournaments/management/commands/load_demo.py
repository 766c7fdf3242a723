"""Load the demo events (one per game)."""

from django.core.management.base import BaseCommand

from tournaments.demo import load_demo
from tournaments.models import Event


class Command(BaseCommand):
    help = "Load one demo tournament per game, with players, a seated round and some scores."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="Do nothing when any tournament exists.")

    def handle(self, *args, if_empty=False, **options):
        if if_empty and Event.objects.exists():
            self.stdout.write("Tournaments exist already; the demo is not loaded again.")
            return
        events = load_demo()
        for event in events:
            self.stdout.write(f"Demo loaded: {event.name} ({event.game_name}, {event.players.count()} players)")
