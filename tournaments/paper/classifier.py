"""The reader's classifiers as the package ships them: trained once by ``scripts/train_reader.py`` (see
``training``), kept in ``handwriting.npz``, loaded once a process.

Each alphabet (the digits; the capital letters with the digits) has two small neural networks: one looks at a
character's pixels, the other at its strokes' directions. Each network's chances are calibrated (a temperature fitted
on hands it was not fitted on). A character is read as the likeliest of the two opinions together; its confidence
is their mean chance for it when both put it first, else the smaller of the two: a read is sure only when both
networks agree and are sure of it together.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import glyphs

MODEL_FILE = Path(__file__).with_name("handwriting.npz")
#: The alphabets the file holds, each with the characters its networks tell apart (in their output order).
DIGITS, LETTERS = "digits", "letters"
#: The two ways a network looks at a normalised character, and what makes its inputs.
VIEWS = {"pixels": glyphs.pixels, "directions": glyphs.directions}
#: A restricted read's chances are shared among the allowed characters, unless together they are less likely than
#: this: then the ink looks like none of them, and the read is less sure.
LEAST_ALLOWED = 0.5


@dataclass(frozen=True)
class Network:
    """A trained network: its layers' weights and biases (ReLU between them) and its calibrated temperature."""

    layers: tuple[tuple[np.ndarray, np.ndarray], ...]
    temperature: float

    def chances(self, inputs: np.ndarray) -> np.ndarray:
        """Each row's chances of every class."""
        values = inputs
        for weights, bias in self.layers[:-1]:
            values = np.maximum(values @ weights + bias, 0.0)
        weights, bias = self.layers[-1]
        logits = (values @ weights + bias) / self.temperature
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class Alphabet:
    """The characters one pair of networks reads, and the networks by view."""

    characters: str
    networks: dict[str, Network]

    def read(
        self, items: Sequence[tuple[np.ndarray, str]], least_allowed: float = LEAST_ALLOWED
    ) -> list[tuple[str | None, float]]:
        """Each (ink, allowed characters) read: the character (None for an empty box) and how sure that is
        (``least_allowed``: see ``best``)."""
        found = [glyphs.written(ink) for ink, _allowed in items]
        reads: list[tuple[str | None, float]] = [(None, sure) for _bitmap, sure in found]
        written = [index for index, (bitmap, _sure) in enumerate(found) if bitmap is not None]
        if not written:
            return reads
        opinions = [
            network.chances(np.array([VIEWS[view](found[index][0]) for index in written]))
            for view, network in self.networks.items()
        ]
        for row, index in enumerate(written):
            reads[index] = self.best([chances[row] for chances in opinions], items[index][1], least_allowed)
        return reads

    def best(
        self, opinions: list[np.ndarray], allowed: str, least_allowed: float = LEAST_ALLOWED
    ) -> tuple[str | None, float]:
        """The allowed character likeliest by the opinions together, and its chance: their mean when every opinion
        puts it first, else the least chance any gives it (two opinions that differ are not sure). Chances are
        shared among the allowed characters, unless together they are less likely than ``least_allowed``."""
        places = [place for place, character in enumerate(self.characters) if character in allowed]
        if not places:
            return None, 0.0
        shares = [chances[places] / max(float(chances[places].sum()), least_allowed) for chances in opinions]
        together = np.mean(shares, axis=0)
        choice = int(np.argmax(together))
        agreed = all(int(np.argmax(share)) == choice for share in shares)
        chance = together[choice] if agreed else min(share[choice] for share in shares)
        return self.characters[places[choice]], float(chance)


def network(arrays: dict[str, np.ndarray], prefix: str) -> Network:
    """The network stored under ``prefix`` in ``arrays``."""
    count = int(arrays[f"{prefix}.layers"])
    layers = tuple(
        (arrays[f"{prefix}.w{i}"].astype(float), arrays[f"{prefix}.b{i}"].astype(float)) for i in range(count)
    )
    return Network(layers, float(arrays[f"{prefix}.temperature"]))


@functools.lru_cache(maxsize=4)
def alphabet(name: str, path: Path = MODEL_FILE) -> Alphabet:
    """The alphabet ``name`` as stored in ``path``, read once a process."""
    with np.load(path) as stored:
        arrays = dict(stored)
    characters = str(arrays[f"{name}.characters"])
    return Alphabet(characters, {view: network(arrays, f"{name}.{view}") for view in VIEWS})


def stored_version(path: Path = MODEL_FILE) -> str:
    """The version of the training code that made the file at ``path``."""
    with np.load(path) as stored:
        return str(stored["version"])
