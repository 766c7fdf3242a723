"""`python -m scoring FILE|-`: the result on stdout and exit 0, or the error document and exit 2."""

import json
import subprocess
import sys
from pathlib import Path

from scoring.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
SHEET = {
    "game": "cheese-rescue",
    "players": ["Ada", "Bea"],
    "tallies": [{"cheese_points": 6, "cheese_cards": 4}, {"cheese_points": 3, "cheese_cards": 2}],
}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60
    )


def test_a_file_is_scored(tmp_path):
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(SHEET), encoding="utf-8")
    result = run(str(path))
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert [p["score"] for p in document["players"]] == [6, 3]


def test_standard_input_with_errors_exits_2():
    result = run("-", stdin=json.dumps({**SHEET, "players": ["Ada", "Ada"]}))
    assert result.returncode == 2
    assert json.loads(result.stdout)["errors"][0]["path"] == "players[1]"


def test_not_json_is_an_error_document():
    result = run("-", stdin="{not json")
    assert result.returncode == 2
    assert json.loads(result.stdout) == {"errors": [{"path": "", "message": "This is not a JSON document in UTF-8."}]}


def test_accents_survive_the_round_trip(capsys, tmp_path):
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps({**SHEET, "players": ["Łucja", "Núñez"]}, ensure_ascii=False), encoding="utf-8")
    assert main([str(path)]) == 0
    assert "Łucja" in capsys.readouterr().out


def test_missing_file_and_usage(capsys, tmp_path):
    assert main([str(tmp_path / "absent.json")]) == 2
    assert json.loads(capsys.readouterr().out)["errors"][0]["path"] == ""
    assert main([]) == 2
