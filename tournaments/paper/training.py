"""How the reader's classifiers are made (``scripts/train_reader.py`` runs it; the app only loads its result).

Hands come from three kinds of source, each source whole on one side of every split:
- the UCI optdigits writers bundled with scikit-learn (the last two never trained on: ``HELD_OUT_DIGITS``);
- handwriting fonts (the ``@fontsource`` packages among the project's development dependencies), every character
  written many times as pens and hands vary: slant, turn, width, stroke thickness, elastic wobble, a blurred
  low-resolution photo;
- pen strokes drawn here for the shapes fonts rarely have: the European 1 with its flag and foot, the 7 with its
  bar, the 4 open and closed.
Fonts named in ``HELD_OUT_FONTS`` are never trained on (the benchmark writes sheets with them); those in
``CALIBRATION_FONTS``, with two UCI writers, only set each network's temperature, so that its chances mean what they
say on hands it was not fitted on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from scipy import ndimage

from . import glyphs
from .classifier import DIGITS, LETTERS, VIEWS, Alphabet, Network
from .digits import HELD_OUT

FONT_FOLDER = Path(__file__).resolve().parents[2] / "node_modules" / "@fontsource"
#: Fonts never trained on, and fonts only calibrated on.
HELD_OUT_FONTS = (
    "architects-daughter",
    "east-sea-dokdo",
    "gochi-hand",
    "mansalva",
    "nothing-you-could-do",
    "playwrite-it-trad",
    "reenie-beanie",
    "schoolbell",
    "short-stack",
    "sue-ellen-francisco",
)
CALIBRATION_FONTS = (
    "bad-script",
    "grape-nuts",
    "itim",
    "just-another-hand",
    "kalam",
    "neucha",
    "playwrite-hu",
    "poor-story",
)
#: The ``load_digits`` indices never trained on (the last two writers' digits), and those only calibrated on.
HELD_OUT_DIGITS = HELD_OUT
CALIBRATION_DIGITS = slice(1245, 1521)
#: Each alphabet's characters, and how many times each font writes each of them.
CHARACTERS = {DIGITS: "0123456789", LETTERS: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"}
COPIES = {DIGITS: 24, LETTERS: 9}
#: Distorted copies of each UCI digit, and the ink levels its smoothed-up image is cut at; pen-drawn copies of each
#: of the shapes below.
UCI_COPIES, UCI_LEVELS, PEN_COPIES = 6, (0.3, 0.65), 240
#: The height (pixels) a character is drawn at before it is distorted, and the box it is then seen in.
DRAWN, BOX_HEIGHT = 96, (40, 110)
#: Paper left around a drawn character, room to turn and thicken it in; its wobble's largest shift and wavelength
#: (pixels of the drawing).
ROOM, WOBBLE, WAVE = 16, 2.5, 24
#: The networks' hidden layer, weight decay, passes over the data and random seed.
HIDDEN, DECAY, PASSES, SEED = 192, 1e-3, 60, 20261129
#: Temperatures tried when calibrating.
TEMPERATURES = np.exp(np.linspace(np.log(0.4), np.log(4.0), 41))


def training_version() -> str:
    """The version of the code that makes the classifiers: this module and the normalisation it trains through."""
    digest = hashlib.sha256()
    for module in (Path(__file__), Path(glyphs.__file__)):
        digest.update(module.read_bytes())
    return digest.hexdigest()[:16]


def fonts() -> dict[str, Path]:
    """Every handwriting font installed, by its package's name."""
    found = sorted(FONT_FOLDER.glob("*/files/*-latin-400-normal.woff"))
    return {path.parents[1].name: path for path in found}


# Hands ---------------------------------------------------------------------------------------------------------------


def font_ink(font: ImageFont.FreeTypeFont, character: str, rng: np.random.Generator) -> np.ndarray:
    """``character`` written in ``font`` as one hand might, seen in a box as a phone sees it (0 paper .. 1 ink)."""
    canvas = Image.new("L", (3 * DRAWN, 2 * DRAWN), 0)
    ImageDraw.Draw(canvas).text((DRAWN, DRAWN // 2), character, font=font, fill=255)
    return hand_and_photo(np.asarray(canvas, float) / 255.0, rng)


def pen_ink(shape: list[list[tuple[float, float]]], rng: np.random.Generator) -> np.ndarray:
    """Strokes (points in a unit box, x right, y down) drawn with a pen, seen as ``font_ink`` sees a character."""
    canvas = Image.new("L", (3 * DRAWN, 2 * DRAWN), 0)
    draw, width = ImageDraw.Draw(canvas), int(rng.integers(5, 12))
    aspect = rng.uniform(0.45, 0.7)
    for stroke in shape:
        points = np.asarray(stroke, float) + rng.normal(0, 0.02, (len(stroke), 2))
        xy = [(DRAWN + x * aspect * DRAWN, DRAWN // 2 + y * DRAWN) for x, y in points]
        draw.line(xy, fill=255, width=width, joint="curve")
    return hand_and_photo(np.asarray(canvas, float) / 255.0, rng)


def hand_and_photo(drawn: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A drawn character varied as hands vary, then seen at a phone photo's resolution."""
    ys, xs = np.nonzero(drawn >= 0.5)
    if not len(ys):
        return np.zeros((BOX_HEIGHT[0], BOX_HEIGHT[0]))
    on = np.pad(drawn[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1] >= 0.5, ROOM)
    on = thicker_or_thinner(on, rng.uniform(-2.0, 4.0))
    ink = warped(on.astype(float), rng)
    ys, xs = np.nonzero(ink >= 0.5)
    if not len(ys):
        return np.zeros((BOX_HEIGHT[0], BOX_HEIGHT[0]))
    ink = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return photographed(ink, rng)


def thicker_or_thinner(on: np.ndarray, by: float) -> np.ndarray:
    """``on`` with its strokes ``by`` pixels thicker each side (thinner when negative), never gone."""
    if by >= 0:
        return ndimage.distance_transform_edt(~on) <= by
    thinner = ndimage.distance_transform_edt(on) > -by
    return thinner if thinner.sum() >= 0.4 * on.sum() else on


def warped(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``ink`` turned, slanted, stretched and wobbled a little, as hands differ."""
    height, width = ink.shape
    angle = np.radians(rng.uniform(-8, 8))
    slant, stretch = rng.uniform(-0.35, 0.35), rng.uniform(0.75, 1.3)
    cos, sin = np.cos(angle), np.sin(angle)
    matrix = np.array([[cos, -sin], [sin, cos]]) @ np.array([[1.0, 0.0], [slant, stretch]])
    centre = np.array([height / 2, width / 2])
    ys, xs = np.mgrid[:height, :width].astype(float)
    points = np.stack([ys.ravel(), xs.ravel()]) - centre[:, None]
    source = np.linalg.inv(matrix) @ points + centre[:, None]
    wobble = rng.uniform(0, WOBBLE)
    for axis in range(2):
        coarse = rng.normal(0, wobble, (height // WAVE + 2, width // WAVE + 2))
        field = ndimage.zoom(coarse, WAVE, order=3)[:height, :width]
        source[axis] += field.ravel()
    return ndimage.map_coordinates(ink, source, order=1, cval=0.0).reshape(height, width)


def photographed(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``ink`` (cut to the character) placed in a box, blurred at a phone's resolution, sampled at the reader's."""
    box = int(rng.integers(*BOX_HEIGHT))
    scale = box * rng.uniform(0.55, 0.9) / ink.shape[0]
    small = ndimage.zoom(ink, scale, order=1)
    small = small[:box, : box * 2]
    inside = np.zeros((box, max(box * 3 // 4, small.shape[1] + 4)))
    top = int(rng.integers(0, box - small.shape[0] + 1))
    left = int(rng.integers(0, inside.shape[1] - small.shape[1] + 1))
    inside[top : top + small.shape[0], left : left + small.shape[1]] = small
    coarse = rng.uniform(1.0, 3.0)
    seen = ndimage.zoom(ndimage.zoom(inside, 1 / coarse, order=1), coarse, order=1)
    seen = ndimage.gaussian_filter(seen, rng.uniform(0.3, 1.2))
    seen = seen + rng.normal(0, 0.06, seen.shape)
    return np.clip(seen * rng.uniform(0.8, 1.2), 0.0, 1.0)


#: Shapes fonts seldom give (points in a unit box, x right, y down): the European 1 with a flag, with a long one,
#: with a foot; the 7 with its bar; the open 4.
PEN_SHAPES = {
    "1": [
        [[(0.2, 0.3), (0.6, 0.0), (0.6, 1.0)]],
        [[(0.05, 0.5), (0.65, 0.0), (0.65, 1.0)]],
        [[(0.2, 0.25), (0.55, 0.0), (0.55, 1.0)], [(0.15, 1.0), (0.95, 1.0)]],
        [[(0.1, 0.4), (0.6, 0.0), (0.6, 1.0)], [(0.25, 1.0), (0.95, 1.0)]],
    ],
    "7": [
        [[(0.05, 0.05), (0.95, 0.0), (0.4, 1.0)], [(0.3, 0.5), (0.85, 0.5)]],
        [[(0.0, 0.15), (0.1, 0.0), (0.95, 0.0), (0.35, 1.0)], [(0.25, 0.55), (0.8, 0.5)]],
    ],
    "4": [
        [[(0.55, 0.0), (0.05, 0.65), (0.95, 0.65)], [(0.7, 0.3), (0.7, 1.0)]],
        [[(0.15, 0.0), (0.05, 0.6), (0.9, 0.6)], [(0.75, 0.05), (0.75, 1.0)]],
        [[(0.65, 0.0), (0.05, 0.65), (0.95, 0.65)], [(0.65, 0.0), (0.65, 1.0)]],
        [[(0.7, 0.0), (0.1, 0.55), (0.2, 0.65), (0.95, 0.6)], [(0.7, 0.0), (0.68, 1.0)]],
    ],
}


# Examples ------------------------------------------------------------------------------------------------------------


@dataclass
class Examples:
    """Characters' views, their labels (index in the alphabet) and the source each came from."""

    views: dict[str, np.ndarray]
    labels: np.ndarray
    sources: np.ndarray

    def only(self, keep: np.ndarray) -> Examples:
        return Examples({view: rows[keep] for view, rows in self.views.items()}, self.labels[keep], self.sources[keep])


def examples(inks: Iterable[tuple[np.ndarray, int, str]]) -> Examples:
    """The views of every (ink, label, source) whose box is not read as empty."""
    views: dict[str, list[np.ndarray]] = {view: [] for view in VIEWS}
    labels, sources = [], []
    for ink, label, source in inks:
        bitmap, _sure = glyphs.written(ink)
        if bitmap is None:
            continue
        for view, make in VIEWS.items():
            views[view].append(make(bitmap))
        labels.append(label)
        sources.append(source)
    return Examples({view: np.array(rows) for view, rows in views.items()}, np.array(labels), np.array(sources))


def rng_for(*names: object) -> np.random.Generator:
    """A random generator of its own for each source and character: the same hands whatever else is made."""
    key = "/".join(str(name) for name in names).encode()
    return np.random.default_rng([SEED, int.from_bytes(hashlib.sha256(key).digest()[:8], "big")])


def font_inks(alphabet: str, names: Iterable[str], copies: int | None = None) -> Iterator[tuple[np.ndarray, int, str]]:
    """Every character of ``alphabet`` written ``copies`` times in each font of ``names``."""
    characters, available = CHARACTERS[alphabet], fonts()
    for name in names:
        font = ImageFont.truetype(str(available[name]), DRAWN)
        for label, character in enumerate(characters):
            rng = rng_for(alphabet, name, character)
            for _ in range(copies or COPIES[alphabet]):
                yield font_ink(font, character, rng), label, f"font:{name}"


def pen_inks(alphabet: str) -> Iterator[tuple[np.ndarray, int, str]]:
    """The pen-drawn shapes, each ``PEN_COPIES`` times."""
    characters = CHARACTERS[alphabet]
    for character, shapes in PEN_SHAPES.items():
        rng = rng_for(alphabet, "pen", character)
        for copy in range(PEN_COPIES):
            yield pen_ink(shapes[copy % len(shapes)], rng), characters.index(character), "pen"


def uci_inks(part: slice, copies: int = UCI_COPIES) -> Iterator[tuple[np.ndarray, int, str]]:
    """The UCI optdigits writers' digits in ``part``, smoothed up and distorted ``copies`` times."""
    from sklearn.datasets import load_digits

    data = load_digits()
    images, labels = data.images[part], data.target[part]
    first = part.start or 0
    density = ndimage.zoom(
        np.pad(images / 16.0, ((0, 0), (1, 1), (1, 1))), (1, 8, 8), order=3, grid_mode=True, mode="grid-constant"
    )
    for copy in range(copies):
        rng = rng_for("uci", first, copy)
        for index, (image, label) in enumerate(zip(density, labels)):
            # Cut at a level of its own: strokes as thin or thick as pens make them.
            ink = (image >= rng.uniform(*UCI_LEVELS)).astype(float)
            ink = ink if copy == 0 else warped(ink, rng)
            yield photographed(ink, rng), int(label), f"uci:{(first + index) * 13 // 1797}"


def fitted_fonts(held_out: Iterable[str] = HELD_OUT_FONTS) -> list[str]:
    """The fonts the networks are fitted on: every one installed but those held out and those calibrated on."""
    return [name for name in fonts() if name not in set(held_out) | set(CALIBRATION_FONTS)]


def sources(alphabet: str, held_out: Iterable[str] = HELD_OUT_FONTS) -> tuple[Examples, Examples]:
    """The examples fitted on and those calibrated on (no held-out source in either)."""
    fitted = list(font_inks(alphabet, fitted_fonts(held_out)))
    calibrated = list(font_inks(alphabet, CALIBRATION_FONTS))
    if alphabet == DIGITS:
        fitted += [*uci_inks(slice(0, CALIBRATION_DIGITS.start)), *pen_inks(alphabet)]
        calibrated += list(uci_inks(CALIBRATION_DIGITS, copies=1))
    return examples(fitted), examples(calibrated)


# Fitting -------------------------------------------------------------------------------------------------------------


def fitted_network(inputs: np.ndarray, labels: np.ndarray, classes: int) -> Network:
    """A network fitted to ``inputs`` (its temperature 1 until calibrated)."""
    from sklearn.neural_network import MLPClassifier

    model = MLPClassifier(
        hidden_layer_sizes=(HIDDEN,),
        alpha=DECAY,
        batch_size=256,
        max_iter=PASSES,
        tol=0.0,
        n_iter_no_change=PASSES,
        random_state=SEED,
    )
    # Every class is in the data: the network's outputs are the alphabet's characters in order.
    model.fit(inputs.astype(np.float32), labels)
    assert list(model.classes_) == list(range(classes)), "every character of the alphabet must be trained on"
    return Network(tuple(zip(model.coefs_, model.intercepts_)), 1.0)


def calibrated(network: Network, inputs: np.ndarray, labels: np.ndarray) -> Network:
    """``network`` with the temperature that makes its chances likeliest on ``inputs``."""
    losses = []
    for temperature in TEMPERATURES:
        chances = Network(network.layers, float(temperature)).chances(inputs)
        losses.append(-np.mean(np.log(np.maximum(chances[np.arange(len(labels)), labels], 1e-12))))
    return Network(network.layers, float(TEMPERATURES[int(np.argmin(losses))]))


def trained(alphabet: str, held_out: Iterable[str] = HELD_OUT_FONTS, report: Callable[[str], None] = print):
    """The alphabet's networks by view, fitted and calibrated."""
    fit, calibration = sources(alphabet, held_out)
    report(f"{alphabet}: {len(fit.labels)} examples fitted on, {len(calibration.labels)} calibrated on")
    classes = len(CHARACTERS[alphabet])
    networks = {}
    for view in VIEWS:
        network = fitted_network(fit.views[view], fit.labels, classes)
        networks[view] = calibrated(network, calibration.views[view], calibration.labels)
        report(f"{alphabet} {view}: temperature {networks[view].temperature:.2f}")
    return networks


def arrays(networks_by_alphabet: dict[str, dict[str, Network]]) -> dict[str, np.ndarray]:
    """What ``classifier.alphabet`` loads: every network's layers, as float32, and the training code's version."""
    stored: dict[str, np.ndarray] = {"version": np.array(training_version())}
    for alphabet, networks in networks_by_alphabet.items():
        stored[f"{alphabet}.characters"] = np.array(CHARACTERS[alphabet])
        for view, network in networks.items():
            prefix = f"{alphabet}.{view}"
            stored[f"{prefix}.layers"] = np.array(len(network.layers))
            stored[f"{prefix}.temperature"] = np.array(network.temperature)
            for i, (weights, bias) in enumerate(network.layers):
                stored[f"{prefix}.w{i}"] = weights.astype(np.float32)
                stored[f"{prefix}.b{i}"] = bias.astype(np.float32)
    return stored


def save(path: Path, networks_by_alphabet: dict[str, dict[str, Network]]) -> None:
    np.savez_compressed(path, **arrays(networks_by_alphabet))


# Measuring -----------------------------------------------------------------------------------------------------------


def held_out_inks(alphabet: str, copies: int = 10) -> list[tuple[np.ndarray, int, str]]:
    """Hands never trained on nor calibrated on: the held-out fonts, and for the digits the last UCI writers."""
    inks = list(font_inks(alphabet, HELD_OUT_FONTS, copies))
    if alphabet == DIGITS:
        inks += list(uci_inks(HELD_OUT_DIGITS, copies=2))
    return inks


def measured(reader: Alphabet, inks: list[tuple[np.ndarray, int, str]], unsure_below: float) -> dict[str, object]:
    """How ``reader`` reads ``inks``: the share right, the share wrong and not marked unsure, per source."""
    reads = reader.read([(ink, reader.characters) for ink, _label, _source in inks])
    right = np.array([read == reader.characters[label] for (read, _), (_ink, label, _source) in zip(reads, inks)])
    sure = np.array([confidence >= unsure_below for _read, confidence in reads])
    sources = np.array([source for _ink, _label, source in inks])
    per_source = {
        str(source): round(float(right[sources == source].mean()), 4) for source in sorted(set(sources.tolist()))
    }
    return {
        "boxes": len(inks),
        "right": round(float(right.mean()), 4),
        "wrong_sure_per_400": round(400 * float((~right & sure).mean()), 2),
        "unsure": round(float((~sure).mean()), 4),
        "per_source": per_source,
    }
