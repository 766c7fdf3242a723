"""Security headers: the Content-Security-Policy (no inline scripts or styles) on every response."""

from __future__ import annotations

from django.conf import settings

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
