"""Where every box a reader looks at sits on a printed score sheet, as the printing code draws it.

Coordinates are PDF points. A sheet's own boxes are given in its frame (the sheet flowable's bottom-left corner);
``TableLayout`` moves them into the table's slot (the corner marks' frame) and onto the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

DIGIT, MARK, LETTER = "digit", "mark", "letter"
#: Every digit a box may hold.
ANY_DIGIT = "0123456789"
#: The seat of a box that is the whole table's (a square of the board the players share), no one player's.
TABLE = -1


@dataclass(frozen=True)
class Box:
    """One box to read.

    ``path`` is the document path it fills (``manches[0].pozzo[2]``, ``stands[1].goods.grapes.largest``,
    ``tallies[0].cheeses``). A digit box holds one digit of that number, ``place`` its power of ten (0 for the
    units); a number's boxes share its path. A mark box is read as marked or not: the path's marks are counted
    when their ``value`` is empty (crosses in a grid), or give the list of the marked boxes' values (a declared
    good, the cheeses left). A letter box holds one character written in (a capital letter, or a digit where the
    sheet wants one), a path of its own; ``means`` is what each allowed character stands for in the document, in
    the order of ``allowed`` (the character itself when empty). ``allowed`` is what a digit or letter box may hold
    by the rules. ``seat`` is the player's index (0-based), ``TABLE`` for a box of the whole table, ``label`` what
    the form calls the field, ``manche`` the manche a block of the sheet stands for where a sheet has a block per
    manche, None where the sheet is one manche the desk chooses.
    """

    path: str
    kind: str
    x: float
    y: float
    width: float
    height: float
    seat: int
    label: str
    place: int = 0
    value: str = ""
    allowed: str = ANY_DIGIT
    manche: int | None = None
    means: tuple[str, ...] = ()

    def moved(self, dx: float, dy: float, scale: float = 1.0) -> Box:
        """The box in a frame where this one's origin sits at (dx, dy), drawn ``scale`` times its size."""
        return replace(
            self, x=dx + self.x * scale, y=dy + self.y * scale, width=self.width * scale, height=self.height * scale
        )

    def meaning(self, character: object) -> str | None:
        """What a character written in this letter box stands for in the document; None for an empty box, or for
        anything that is not one character it allows."""
        if not isinstance(character, str) or len(character) != 1 or character not in self.allowed:
            return None
        return self.means[self.allowed.index(character)] if self.means else character

    def choices(self) -> list[tuple[str, str]]:
        """A letter box's allowed characters, each with what it stands for."""
        return [(character, self.meaning(character) or character) for character in self.allowed]

    @property
    def field(self) -> str:
        """The name of the form field the box fills: its path, after its manche where the sheet has several."""
        return f"{self.manche}:{self.path}" if self.manche else self.path

    @property
    def rect(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top)."""
        return (self.x, self.y, self.x + self.width, self.y + self.height)


@dataclass(frozen=True)
class Square:
    """A square drawn on the page (a corner mark, a QR code): its left, bottom and side, in points."""

    x: float
    y: float
    side: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.side / 2, self.y + self.side / 2)

    def corners(self) -> tuple[tuple[float, float], ...]:
        """Top left, top right, bottom right, bottom left, as a reader upright sees them."""
        x, y, s = self.x, self.y, self.side
        return ((x, y + s), (x + s, y + s), (x + s, y), (x, y))


@dataclass
class TableLayout:
    """One table's sheet as printed: its page (0-based), its slot's frame, its QR code, corner marks and boxes,
    all in page points from the bottom-left corner.

    ``frame`` is the slot (left, bottom, right, top) the corner marks stand beside; ``qr`` the square the code's
    modules fill, its quiet zone left out, whose corners are the ones a QR reader gives.
    """

    table: int
    link: str
    page: int
    frame: tuple[float, float, float, float]
    qr: Square
    marks: tuple[Square, Square, Square, Square]
    boxes: list[Box] = field(default_factory=list)
