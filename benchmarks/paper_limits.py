"""Paper in, hostile files: how long an upload of each worst file takes to read and how much memory it costs.

    python benchmarks/paper_limits.py [--case NAME ...] [--timeout 120]

Each case is read as the desk's upload reads it (``read_files``), in a fresh process of its own (an event of twelve
Cheese Rescue tables seated in a throwaway database), ended after TIMEOUT seconds. The cases: a page of drawings
nested six and seven levels deep (time and memory), one of a slow shading drawn a hundred times (time), a PDF whose
page tree loops, a page of 14,400 x 1 points and one of 0 x 0, a 39.9-megapixel photo of a printed page, and the
round's twelve printed sheets (six pages) for comparison.

Prints one JSON line per case: the seconds the read took (or that it was ended), the reading process' resident
memory (MB) before the read, at its peak during it and after it, the peak of the processes it started (the pages'
own), the sheets read and what the organiser is told.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

CASES = [
    "nested-6",
    "nested-7",
    "shading-2",
    "looping-tree",
    "page-14400x1",
    "page-0x0",
    "photo-39.9mp",
    "round-12-sheets",
]
#: The photo's page is drawn at this resolution: an A4 page of 39.9 megapixels.
PHOTO_DPI = 642


def resident_mb() -> float:
    """This process' resident memory now (MB)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class Peak(threading.Thread):
    """The highest resident memory seen while it runs, looked at every few milliseconds."""

    def __init__(self):
        super().__init__(daemon=True)
        self.peak, self.done = resident_mb(), threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.005):
            self.peak = max(self.peak, resident_mb())


def case_files(case: str, event) -> list[tuple[str, bytes]]:
    """The files of one case's upload."""
    import io

    from PIL import Image

    from tests import hostile_pdfs, paper_photos
    from tournaments.printouts.sheets import round_with_seats, score_sheets_pdf

    if case.startswith("nested-"):
        return [(f"{case}.pdf", hostile_pdfs.nested_drawings(int(case.split("-")[1])))]
    if case == "shading-2":
        return [("shading-2.pdf", hostile_pdfs.slow_shading(2))]
    if case == "looping-tree":
        return [("loop.pdf", hostile_pdfs.looping_page_tree())]
    if case.startswith("page-"):
        width, height = (float(side) for side in case.split("-")[1].split("x"))
        return [(f"{case}.pdf", hostile_pdfs.page_of(width, height))]
    pdf = score_sheets_pdf(event, round_with_seats(event, 1), lambda table: f"http://testserver/t/{table.token}/")
    if case == "round-12-sheets":
        return [("round.pdf", pdf)]
    buffer = io.BytesIO()
    Image.fromarray(paper_photos.page_picture(pdf, 0, PHOTO_DPI)).save(buffer, "JPEG", quality=85)
    return [("photo.jpg", buffer.getvalue())]


def run_case(case: str) -> dict:
    """Read one case's upload in this process; what it took."""
    import _django

    _django.setup()
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.utils import translation

    from tests.factories import seat_by_hand
    from tournaments.models import Event, Player
    from tournaments.models.rounds import RoundStatus
    from tournaments.services.paper import read_files

    translation.activate("en")
    event = Event.objects.create(
        name="Bench",
        date=datetime.date(2026, 11, 21),
        game="cheese-rescue",
        table_size=4,
        manches_per_round=1,
        rounds_planned=3,
    )
    Player.objects.bulk_create(Player(event=event, name=f"Player {i:02d}") for i in range(48))
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids[i : i + 4] for i in range(0, 48, 4)], status=RoundStatus.IN_PLAY)
    user = get_user_model().objects.create_superuser("bench", password="a-long-bench-password")
    made = case_files(case, event)
    size = sum(len(data) for _name, data in made)
    files = [SimpleUploadedFile(name, data) for name, data in made]
    del made
    gc.collect()
    before = resident_mb()
    peak = Peak()
    peak.start()
    began = time.perf_counter()
    upload = read_files(event, files, user)
    seconds = time.perf_counter() - began
    peak.done.set()
    peak.join()
    del files
    gc.collect()
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {
        "case": case,
        "bytes": size,
        "seconds": round(seconds, 2),
        "rss_before_mb": round(before, 1),
        "rss_peak_mb": round(peak.peak, 1),
        "rss_after_mb": round(resident_mb(), 1),
        "children_peak_mb": round(children, 1),
        "sheets": len(upload.sheets),
        "told": upload.problems,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", choices=CASES, help="one case (repeat for several); all by default")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a case is ended")
    parser.add_argument("--inside", choices=CASES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        print(json.dumps(run_case(args.inside), ensure_ascii=False))
        return
    for case in args.case or CASES:
        command = [sys.executable, str(Path(__file__).resolve()), "--inside", case]
        began = time.perf_counter()
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout, check=False)
        except subprocess.TimeoutExpired:
            print(json.dumps({"case": case, "seconds": f">{args.timeout:g}", "ended": True}))
            continue
        lines = done.stdout.strip().splitlines()
        if done.returncode or not lines:
            took = round(time.perf_counter() - began, 1)
            print(json.dumps({"case": case, "failed": done.returncode, "seconds": took, "error": done.stderr[-600:]}))
            continue
        print(lines[-1], flush=True)


if __name__ == "__main__":
    main()
