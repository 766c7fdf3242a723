"""QR codes of printed links, made fast enough for hundreds of score sheets a second.

A link is encoded as the QR standard (ISO/IEC 18004) says, in byte mode with error correction level M and the
fixed mask 0, in the smallest version from 1 to 10 that holds it. Everything that depends only on the version
(the function patterns, where each data bit goes and the mask over it) is worked out once; a link then costs
its Reed-Solomon codes and one permutation of a string, a sixth of what a general encoder takes. Other text
(longer, or not ASCII) is left to ``segno``, with the same choices.
"""

from __future__ import annotations

import functools
import operator
import re
from dataclasses import dataclass

import segno

#: Per version at level M: error correction codewords per block, and the blocks' data codewords (short first).
BLOCKS_M = {
    1: (10, (16,)),
    2: (16, (28,)),
    3: (26, (44,)),
    4: (18, (32, 32)),
    5: (24, (43, 43)),
    6: (16, (27, 27, 27, 27)),
    7: (18, (31, 31, 31, 31)),
    8: (22, (38, 38, 39, 39)),
    9: (22, (36, 36, 36, 37, 37)),
    10: (26, (43, 43, 43, 43, 44)),
}
#: Centres of the alignment patterns along each axis, by version.
ALIGNMENT = {
    1: (),
    2: (6, 18),
    3: (6, 22),
    4: (6, 26),
    5: (6, 30),
    6: (6, 34),
    7: (6, 22, 38),
    8: (6, 24, 42),
    9: (6, 26, 46),
    10: (6, 28, 50),
}
#: The format information of level M with mask 0, already masked as the standard prescribes.
FORMAT_M_MASK_0 = 0x5412
BYTE_MODE = 0b0100
PAD = (0xEC, 0x11)
DARK_RUN = re.compile(rb"1+")


def gf_tables() -> tuple[list[int], list[int]]:
    """Exponentials and logarithms in GF(256) modulo x^8 + x^4 + x^3 + x^2 + 1."""
    exp, log = [0] * 512, [0] * 256
    value = 1
    for power in range(255):
        exp[power] = value
        log[value] = power
        value <<= 1
        if value & 0x100:
            value ^= 0x11D
    for power in range(255, 512):
        exp[power] = exp[power - 255]
    return exp, log


EXP, LOG = gf_tables()


def gf_multiply(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else EXP[LOG[a] + LOG[b]]


@functools.cache
def generator_multiples(degree: int) -> tuple[int, ...]:
    """For each byte value, the Reed-Solomon generator of ``degree`` (leading term dropped) times that value,
    packed big-endian in one integer, so that dividing by the generator is a shift and an XOR per byte."""
    generator = [1]
    for power in range(degree):
        product = [0] * (len(generator) + 1)
        for i, coefficient in enumerate(generator):
            product[i] ^= coefficient
            product[i + 1] ^= gf_multiply(coefficient, EXP[power])
        generator = product
    tail = generator[1:]
    return tuple(int.from_bytes(bytes(gf_multiply(factor, c) for c in tail), "big") for factor in range(256))


def error_correction(data: bytes, degree: int) -> bytes:
    """The ``degree`` Reed-Solomon codewords of one block."""
    multiples = generator_multiples(degree)
    shift, keep = 8 * (degree - 1), (1 << (8 * degree)) - 1
    remainder = 0
    for byte in data:
        remainder = ((remainder << 8) & keep) ^ multiples[byte ^ (remainder >> shift)]
    return remainder.to_bytes(degree, "big")


@dataclass(frozen=True)
class Layout:
    """What one version's symbols share: their size, the codewords they hold, and where every bit goes."""

    version: int
    size: int
    capacity: int
    data_codewords: int
    bits: int
    #: For each module of the symbol, row by row, and a light one after each row: its index in the data bits
    #: followed by "0" and "1".
    order: tuple[int, ...]
    #: The mask over the data bits, as an integer of ``bits`` bits.
    mask: int


@functools.cache
def layout(version: int) -> Layout:
    """The function patterns of ``version``, and the data bits' places in the zigzag the standard describes."""
    size = 17 + 4 * version
    fixed: dict[tuple[int, int], int] = {}

    def finder(top: int, left: int) -> None:
        for r in range(-1, 8):
            for c in range(-1, 8):
                if 0 <= top + r < size and 0 <= left + c < size:
                    ring = max(abs(r - 3), abs(c - 3))
                    fixed[top + r, left + c] = int(ring != 2 and ring != 4)

    for top, left in ((0, 0), (0, size - 7), (size - 7, 0)):
        finder(top, left)
    for i in range(8, size - 8):
        fixed[6, i] = fixed[i, 6] = int(i % 2 == 0)
    centres = ALIGNMENT[version]
    corners = {(0, 0), (0, len(centres) - 1), (len(centres) - 1, 0)}
    for i, row in enumerate(centres):
        for j, col in enumerate(centres):
            if (i, j) in corners:
                continue
            for r in range(-2, 3):
                for c in range(-2, 3):
                    fixed[row + r, col + c] = int(max(abs(r), abs(c)) != 1)
    beside_top_left = [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)] + [(8, 14 - i) for i in range(9, 15)]
    for i, place in enumerate(beside_top_left):
        bit = (FORMAT_M_MASK_0 >> i) & 1
        fixed[place] = bit
        fixed[(8, size - 1 - i) if i < 8 else (size - 15 + i, 8)] = bit
    fixed[size - 8, 8] = 1
    if version >= 7:
        remainder = version
        for _ in range(12):
            remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25)
        info = version << 12 | remainder
        for i in range(18):
            bit = (info >> i) & 1
            a, b = size - 11 + i % 3, i // 3
            fixed[b, a] = fixed[a, b] = bit
    places = []
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        upward = (right + 1) & 2 == 0
        for step in range(size):
            row = size - 1 - step if upward else step
            for col in (right, right - 1):
                if (row, col) not in fixed:
                    places.append((row, col))
        right -= 2
    ec, blocks = BLOCKS_M[version]
    data_codewords = sum(blocks)
    codeword_bits = 8 * (data_codewords + ec * len(blocks))
    count_bits = 8 if version < 10 else 16
    index = {place: i for i, place in enumerate(places)}
    bits = len(places)
    zero, one = bits, bits + 1
    order = tuple(
        index[row, col] if (row, col) in index else (one if fixed.get((row, col)) else zero)
        for row in range(size)
        for col in (*range(size), None)
    )
    mask = int("".join("1" if (row + col) % 2 == 0 else "0" for row, col in places), 2)
    assert codeword_bits <= bits < codeword_bits + 8
    return Layout(version, size, (8 * data_codewords - 4 - count_bits) // 8, data_codewords, bits, order, mask)


def layout_for(length: int) -> Layout | None:
    """The smallest version whose symbols hold ``length`` bytes, or None when none up to 10 does."""
    return next((layout(v) for v in BLOCKS_M if layout(v).capacity >= length), None)


def codewords(text: bytes, symbol: Layout) -> bytes:
    """The data and error correction codewords of ``text``, interleaved as they are placed."""
    count_bits = 8 if symbol.version < 10 else 16
    total = 8 * symbol.data_codewords
    value = (BYTE_MODE << count_bits | len(text)) << 8 * len(text) | int.from_bytes(text, "big")
    used = 4 + count_bits + 8 * len(text)
    terminator = min(4, total - used)
    value <<= terminator
    used += terminator
    value <<= -used % 8
    data = bytearray(value.to_bytes((used + 7) // 8, "big"))
    data.extend(PAD[i % 2] for i in range(symbol.data_codewords - len(data)))
    ec, sizes = BLOCKS_M[symbol.version]
    blocks, start = [], 0
    for size in sizes:
        blocks.append(bytes(data[start : start + size]))
        start += size
    corrections = [error_correction(block, ec) for block in blocks]
    out = bytearray()
    for i in range(max(sizes)):
        out.extend(block[i] for block in blocks if i < len(block))
    for i in range(ec):
        out.extend(correction[i] for correction in corrections)
    return bytes(out)


def modules(url: str) -> tuple[int, bytes]:
    """The symbol of ``url``: its size n, and its rows of b"0" (light) and b"1" (dark), top row first, each
    followed by one b"0" so that no run of dark modules goes on from one row to the next."""
    text = url.encode("ascii") if url.isascii() else b""
    symbol = layout_for(len(text)) if text else None
    if symbol is None:
        matrix = segno.make_qr(url, error="m", mask=0, boost_error=False).matrix
        return len(matrix), b"".join(bytes(48 + module for module in row) + b"0" for row in matrix)
    words = codewords(text, symbol)
    value = (int.from_bytes(words, "big") << (symbol.bits - 8 * len(words))) ^ symbol.mask
    placed = format(value, f"0{symbol.bits}b") + "01"
    return symbol.size, "".join(operator.itemgetter(*symbol.order)(placed)).encode("ascii")


def matrix_rows(url: str) -> list[bytes]:
    """The symbol of ``url`` as rows of b"0" (light) and b"1" (dark), top row first."""
    n, flat = modules(url)
    return [flat[r * (n + 1) : r * (n + 1) + n] for r in range(n)]


def dark_spans(flat: bytes) -> list[tuple[int, int]]:
    """Where each run of dark modules starts and ends in ``modules``' rows."""
    return list(map(re.Match.span, DARK_RUN.finditer(flat)))
