"""The app's WSGI application with a pause a fault test can ask for, for tests only (never deployed).

A request with the header ``X-Test-Pause: in-save`` stops inside the sheet's transaction, right after the
manche row was updated and its revision inserted, before the commit; ``X-Test-Pause: after-save`` stops once
the response is ready (the save committed) before it is sent. Either way the worker writes its process id to
the file named by ``TABLESCORE_PAUSE_MARKER`` and sleeps ``TABLESCORE_PAUSE_SECONDS``, so the test can kill it
at that very moment.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from django.db import connection

from config.wsgi import application as django_application

PAUSE_SECONDS = float(os.environ.get("TABLESCORE_PAUSE_SECONDS", "10"))


def pause() -> None:
    Path(os.environ["TABLESCORE_PAUSE_MARKER"]).write_text(str(os.getpid()))
    time.sleep(PAUSE_SECONDS)


def pause_after_revision(execute, sql, params, many, context):
    result = execute(sql, params, many, context)
    if sql.startswith('INSERT INTO "tournaments_sheetrevision"'):
        pause()
    return result


def application(environ, start_response):
    where = environ.get("HTTP_X_TEST_PAUSE")
    if where == "in-save":
        with connection.execute_wrapper(pause_after_revision):
            return django_application(environ, start_response)
    response = django_application(environ, start_response)
    if where == "after-save":
        pause()
    return response
