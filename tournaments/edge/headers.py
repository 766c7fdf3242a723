"""Security headers: the Content-Security-Policy (no inline scripts or styles) on every response, and
``Cache-Control: no-store`` on every answer meant for one visitor alone but the pages a phone keeps for when its
network is gone."""

from __future__ import annotations

from django.conf import settings
from django.utils.cache import patch_cache_control

DEFAULT_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'self'"
)


class SecurityHeadersMiddleware:
    """Adds the Content-Security-Policy (no inline scripts or styles) to every response."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault(
            "Content-Security-Policy", getattr(settings, "CONTENT_SECURITY_POLICY", DEFAULT_POLICY)
        )
        return response


def is_private(request) -> bool:
    """Whether the answer is for this visitor alone: they are logged in (organiser pages, downloads, the admin, a
    private event), or the address holds a table's or player's link, whose token is its secret."""
    route = getattr(request, "resolver_match", None)
    if route is not None and "token" in route.kwargs:
        return True
    user = getattr(request, "user", None)
    return user is not None and user.is_authenticated


#: The pages of a table's or a player's link that the phone holding the link keeps for when its network is gone
#: (the service worker's copy, which keeps nothing sent ``no-store``).
KEPT_ON_THE_PHONE = frozenset({"tournaments:table", "tournaments:player_table", "tournaments:player_link"})


def kept_on_the_phone(request, response) -> bool:
    """Whether the answer is a whole page of a link that the phone may keep: sent ``private, no-cache``, so that no
    proxy or shared cache keeps it, and the phone asks the server again before each use while it can."""
    route = getattr(request, "resolver_match", None)
    return (
        route is not None
        and route.view_name in KEPT_ON_THE_PHONE
        and request.method == "GET"
        and response.status_code == 200
        and not request.headers.get("HX-Request")
    )


class PrivateResponsesMiddleware:
    """Marks private answers ``Cache-Control: no-store``, so no browser, proxy or shared computer keeps a copy, but
    the pages kept on the phone (``private, no-cache``); public pages keep the caching they have.

    It stands before the session middleware: asking who the visitor is after that one answered adds no
    ``Vary: Cookie`` to public pages.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if kept_on_the_phone(request, response):
            patch_cache_control(response, private=True, no_cache=True)
        elif is_private(request):
            patch_cache_control(response, private=True, no_store=True)
        return response
