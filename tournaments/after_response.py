"""Work a request leaves until its response is sent, so that its client gets the answer without waiting for it.

``AfterResponseMiddleware`` (the outermost) collects the work deferred while a request is handled and runs it when
the server closes the response, after its last byte went out (WSGI servers close it in the thread that served the
request), just before Django's own closing (``request_finished``). Work deferred outside a request (a command, a
timer) runs at once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

logger = logging.getLogger(__name__)

_local = threading.local()


def after_response(work: Callable[[], object]) -> None:
    """Run ``work`` once this thread's response is sent, or now when this thread handles no request."""
    pending = getattr(_local, "pending", None)
    if pending is None:
        work()
    else:
        pending.append(work)


def run_all(pending: list[Callable[[], object]]) -> None:
    """Run each piece of work; one that fails is logged and stops no other."""
    for work in pending:
        try:
            work()
        except Exception:
            logger.exception("Work left until after the response failed")


class AfterResponseMiddleware:
    """Runs the work deferred while handling a request when its response is closed."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        outer = getattr(_local, "pending", None)
        _local.pending = pending = []
        try:
            response = self.get_response(request)
        finally:
            _local.pending = outer
        if pending:
            close = response.close

            def close_after_work() -> None:
                try:
                    run_all(pending)
                finally:
                    close()

            response.close = close_after_work
        return response
