"""The address phones reach this Tablescore at, for every QR code and printed link; the laptop's own addresses.

An event's own address wins, then the ``PUBLIC_URL`` setting, then the address the request came in on. A laptop
serving at 127.0.0.1 prints links no phone can open: ``is_loopback`` tells, and ``lan_addresses`` offers the
laptop's addresses on the local network instead (found without contacting any other machine).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

SCHEMES = ("http", "https")
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})
HOST_NAME = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?", re.IGNORECASE)
#: A private address to "connect" a UDP socket to: no packet leaves, the system only picks the outgoing interface.
ROUTE_PROBE = ("10.254.254.254", 9)
#: How long to wait for this server to answer at one of its own addresses.
PROBE_SECONDS = 0.3


class AddressError(ValueError):
    """Not an address phones could be sent to; ``message`` says why, in the user's language."""

    def __init__(self, message):
        super().__init__()
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


def clean_public_url(value: str) -> str:
    """``value`` as ``scheme://host[:port]`` (http or https, nothing after the host but ``/``); "" stays "".

    ``192.168.1.20:8000`` is taken as ``http://192.168.1.20:8000``. Raises ``AddressError`` otherwise.
    """
    text = (value or "").strip()
    if not text:
        return ""
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as error:
        raise AddressError(_("The port must be a number from 1 to 65535.")) from error
    if parts.scheme.lower() not in SCHEMES:
        raise AddressError(_("The address must start with http:// or https://."))
    host = parts.hostname or ""
    if not valid_host(host):
        raise AddressError(_("Give a host name or an IP address, e.g. http://192.168.1.20:8000."))
    if parts.username or parts.password:
        raise AddressError(_("The address cannot hold a user name or password."))
    if parts.path not in ("", "/") or parts.query or parts.fragment or text.endswith(("?", "#")):
        raise AddressError(_("Give only the start of the address, with nothing after the host and port."))
    if port == 0:
        raise AddressError(_("The port must be a number from 1 to 65535."))
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme.lower()}://{shown.lower()}" + (f":{port}" if port else "")


def valid_host(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return bool(HOST_NAME.fullmatch(host)) and len(host) <= 253
    return True


def is_loopback(address: str) -> bool:
    """Whether ``address`` (a URL or a bare host) names this machine only: localhost, 127.x, ::1 (or 0.0.0.0)."""
    host = (urlsplit(address).hostname if "://" in address else address.strip("[]")) or ""
    host = host.lower().rstrip(".")
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


# Which address is used ------------------------------------------------------------------------------------------


class Source:
    EVENT = "event"
    SETTING = "setting"
    REQUEST = "request"


@dataclass(frozen=True)
class PublicAddress:
    """The address links start with, and where it comes from (``Source``)."""

    url: str
    source: str

    @property
    def loopback(self) -> bool:
        return is_loopback(self.url)


def stored_address(value: str) -> str:
    """A stored or configured address, cleaned; "" when empty or unusable (an old backup, a mistyped setting)."""
    try:
        return clean_public_url(value)
    except AddressError:
        return ""


def public_address(request, event=None) -> PublicAddress:
    """The event's address, else ``PUBLIC_URL``, else the address this request came in on."""
    own = stored_address(getattr(event, "public_url", "") or "")
    if own:
        return PublicAddress(own, Source.EVENT)
    configured = stored_address(getattr(settings, "PUBLIC_URL", "") or "")
    if configured:
        return PublicAddress(configured, Source.SETTING)
    return PublicAddress(request.build_absolute_uri("/").rstrip("/"), Source.REQUEST)


def public_link(request, event, path: str) -> str:
    """The absolute address of ``path`` (from ``reverse``) as phones should open it: for QR codes and printouts."""
    return public_address(request, event).url + path


def table_link(request, event, table) -> str:
    """The address of a table's scorer link, as its QR code carries it."""
    return public_link(request, event, reverse("tournaments:table", args=[table.token]))


# The laptop's own addresses -------------------------------------------------------------------------------------


def routed_address() -> str | None:
    """The IPv4 address this machine would use to reach the local network (a UDP "connect" sends nothing)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            return probe.getsockname()[0]
    except OSError:
        return None


def named_addresses() -> list[str]:
    """The IPv4 addresses this machine's own name resolves to."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return [info[4][0] for info in found]


def private_ipv4(address: str | None) -> bool:
    try:
        ip = ipaddress.IPv4Address(address or "")
    except ValueError:
        return False
    return ip.is_private and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def local_ips() -> list[str]:
    """This machine's private IPv4 addresses, the one on the way to the local network first."""
    found = []
    for ip in [routed_address(), *named_addresses()]:
        if private_ipv4(ip) and ip not in found:
            found.append(ip)
    return found


def lan_addresses(port: int | str, scheme: str = "http") -> list[str]:
    """``scheme://ip:port`` for each of ``local_ips()``: the addresses phones on the same network may use."""
    return [f"{scheme}://{ip}:{port}" for ip in local_ips()]


def answers_at(ip: str, port: int) -> bool:
    """Whether something accepts connections at ``ip:port``: is this server listening beyond 127.0.0.1?"""
    try:
        with socket.create_connection((ip, int(port)), timeout=PROBE_SECONDS):
            return True
    except (OSError, ValueError):
        return False


def allowed_host(ip: str) -> bool:
    """Whether Django accepts requests addressed to ``ip`` (``ALLOWED_HOSTS``)."""
    hosts = settings.ALLOWED_HOSTS or ([".localhost", "127.0.0.1", "[::1]"] if settings.DEBUG else [])
    return validate_host(ip, hosts)


@dataclass(frozen=True)
class Candidate:
    """One of the laptop's addresses, and whether phones could reach this Tablescore there right now."""

    url: str
    listening: bool
    allowed: bool

    @property
    def ready(self) -> bool:
        return self.listening and self.allowed


def candidates(request) -> list[Candidate]:
    """The laptop's network addresses on the port this page was served from, each checked."""
    port = split_domain_port(request.get_host())[1] or request.get_port()
    found = []
    for ip in local_ips():
        found.append(Candidate(f"{request.scheme}://{ip}:{port}", answers_at(ip, port), allowed_host(ip)))
    return found
