"""The printed links' QR encoder: the standard's codes and patterns, and every version read back by zbar."""

from __future__ import annotations

import random
import subprocess

import pytest
import segno
from PIL import Image

from tournaments.printing.qr import BLOCKS_M, error_correction, layout, layout_for, matrix_rows

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
    return subprocess.run(["zbarimg", "--raw", "-q", str(path)], capture_output=True, text=True).stdout.strip()


def segno_rows(text: str) -> list[bytes]:
    return [bytes(48 + m for m in row) for row in segno.make_qr(text, error="m", mask=0, boost_error=False).matrix]


def test_error_correction_of_the_standards_example():
    """HELLO WORLD at 1-M, as worked through in the standard's annex and every QR tutorial."""
    data = bytes([32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17])
    assert list(error_correction(data, 10)) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]


def test_every_version_holds_its_codewords():
    for version, (ec, blocks) in BLOCKS_M.items():
        symbol = layout(version)
        assert symbol.size == 17 + 4 * version
        assert 8 * (sum(blocks) + ec * len(blocks)) <= symbol.bits < 8 * (sum(blocks) + ec * len(blocks)) + 8
    assert [layout(v).capacity for v in (1, 2, 3, 4, 5, 10)] == [14, 26, 42, 62, 84, 213]


@pytest.mark.parametrize("version", list(BLOCKS_M))
def test_each_version_is_read_back_and_has_segnos_patterns(tmp_path, version):
    rng = random.Random(version)
    smallest = layout(version - 1).capacity + 1 if version > 1 else 12
    for length in sorted({smallest, layout(version).capacity, rng.randint(smallest, layout(version).capacity)}):
        link = link_of_length(length, rng)
        symbol = layout_for(len(link))
        rows = matrix_rows(link)
        reference = segno_rows(link)
        assert symbol.version == version == (len(reference) - 17) // 4
        assert len(rows) == symbol.size
        n = symbol.size
        places = [divmod(k, n + 1) for k, place in enumerate(symbol.order) if place >= symbol.bits]
        fixed = [(row, col) for row, col in places if col < n]
        assert len(fixed) > 3 * 64
        assert [rows[r][c] for r, c in fixed] == [reference[r][c] for r, c in fixed], "function patterns"
        assert zbar(png_of(rows, tmp_path / f"{length}.png")) == link


def test_links_too_long_or_not_ascii_go_to_segno(tmp_path):
    for link in ["https://tablescore.example.org/t/" + "x" * 220 + "/", "https://ñandú.example.org/t/abc/"]:
        assert matrix_rows(link) == segno_rows(link)
        assert zbar(png_of(matrix_rows(link), tmp_path / "fallback.png")) == link
