"""The client's address, behind a proxy or not."""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or the last hop of ``settings.CLIENT_IP_HEADER`` behind a proxy.

    The last hop is the one the proxy itself added; earlier ones come from the client and may be forged. A last
    hop that is not an address (a proxy set up wrongly) counts for nothing, and REMOTE_ADDR is used.
    """
    header = getattr(settings, "CLIENT_IP_HEADER", "")
    if header:
        forwarded = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            try:
                return str(ipaddress.ip_address(hops[-1]))
            except ValueError:
                pass
    return request.META.get("REMOTE_ADDR", "")
