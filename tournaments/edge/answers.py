"""Short error answers that need neither the database nor the session: the API's, a page's, an HTMX alert's."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.translation import get_language


def is_api(request) -> bool:
    return request.path_info.startswith("/api/")


def api_error(message: str, status: int) -> JsonResponse:
    """The API's error document, shaped as the score sheet's errors are."""
    return JsonResponse({"errors": [{"path": "", "message": message}]}, status=status)


def short_page(title: str, message: str, status: int) -> HttpResponse:
    """A small HTML page that needs neither the database nor the session."""
    html = format_html(
        '<!DOCTYPE html><html lang="{}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>{}</title>'
        '<link rel="stylesheet" href="{}"></head><body><main id="main"><h1>{}</h1><p>{}</p></main></body></html>',
        get_language() or settings.LANGUAGE_CODE,
        title,
        static("css/tablescore.css"),
        title,
        message,
    )
    return HttpResponse(html, status=status)


def page_alert(message: str, status: int) -> HttpResponse:
    """For a request made by HTMX: the message in the page's alert area, leaving what was typed in place."""
    response = HttpResponse(format_html('<p class="notice warning">{}</p>', message), status=status)
    response["HX-Retarget"] = "#alerts"
    response["HX-Reswap"] = "innerHTML"
    return response
