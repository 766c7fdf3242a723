"""Rebuild the ratings of every club (or of one) from the stored results."""

import time

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Club
from tournaments.ratings.build import rebuild_ratings


class Command(BaseCommand):
    help = "Rate the people of every club again from the completed rounds of its events: the same numbers each time."

    def add_arguments(self, parser):
        parser.add_argument("--club", metavar="SLUG", help="Only the club with this web address.")

    def handle(self, *args, club=None, **options):
        clubs = Club.objects.order_by("pk")
        if club is not None:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"No club has the web address “{club}”.")
        for each in clubs:
            started = time.perf_counter()
            count = rebuild_ratings(each)
            seconds = time.perf_counter() - started
            self.stdout.write(f"{each.slug}: {count} ratings rebuilt in {seconds:.2f} s")
