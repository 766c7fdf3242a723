"""The addresses phones on the local network reach this laptop at, for `make run HOST=0.0.0.0`."""

from django.conf import settings
from django.core.management.base import BaseCommand

from tournaments import public_address


class Command(BaseCommand):
    help = "Print the addresses phones should use; with options, ALLOWED_HOSTS or PUBLIC_URL for serving on them."

    def add_arguments(self, parser):
        parser.add_argument("--port", default="8000", help="The port the server listens on (8000).")
        what = parser.add_mutually_exclusive_group()
        what.add_argument(
            "--allowed-hosts", action="store_true", help="Print ALLOWED_HOSTS with this laptop's network addresses."
        )
        what.add_argument("--public-url", action="store_true", help="Print the address phones should use, or nothing.")

    def handle(self, *args, **options):
        if options["allowed_hosts"]:
            hosts = [
                *settings.ALLOWED_HOSTS,
                *(ip for ip in public_address.local_ips() if ip not in settings.ALLOWED_HOSTS),
            ]
            self.stdout.write(",".join(hosts))
            return
        addresses = public_address.lan_addresses(options["port"])
        if options["public_url"]:
            self.stdout.write(addresses[0] if addresses else "")
            return
        for address in addresses:
            self.stdout.write(f"Phones: {address}/")
        if not addresses:
            self.stdout.write("Phones: no network address found; connect this laptop to the venue's Wi-Fi first.")
