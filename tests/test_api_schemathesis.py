"""Schemathesis against a live server: requests generated from ``/api/openapi.json`` (valid ones and ones that
break it) to a real table's sheet; no answer may be a server error or differ from what the description says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.factories import enter, seat_by_hand
from tournaments.models.rounds import RoundStatus

pytestmark = pytest.mark.django_db(transaction=True)

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
CHECKS = [
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
]
MANCHE = {"pozzo": [30, 0, 20, 10], "sequences": [6, 2, 5, 3], "family_bonuses": [1, 0, 0, 0], "penalties": [0] * 4}


def test_schemathesis_finds_no_server_error_and_no_answer_the_description_does_not_give(
    live_server, make_event, tmp_path
):
    event = make_event("vegetables", players=4, manches_per_round=2)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    table = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()
    enter(table, {"manches": [MANCHE]}, via="api")
    config = tmp_path / "schemathesis.toml"
    # The table's players in every generated sheet, so that sheets can get past the players check to the rules.
    names = json.dumps([seat.player.name for seat in table.seats.order_by("position")])
    config.write_text(
        f'[parameters]\n"path.token" = "{table.token}"\n"body.document.players" = {names}\n"body.players" = {names}\n',
        encoding="utf-8",
    )
    command = [
        str(SCHEMATHESIS),
        "--config-file",
        str(config),
        "run",
        f"{live_server.url}/api/openapi.json",
        "--url",
        live_server.url,
        "--checks",
        ",".join(CHECKS),
        "--phases",
        "examples,coverage,fuzzing",
        "--max-examples",
        "50",
        "--seed",
        "20261121",
        "--workers",
        "1",
        "--generation-database",
        "none",
        "--request-timeout",
        "10",
        "--no-color",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=240, cwd=tmp_path, check=False)
    assert done.returncode == 0, f"schemathesis found failures:\n{done.stdout[-12000:]}\n{done.stderr[-3000:]}"
