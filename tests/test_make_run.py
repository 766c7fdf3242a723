"""`make run` serves the evening with gunicorn (``config/gunicorn.conf.py``), not Django's development server."""

from __future__ import annotations

import http.client
import signal
import subprocess
import time

import pytest

from tests.subprocesses import PYTHON, ROOT, environment, free_port, fresh_database, manage

pytestmark = pytest.mark.django_db


def get(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def dry_run(*variables: str) -> str:
    done = subprocess.run(["make", "-n", "run", *variables], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout


def test_make_run_serves_with_gunicorn_and_its_settings():
    commands = dry_run()
    assert "-m gunicorn --config config/gunicorn.conf.py --bind 127.0.0.1:8000" in commands
    assert "runserver" not in commands


def test_make_run_at_the_venue_prints_the_phones_address_and_serves_every_address():
    commands = dry_run("HOST=0.0.0.0", "PORT=8080")
    assert "network_addresses --port 8080" in commands
    assert "--bind 0.0.0.0:8080" in commands
    assert "ALLOWED_HOSTS=" in commands and "PUBLIC_URL=" in commands


def test_the_served_app_answers_pages_and_its_stylesheet_and_says_where(tmp_path):
    with fresh_database(tmp_path) as url:
        manage(url, "migrate", "--noinput", timeout=180)
        port = free_port()
        server = subprocess.Popen(
            [PYTHON, "-m", "gunicorn", "--config", "config/gunicorn.conf.py", "--bind", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=environment(url, PUBLIC_URL="http://192.168.1.20:8000", WEB_CONCURRENCY="1"),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    status, _body = get(port, "/")
                    break
                except OSError:
                    assert server.poll() is None, server.stdout.read()
                    assert time.monotonic() < deadline, "gunicorn did not answer within 60 s"
                    time.sleep(0.2)
            assert status == 200
            status, body = get(port, "/static/css/tablescore.css")
            assert status == 200 and b"{" in body
        finally:
            server.send_signal(signal.SIGINT)
            output, _ = server.communicate(timeout=30)
    assert f"Tablescore is ready: open http://127.0.0.1:{port}/ on this laptop" in output
    assert "Phones: http://192.168.1.20:8000/" in output
    assert '"GET /static/css/tablescore.css HTTP/1.1" 200' in output
