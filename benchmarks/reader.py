"""The reader's classifiers on hands they never saw, one whole source at a time (development: needs `npm ci`).

    python benchmarks/reader.py [--alphabet digits|letters] [--folds 5] [--copies 8]

The fonts fitted on are cut into FOLDS groups; for each group the alphabet's networks are trained again without it
(same code, same calibration fonts) and read that group's fonts, so that every font is read by a reader that never
saw it. The shipped reader reads the held-out fonts and, for the digits, the last two UCI writers. Prints one JSON
line per source (boxes, share right, wrong and not marked unsure per 400 boxes, share marked unsure), one per
character, the confusions (expected -> read: boxes) and a total line per way of holding out.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.paper import classifier, training  # noqa: E402
from tournaments.paper.digits import UNSURE_BELOW  # noqa: E402


def counted(reader: classifier.Alphabet, inks: list) -> tuple[dict[str, Counter], Counter]:
    """How ``reader`` reads ``inks`` (ink, label, source): counts per source, and the confusions."""
    reads = reader.read([(ink, reader.characters) for ink, _label, _source in inks])
    by_source: dict[str, Counter] = {}
    confusions: Counter = Counter()
    for (read, confidence), (_ink, label, source) in zip(reads, inks):
        expected = reader.characters[label]
        counts = by_source.setdefault(source, Counter())
        counts["boxes"] += 1
        counts["right"] += read == expected
        counts["unsure"] += confidence < UNSURE_BELOW
        counts["wrong_sure"] += read != expected and confidence >= UNSURE_BELOW
        confusions[expected, "·" if read is None else read] += 1
    return by_source, confusions


def line(held_out: str, source: str, counts: Counter) -> dict:
    boxes = counts["boxes"]
    return {
        "benchmark": "reader",
        "held_out": held_out,
        "source": source,
        "boxes": boxes,
        "share_right": round(counts["right"] / boxes, 4),
        "wrong_sure_per_400": round(400 * counts["wrong_sure"] / boxes, 2),
        "share_unsure": round(counts["unsure"] / boxes, 4),
    }


def report(held_out: str, by_source: dict[str, Counter], confusions: Counter) -> None:
    """Print a line per source, a total, a line per character and the confusions."""
    for source, counts in sorted(by_source.items()):
        print(json.dumps(line(held_out, source, counts)))
    print(json.dumps(line(held_out, "all", sum(by_source.values(), Counter()))))
    written, right = Counter(), Counter()
    for (expected, read), boxes in confusions.items():
        written[expected] += boxes
        right[expected] += boxes if read == expected else 0
    for character in sorted(written):
        share = round(right[character] / written[character], 4)
        print(json.dumps({"benchmark": "reader", "held_out": held_out, "character": character, "share_right": share}))
    wrong = {f"{expected}->{read}": boxes for (expected, read), boxes in confusions.most_common() if expected != read}
    print(json.dumps({"benchmark": "reader", "held_out": held_out, "confusions": wrong}, ensure_ascii=False))


def folds(names: list[str], count: int) -> list[list[str]]:
    """``names`` dealt into ``count`` groups."""
    return [names[start::count] for start in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--alphabet", default=classifier.DIGITS, choices=list(training.CHARACTERS))
    parser.add_argument("--folds", type=int, default=5, help="groups of fitted fonts, each held out in turn")
    parser.add_argument("--copies", type=int, default=8, help="copies of each character a held-out font writes")
    args = parser.parse_args()
    if not training.fonts():
        raise SystemExit("No handwriting fonts: run `npm ci` first.")
    alphabet = args.alphabet
    report("shipped", *counted(classifier.alphabet(alphabet), training.held_out_inks(alphabet, args.copies)))
    by_source: dict[str, Counter] = {}
    confusions: Counter = Counter()
    for group in folds(training.fitted_fonts(), args.folds):
        networks = training.trained(alphabet, (*training.HELD_OUT_FONTS, *group), report=lambda _text: None)
        reader = classifier.Alphabet(training.CHARACTERS[alphabet], networks)
        group_sources, group_confusions = counted(reader, list(training.font_inks(alphabet, group, args.copies)))
        by_source.update(group_sources)
        confusions.update(group_confusions)
    report(f"fold of {args.folds}", by_source, confusions)


if __name__ == "__main__":
    main()
