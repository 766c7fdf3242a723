"""The OpenAPI 3.1 description of the JSON API of a table's sheet, served at ``/api/openapi.json``.

It follows the score-sheet spec: the GET answer, the two shapes of a PUT body, the result document and the
error document. The score-sheet document is one schema per game of the registry (``oneOf`` by ``game``), each made
from the keys its rules read (``GameRules.document``, else its tally fields) with the demo's sheet as example, so a
new game bundle is described with no other change.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any

from django.conf import settings

from scoring.registry import TallyField
from scoring.shape import ANY, Each

from . import games
from .edge.busy_database import RETRY_AFTER_SECONDS
from .models import Event
from .models.tokens import TOKEN_PATTERN

#: The largest version or manche number a request may name: what a database integer column holds.
MAX_NUMBER = 2**31 - 1
SHEET_PATH = "/api/tables/{token}/sheet"
#: The players of each game's example sheet, as many as the game's tables seat by default.
EXAMPLE_PLAYERS = ("Ada", "Bea", "Cyd", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivo")
#: The demo's random numbers for the examples: the same document every time the description is served.
EXAMPLE_SEED = 1


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def answer(description: str, schema: dict[str, Any], headers: dict[str, Any] | None = None) -> dict[str, Any]:
    """A response of JSON ``schema``, with ``headers`` (name: schema, each always sent)."""
    response: dict[str, Any] = {"description": description, "content": {"application/json": {"schema": schema}}}
    if headers:
        response["headers"] = {name: {"required": True, "schema": header} for name, header in headers.items()}
    return response


def sheet_schema_name(game: games.Game) -> str:
    """The component name of a game's sheet: the words of its key capitalised, then ScoreSheet."""
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", game.key)) + "ScoreSheet"


def described(schema: dict[str, Any], tally: TallyField | None) -> dict[str, Any]:
    """``schema`` with the tally field's label and help as its description, when the key is a tally field."""
    if tally is None:
        return schema
    return {**schema, "description": f"{tally.label}: {tally.help}" if tally.help else tally.label}


def shape_schema(shape: Any, tallies: dict[str, TallyField], key: str = "") -> dict[str, Any]:
    """The JSON schema of a value of ``shape`` (``scoring.shape``): objects and lists as the rules read them, any
    value where they read it whole (the rules check it and say why they refuse it); other keys are allowed."""
    if shape is ANY:
        schema: dict[str, Any] = {}
    elif isinstance(shape, Each):
        schema = {"type": "object", "additionalProperties": shape_schema(shape.shape, tallies)}
    elif isinstance(shape, list):
        schema = {"type": "array", "items": shape_schema(shape[0], tallies)}
    else:
        properties = {name: shape_schema(value, tallies, name) for name, value in shape.items()}
        schema = {"type": "object", "properties": properties}
    return described(schema, tallies.get(key))


def own_fields(game: games.Game) -> dict[str, Any]:
    """The schemas of the game's own fields: the keys its rules read, or one whole number per player and tally field
    for a game whose sheet is only its tally fields."""
    tallies = {tally.key: tally for tally in game.rules.tally_fields}
    if game.rules.document is None:
        per_player = {"type": "array", "items": {"type": "integer"}}
        return {key: described(per_player, tally) for key, tally in tallies.items()}
    return {name: shape_schema(shape, tallies, name) for name, shape in game.rules.document.items()}


def example_sheet(game: games.Game) -> dict[str, Any] | None:
    """A whole document of the game, as the demo plays it at a table of the game's default size; None for a game
    without a demo sheet."""
    event = Event(
        game=game.key, table_size=game.defaults.table_size, options=dict(game.demo.options if game.demo else {})
    )
    players = list(EXAMPLE_PLAYERS[: game.defaults.table_size])
    try:
        own = game.demo_sheet(random.Random(EXAMPLE_SEED), players, event)
    except NotImplementedError:
        return None
    document = {"game": game.key, "variant": event.effective_variant, "players": players, **own}
    return {**document, **game.document_fields(event)}


def game_sheet_schema(game: games.Game) -> dict[str, Any]:
    """The score-sheet document of one game: the common fields, then the game's own."""
    schema: dict[str, Any] = {
        "type": "object",
        "title": game.name,
        "description": f"A sheet of {game.name}; keys its rules do not read are dropped.",
        "required": ["game", "players"],
        "properties": {
            "game": {"type": "string", "const": game.key},
            "variant": {"type": "string", "enum": [variant.key for variant in game.rules.variants]},
            "players": {
                "type": "array",
                "minItems": 1,
                "maxItems": 9,
                "items": {"type": "string", "minLength": 1, "maxLength": 100},
            },
            **own_fields(game),
        },
    }
    example = example_sheet(game)
    if example is not None:
        schema["examples"] = [example]
    return schema


def sheet_schemas() -> dict[str, Any]:
    """``ScoreSheet``, one of the games' sheets chosen by ``game``, and each game's sheet under its own name."""
    named = {sheet_schema_name(game): game_sheet_schema(game) for game in games.all_games()}
    mapping = {game.key: ref(sheet_schema_name(game))["$ref"] for game in games.all_games()}
    score_sheet = {
        "description": (
            "The score-sheet document: the game, the players in seat order and the game's own fields, as its "
            "schema below says. Keys the game's rules do not read are dropped; at most 16 kB as compact JSON in UTF-8."
        ),
        "oneOf": [ref(name) for name in named],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }
    return {"ScoreSheet": score_sheet, **named}


def schemas() -> dict[str, Any]:
    game_keys = [game.key for game in games.all_games()]
    whole = {"type": "integer"}
    return {
        "Version": {
            "type": "integer",
            "minimum": 0,
            "maximum": MAX_NUMBER,
            "description": "The version of the sheet a change is based on: 0 before the first sheet.",
        },
        "MancheNumber": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_NUMBER,
            "default": 1,
            "description": "Which manche of the table the sheet is for, counting from 1.",
        },
        **sheet_schemas(),
        "PlayerResult": {
            "type": "object",
            "required": ["name", "score", "rank", "tiebreak", "breakdown"],
            "properties": {
                "name": {"type": "string"},
                "score": whole,
                "rank": {"type": "integer", "minimum": 1},
                "tiebreak": {"type": "array", "items": whole},
                "breakdown": {"type": "object"},
            },
        },
        "TeamResult": {
            "type": "object",
            "required": ["players", "score", "rank", "tiebreak"],
            "properties": {
                "players": {"type": "array", "items": {"type": "string"}},
                "score": whole,
                "rank": {"type": "integer", "minimum": 1},
                "tiebreak": {"type": "array", "items": whole},
            },
        },
        "Result": {
            "type": "object",
            "description": "The result document: players in seat order with score and rank; teams in team variants.",
            "required": ["game", "variant", "players"],
            "properties": {
                "game": {"type": "string"},
                "variant": {"type": "string"},
                "players": {"type": "array", "items": ref("PlayerResult")},
                "teams": {"type": "array", "items": ref("TeamResult")},
            },
        },
        "SavedSheet": {
            "description": "The result of the sheet just saved, with its manche and its new version.",
            "allOf": [ref("Result")],
            "required": ["manche", "version"],
            "properties": {"manche": ref("MancheNumber"), "version": {"type": "integer", "minimum": 1}},
        },
        "Manche": {
            "type": "object",
            "required": ["number", "version", "document", "result", "confirmed"],
            "properties": {
                "number": ref("MancheNumber"),
                "version": ref("Version"),
                "document": {"oneOf": [ref("ScoreSheet"), {"type": "null"}]},
                "result": {"oneOf": [ref("Result"), {"type": "null"}]},
                "confirmed": {"type": "boolean"},
            },
        },
        "TableSheet": {
            "type": "object",
            "required": ["event", "game", "variant", "round", "table", "players", "manches"],
            "properties": {
                "event": {"type": "string"},
                "game": {"type": "string", "enum": game_keys},
                "variant": {"type": "string"},
                "round": {"type": "integer", "minimum": 1},
                "table": {"type": "integer", "minimum": 1},
                "players": {"type": "array", "items": {"type": "string"}},
                "manches": {"type": "array", "items": ref("Manche")},
            },
        },
        "SheetPut": {
            "type": "object",
            "description": "The sheet in ``document``, beside the version it is based on and its manche.",
            "required": ["version", "document"],
            "properties": {"version": ref("Version"), "manche": ref("MancheNumber"), "document": ref("ScoreSheet")},
        },
        "FlatSheetPut": {
            "description": "The sheet's own fields, with ``version`` and ``manche`` beside them.",
            "allOf": [ref("ScoreSheet")],
            "required": ["version"],
            "properties": {"version": ref("Version"), "manche": ref("MancheNumber")},
        },
        "Problem": {
            "type": "object",
            "required": ["path", "message"],
            "properties": {
                "path": {
                    "type": "string",
                    "description": 'Where in the request: a path into the sheet, a field of the body, or "".',
                },
                "message": {"type": "string", "minLength": 1},
            },
        },
        "Errors": {
            "type": "object",
            "description": "The error document: every problem found, each with its path.",
            "required": ["errors"],
            "properties": {"errors": {"type": "array", "minItems": 1, "items": ref("Problem")}},
        },
        "Conflict": {
            "description": "The error document with the manche as it is now.",
            "allOf": [ref("Errors")],
            "required": ["current"],
            "properties": {"current": ref("Manche")},
        },
    }


def responses() -> dict[str, Any]:
    errors = ref("Errors")
    retry = {"type": "string", "pattern": "^[0-9]+$"}
    limit = math.ceil(int(getattr(settings, "REQUEST_BODY_LIMIT", 256 * 1024)) / 1024)
    return {
        "BadRequest": answer(
            "The body is not a JSON object in UTF-8 (NaN and Infinity are not JSON), its version or manche is "
            "not a whole number in range, or the rules refuse the sheet: every problem, each with its path.",
            errors,
        ),
        "Closed": answer(
            "The round has not started yet, the table is locked or its round complete: its sheets take no change.",
            errors,
        ),
        "NotFound": answer("No published table has this link, or the table has no such manche.", errors),
        "MethodNotAllowed": answer(
            "Only GET and PUT are answered at this address.", errors, {"Allow": {"type": "string", "const": "GET, PUT"}}
        ),
        "Conflict": answer(
            "The sheet changed since that version: the manche as it is now is in current.", ref("Conflict")
        ),
        "TooLarge": answer(f"The body is larger than the server takes ({limit} kB).", errors),
        "TooManyRequests": answer("Too many requests: send again after Retry-After seconds.", errors),
        "Busy": answer(
            f"The database is busy: send the same request again after Retry-After ({RETRY_AFTER_SECONDS}) seconds.",
            errors,
            {"Retry-After": retry},
        ),
    }


def description() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the API, as served."""

    def use(name: str) -> dict[str, str]:
        return {"$ref": f"#/components/responses/{name}"}

    token = {
        "name": "token",
        "in": "path",
        "required": True,
        "description": "The table's secret link token, as in its link /t/<token>/.",
        "schema": {"type": "string", "pattern": f"^{TOKEN_PATTERN.pattern}$"},
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Tablescore table sheet API",
            "version": "1",
            "description": (
                "Read a table's sheets and send one manche's score sheet. The table's link token is the "
                "credential. Answers are JSON; an error answer is the error document."
            ),
        },
        "paths": {
            SHEET_PATH: {
                "parameters": [token],
                "get": {
                    "operationId": "getTableSheet",
                    "summary": "The table's event, players and manches, each with its sheet, result and version.",
                    "responses": {
                        "200": answer("The table and its manches.", ref("TableSheet")),
                        "404": use("NotFound"),
                        "405": use("MethodNotAllowed"),
                        "429": use("TooManyRequests"),
                        "503": use("Busy"),
                    },
                },
                "put": {
                    "operationId": "putTableSheet",
                    "summary": "Score and save one manche's sheet, if nobody changed it since ``version``.",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": {"anyOf": [ref("SheetPut"), ref("FlatSheetPut")]}}},
                    },
                    "responses": {
                        "200": answer("The sheet is saved: its result, manche and new version.", ref("SavedSheet")),
                        "400": use("BadRequest"),
                        "403": use("Closed"),
                        "404": use("NotFound"),
                        "405": use("MethodNotAllowed"),
                        "409": use("Conflict"),
                        "413": use("TooLarge"),
                        "429": use("TooManyRequests"),
                        "503": use("Busy"),
                    },
                },
            },
            "/api/openapi.json": {
                "get": {
                    "operationId": "getDescription",
                    "summary": "This description.",
                    "responses": {
                        "200": answer("The OpenAPI 3.1 description of this API.", {"type": "object"}),
                        "405": answer(
                            "Only GET is answered at this address.", ref("Errors"), {"Allow": {"const": "GET"}}
                        ),
                    },
                }
            },
        },
        "components": {"schemas": schemas(), "responses": responses()},
    }
