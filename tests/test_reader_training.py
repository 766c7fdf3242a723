"""The paper reader's classifiers ship in the package, made by the training code beside them: the file is small, it
was made by this code, and training again gives a reader as good on hands neither has seen."""

from __future__ import annotations

from tournaments.paper import classifier, training
from tournaments.paper.digits import UNSURE_BELOW

#: Held-out examples of each character a measure reads, and how far a retrained reader's share right may differ.
COPIES, CLOSE = 6, 0.01
#: These boxes are harsher than a sheet's (seen at a third of the reader's resolution, with noise and wobble):
#: the least share right, and the most wrong-and-not-marked boxes in 400, either reader may give on them.
LEAST_RIGHT, MOST_WRONG_SURE_PER_400 = 0.90, 2.0


def test_the_shipped_classifiers_are_small_and_load_alone():
    assert classifier.MODEL_FILE.stat().st_size < 2_000_000
    digits = classifier.alphabet(classifier.DIGITS)
    letters = classifier.alphabet(classifier.LETTERS)
    assert digits.characters == "0123456789"
    assert set("ABCDEFGHIJKLMNOPQRSTUVWXYZ") <= set(letters.characters)
    assert set(digits.networks) == set(letters.networks) == set(classifier.VIEWS)


def test_the_shipped_classifiers_were_made_by_this_training_code():
    assert classifier.stored_version() == training.training_version(), (
        "the training code or the normalisation changed: run scripts/train_reader.py and commit its file"
    )


def test_held_out_and_calibration_fonts_are_never_fitted_on():
    installed = set(training.fonts())
    assert set(training.HELD_OUT_FONTS) <= installed
    assert set(training.CALIBRATION_FONTS) <= installed
    fitted = set(training.fitted_fonts())
    assert not fitted & (set(training.HELD_OUT_FONTS) | set(training.CALIBRATION_FONTS))
    assert len(fitted) >= 30, "many hands, not a few"


def test_hands_are_the_same_whatever_was_made_before():
    font = training.ImageFont.truetype(str(training.fonts()["caveat"]), training.DRAWN)
    first = training.font_ink(font, "7", training.rng_for("t", "caveat", "7"))
    training.font_ink(font, "3", training.rng_for("t", "caveat", "3"))
    again = training.font_ink(font, "7", training.rng_for("t", "caveat", "7"))
    assert (first == again).all()


def test_training_again_reproduces_the_shipped_accuracy(tmp_path):
    path = tmp_path / "handwriting.npz"
    training.save(path, {classifier.DIGITS: training.trained(classifier.DIGITS, report=lambda _line: None)})
    inks = training.held_out_inks(classifier.DIGITS, COPIES)
    shipped = training.measured(classifier.alphabet(classifier.DIGITS), inks, UNSURE_BELOW)
    again = training.measured(classifier.alphabet(classifier.DIGITS, path), inks, UNSURE_BELOW)
    assert shipped["right"] >= LEAST_RIGHT, shipped
    assert abs(again["right"] - shipped["right"]) <= CLOSE, (again, shipped)
    assert again["wrong_sure_per_400"] <= max(2 * shipped["wrong_sure_per_400"], MOST_WRONG_SURE_PER_400), again
