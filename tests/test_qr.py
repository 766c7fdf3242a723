"""The printed links' QR codes: square, of the size the link needs, and read back by zbar as the link itself."""

from __future__ import annotations

import random
import subprocess

import pytest
from PIL import Image

from tournaments.printing.qr import dark_spans, matrix_rows, modules

TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"


def link_of_length(length: int, rng: random.Random) -> str:
    """A link of exactly ``length`` characters, of the characters addresses and tokens are made of."""
    return "https://" + "".join(rng.choice(TOKEN_CHARS + "./") for _ in range(length - len("https://")))


def png_of(rows: list[bytes], path, scale: int = 4, quiet: int = 4):
    """The symbol as a black-on-white image, ``scale`` pixels a module."""
    n = len(rows)
    image = Image.new("L", ((n + 2 * quiet) * scale,) * 2, 255)
    for r, row in enumerate(rows):
        for c, module in enumerate(row):
            if module == ord("1"):
                box = ((c + quiet) * scale, (r + quiet) * scale, (c + quiet + 1) * scale, (r + quiet + 1) * scale)
                image.paste(0, box)
    image.save(path)
    return path


def zbar(path) -> str:
    return subprocess.run(
        ["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", str(path)], capture_output=True, text=True
    ).stdout.strip()


@pytest.mark.parametrize("length", [20, 45, 60, 90, 140, 230])
def test_links_of_every_length_are_read_back(tmp_path, length):
    link = link_of_length(length, random.Random(length))
    rows = matrix_rows(link)
    assert all(len(row) == len(rows) for row in rows), "square"
    assert (len(rows) - 17) % 4 == 0, "a QR code version's size"
    assert zbar(png_of(rows, tmp_path / "link.png")) == link


def test_a_longer_link_needs_a_bigger_code_and_an_address_with_accents_is_read_back(tmp_path):
    assert len(matrix_rows("http://10.0.0.2:8000/t/abc/")) < len(matrix_rows("https://" + "x" * 120 + "/t/abc/"))
    link = "https://ñandú.example.org/t/abc/"
    assert zbar(png_of(matrix_rows(link), tmp_path / "accents.png")) == link


def test_dark_runs_stop_at_the_end_of_each_row():
    n, flat = modules("http://192.168.1.20:8000/t/Y4w04Ph5zUqPf_2v7CyXmw/")
    assert len(flat) == n * (n + 1)
    for start, end in dark_spans(flat):
        assert start // (n + 1) == (end - 1) // (n + 1)
        assert set(flat[start:end]) == {ord("1")}
