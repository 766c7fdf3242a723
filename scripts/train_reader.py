"""Train the paper reader's classifiers and write them into the package (development only: it needs the
handwriting fonts that `npm ci` installs).

    python scripts/train_reader.py [--check]

Writes tournaments/paper/handwriting.npz, then prints one JSON line per alphabet: how the new file reads hands it
never saw (held-out fonts and UCI writers). With --check it writes nothing and compares a retraining with the file
in the package: the same training code's version, and held-out accuracy within a point.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.paper import classifier, digits, letters, training  # noqa: E402

#: Below which confidence each alphabet's reads are marked unsure, as the reader marks them.
UNSURE_BELOW = {classifier.DIGITS: digits.UNSURE_BELOW, classifier.LETTERS: letters.UNSURE_BELOW}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="retrain and compare with the shipped file")
    args = parser.parse_args()
    if not training.fonts():
        raise SystemExit("No handwriting fonts: run `npm ci` first.")
    networks = {
        name: training.trained(name, report=lambda line: print(line, file=sys.stderr)) for name in training.CHARACTERS
    }
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "handwriting.npz"
        training.save(path, networks)
        for name in training.CHARACTERS:
            inks = training.held_out_inks(name)
            new = training.measured(classifier.alphabet(name, path), inks, UNSURE_BELOW[name])
            line = {"benchmark": "reader-training", "alphabet": name, **new}
            if args.check:
                line["shipped"] = training.measured(classifier.alphabet(name), inks, UNSURE_BELOW[name])
            print(json.dumps(line))
        if not args.check:
            classifier.MODEL_FILE.write_bytes(path.read_bytes())
    return 0


if __name__ == "__main__":
    sys.exit(main())
