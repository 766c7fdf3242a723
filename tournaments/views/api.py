"""The JSON API of a table's sheet: GET it, PUT a score-sheet document with the version it was based on.

    GET /api/tables/<token>/sheet
    PUT /api/tables/<token>/sheet  {"manche": 1, "version": 0, "document": {...}}
        (or the document's own fields with "version" and "manche" beside them)

200 with the result document, 400 with the error document, 409 on a stale version, 403 while the table takes
no change (its round not started yet, the table locked or the round complete). Every answer is JSON, never a
500: a body that is not a JSON object in UTF-8 (NaN and Infinity included), a version or manche that is not a
whole number in range, or a document that is not an object is a 400 naming what is wrong. Messages follow the
request's language (``Accept-Language``, as the pages do), the game's components named in the game's own words.
``/api/openapi.json`` describes it all (``tournaments.openapi``).
"""

from __future__ import annotations

import json

from django.http import Http404, JsonResponse
from django.urls import path
from django.utils.translation import gettext_noop as _
from django.views.decorators.csrf import csrf_exempt

import scoring
from scoring.errors import Problem
from scoring.values import is_int

from ..devices import known_device_id
from ..games.problems import translated_document
from ..models import Manche
from ..models.sheets import Via
from ..openapi import MAX_NUMBER, description
from ..services.sheets import Author, NoSuchManche, StaleSheet, TableClosed, record_table_sheet
from ..services.tables import TableAtHand, published_table


def error_document(*problems: Problem, status: int = 400) -> JsonResponse:
    return JsonResponse(translated_document(problems), status=status)


def manche_document(manche: Manche) -> dict:
    return {
        "number": manche.number,
        "version": manche.version,
        "document": manche.document,
        "result": manche.result,
        "confirmed": manche.confirmed_at is not None,
    }


def get_sheet(at: TableAtHand) -> JsonResponse:
    event = at.event
    return JsonResponse(
        {
            "event": event.name,
            "game": event.game,
            "variant": event.effective_variant,
            "round": at.round.number,
            "table": at.table.number,
            "players": at.names,
            "manches": [manche_document(m) for m in at.read_manches()],
        }
    )


class NotANumber(ValueError):
    """NaN, Infinity or -Infinity in a body: Python's JSON reader takes them, JSON does not."""


def refuse_constant(name: str) -> None:
    raise NotANumber(name)


def in_range(value: object, minimum: int) -> bool:
    return is_int(value) and minimum <= value <= MAX_NUMBER


def read_body(request) -> tuple[dict, int, int] | JsonResponse:
    """The document, the manche number and the version of a PUT, or the error response."""
    try:
        body = json.loads(request.body.decode("utf-8"), parse_constant=refuse_constant)
    except NotANumber:
        return error_document(Problem("", _("NaN and Infinity are not JSON numbers: send whole numbers.")))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return error_document(Problem("", _("This is not a JSON document in UTF-8.")))
    if not isinstance(body, dict):
        return error_document(Problem("", _("Send a JSON object with the version and the document.")))
    version, number = body.get("version"), body.get("manche", 1)
    if not in_range(version, 0):
        return error_document(Problem("version", _("Send the version of the sheet this change is based on.")))
    if not in_range(number, 1):
        return error_document(Problem("manche", _("Say which manche this sheet is for, counting from 1.")))
    document = body.get("document", {k: v for k, v in body.items() if k not in {"version", "manche"}})
    if not isinstance(document, dict):
        return error_document(Problem("document", _("Send the score sheet as a JSON object: its game and players.")))
    return document, number, version


def put_sheet(request, at: TableAtHand) -> JsonResponse:
    closed = at.closed_reason()
    if closed:
        return error_document(Problem("", closed), status=403)
    read = read_body(request)
    if isinstance(read, JsonResponse):
        return read
    document, number, version = read
    try:
        author = Author(via=Via.API, device=known_device_id(request))
        manche = record_table_sheet(at, number, document, based_on=version, author=author, only_while_open=True)
    except TableClosed as refused:
        return error_document(Problem("", refused.reason), status=403)
    except NoSuchManche:
        return error_document(
            Problem("manche", _("This table has no manche {number}."), {"number": number}), status=404
        )
    except scoring.ScoreSheetError as error:
        return error_document(*error.problems)
    except StaleSheet as stale:
        conflict = translated_document([Problem("version", _("The sheet changed since that version."))])
        conflict["current"] = manche_document(stale.current)
        return JsonResponse(conflict, status=409)
    return JsonResponse({**manche.result, "manche": manche.number, "version": manche.version})


@csrf_exempt
def table_sheet(request, token: str):
    """The table link is the credential; no cookie is involved, so there is nothing for CSRF to forge."""
    at = published_table(token)
    if at is None:
        raise Http404
    if request.method == "GET":
        return get_sheet(at)
    if request.method == "PUT":
        return put_sheet(request, at)
    response = error_document(Problem("", _("Use GET or PUT.")), status=405)
    response["Allow"] = "GET, PUT"
    return response


@csrf_exempt
def openapi_description(request):
    """The OpenAPI 3.1 description of this API: public, like the spec it follows; nothing to forge."""
    if request.method != "GET":
        response = error_document(Problem("", _("Use GET.")), status=405)
        response["Allow"] = "GET"
        return response
    return JsonResponse(description())


urlpatterns = [
    path("api/tables/<str:token>/sheet", table_sheet, name="api_table_sheet"),
    path("api/openapi.json", openapi_description, name="api_openapi"),
]
