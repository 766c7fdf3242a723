"""Oversized bodies: refused with 413 from their Content-Length, before anything reads them."""

from __future__ import annotations

import math

from django.conf import settings
from django.http import HttpResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _

from .answers import api_error, is_api


def body_limit(request) -> int:
    """The largest body this URL accepts: ``REQUEST_BODY_LIMIT``, or more for the views of ``REQUEST_BODY_LIMITS``."""
    limit = int(getattr(settings, "REQUEST_BODY_LIMIT", 256 * 1024))
    larger = getattr(settings, "REQUEST_BODY_LIMITS", {})
    if larger:
        try:
            view_name = resolve(request.path_info).view_name
        except Resolver404:
            return limit
        limit = max(limit, larger.get(view_name, limit))
    return limit


def content_length(request) -> int:
    try:
        return max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0


class RequestSizeLimitMiddleware:
    """Answers 413 from the Content-Length header alone, before anything reads an oversized body."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        length = content_length(request)
        if length and length > int(getattr(settings, "REQUEST_BODY_LIMIT", 256 * 1024)):
            limit = body_limit(request)
            if length > limit:
                return too_large(request, limit)
        return self.get_response(request)


def too_large(request, limit: int) -> HttpResponse:
    size = math.ceil(limit / 1024)
    if is_api(request):
        return api_error(_("This request is too large: send at most %(size)d kB.") % {"size": size}, 413)
    message = _("What you sent is too large: at most %(size)d kB. Send less at once.") % {"size": size}
    return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
