"""gunicorn's settings for `make run`: the app server a club night is served by (the load benchmark's too).

Two worker processes of four threads each answer a 48-player evening's phones, desk and projector with room to
spare (see ``benchmarks/load.py``); nothing is kept in a process's memory that another one needs, so more workers
(``WEB_CONCURRENCY``) only add room. Every request is logged on the terminal, as the development server did.
"""

import os
import time

from config.settings import TIME_ZONE

# The server's own lines in the app's time zone, as its workers' are (Django sets it in every process it runs in).
os.environ["TZ"] = TIME_ZONE
time.tzset()

workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = 4
keepalive = 5
timeout = 60
graceful_timeout = 10
accesslog = "-"
access_log_format = '%(t)s "%(r)s" %(s)s %(b)s %(M)sms'
wsgi_app = "config.wsgi:application"
#: No control socket in the home folder: Ctrl+C is how a laptop stops the server.
control_socket_disable = True


def when_ready(server):
    """Say where the app answers once it does, and how to stop it."""
    for host, port in (address.split(":", 1) if ":" in address else (address, "") for address in server.cfg.bind):
        shown = "127.0.0.1" if host in {"0.0.0.0", "::", "[::]"} else host
        server.log.info("Tablescore is ready: open http://%s:%s/ on this laptop. Ctrl+C stops it.", shown, port)
    if os.environ.get("PUBLIC_URL"):
        server.log.info("Phones: %s/ (the address on QR codes and printed links)", os.environ["PUBLIC_URL"].rstrip("/"))
