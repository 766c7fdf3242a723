"""A paper sheet waiting to be checked, as its form shows it: in the sheet's own order, manche by manche and line by
line as printed, each player's fields in a line beside the picture of their boxes, the boxes the reader is unsure of
counted and marked; a refused save's objections summed up above it, the first one's field focused."""

from __future__ import annotations

from collections.abc import Mapping

from django.urls import reverse
from django.utils.translation import gettext as _

from ..models import PaperSheet

#: Pixels of the sheet's picture kept around a field's boxes in its crop, and the least height of a crop on the page.
CROP_MARGIN, CROP_HEIGHT = 6, 44
#: The least size (CSS pixels) of a box in a crop, so that the crosses of a grid can be counted.
MIN_BOX_PIXELS = 24
#: What parts of a label are split at (a player's name, a row, a box: "Ada · Grapes · groups").
PART = " · "


def crop(at: list[list[float]], paper: PaperSheet) -> dict:
    """The part of the picture that shows the boxes ``at`` (each left, top, width, height), with a margin, and its
    size on the page: at least ``CROP_HEIGHT`` high, each box at least ``MIN_BOX_PIXELS`` across."""
    left = max(0.0, min(box[0] for box in at) - CROP_MARGIN)
    top = max(0.0, min(box[1] for box in at) - CROP_MARGIN)
    right = min(float(paper.width), max(box[0] + box[2] for box in at) + CROP_MARGIN)
    bottom = min(float(paper.height), max(box[1] + box[3] for box in at) + CROP_MARGIN)
    width, height = max(1.0, right - left), max(1.0, bottom - top)
    smallest = max(1.0, min(min(box[2], box[3]) for box in at))
    scale = max(CROP_HEIGHT / height, MIN_BOX_PIXELS / smallest)
    return {
        "view_box": f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}",
        "height": round(height * scale),
        "width": round(width * scale),
    }


def boxes_to_check(item: dict) -> int:
    """How many of an unsure field's boxes to check: those the reader was unsure of; all of them where the rules
    doubt the field (or where its boxes were not marked one by one)."""
    unsure = sum(1 for box in item["boxes"] if box.get("unsure"))
    return len(item["boxes"]) if item.get("doubted") or not unsure else unsure


def unsure_boxes(fields: list[dict]) -> int:
    """How many boxes of a sheet's ``fields`` could not be read for sure."""
    return sum(boxes_to_check(item) for item in fields if item["unsure"])


def shown_value(item: dict, values: Mapping[str, object] | None) -> object:
    return values.get(item["name"]) if values is not None else item["value"]


def without(prefix: str, label: str) -> str:
    """``label`` without the player's name it starts with (the form names the player once for their fields)."""
    return label[len(prefix) + len(PART) :] if prefix and label.startswith(prefix + PART) else label


def ticked_boxes(item: dict, value: object, posted: bool) -> list[bool]:
    """Whether each of a choice's boxes is ticked: as read, or as posted (a value ticked as often as it was sent)."""
    if not posted:
        return [bool(box.get("marked")) for box in item["boxes"]]
    left = list(value or [])
    ticked = []
    for box in item["boxes"]:
        ticked.append(box["value"] in left)
        if ticked[-1]:
            left.remove(box["value"])
    return ticked


def runs(boxes: list[dict]) -> list[list[int]]:
    """A choice's boxes (their indexes) in runs that stand side by side on the sheet, one row of the form each."""
    result: list[list[int]] = []
    for index, box in enumerate(boxes):
        if result and box.get("order", index) == boxes[index - 1].get("order", index - 1) + 1:
            result[-1].append(index)
        else:
            result.append([index])
    return result


def run_unsure(item: dict, run: list[int], first: bool) -> bool:
    """Whether a run of a choice's boxes is marked to check: one of its boxes the reader was unsure of; the first run
    where the whole field is in doubt."""
    if not item["unsure"]:
        return False
    if item.get("doubted") or not any(box.get("unsure") for box in item["boxes"]):
        return first
    return any(item["boxes"][i].get("unsure") for i in run)


def common_label(labels: list[str]) -> tuple[str, list[str]]:
    """The parts the labels share at their start, and what is left of each; a single label is all shared."""
    parts = [label.split(PART) for label in labels]
    if len(parts) == 1:
        return labels[0], [""]
    shared = 0
    while all(len(p) > shared + 1 for p in parts) and len({p[shared] for p in parts}) == 1:
        shared += 1
    return PART.join(parts[0][:shared]), [PART.join(p[shared:]) for p in parts]


def rows_of(item: dict, index: int, paper: PaperSheet, name: str, values, errors, labels) -> list[tuple[int, dict]]:
    """The form's rows for one field, each with its place on the sheet: a number or count with the picture of its
    boxes, or a run of a choice's tick boxes, each with its own picture (``labels``: the boxes' labels in the page's
    language, by field and value; those stored when the sheet was read otherwise)."""
    value = shown_value(item, values)
    labels = labels or {}
    common = {
        "id": f"paper-{paper.pk}-{index}",
        "name": item["name"],
        "kind": item["kind"],
        "seat": item["seat"],
        "player": name,
        "unsure": item["unsure"],
        "errors": errors.get(item["name"], []),
    }
    if item["kind"] != "choice":
        text = "" if value is None else str(value)
        label = labels.get((item["name"], ""), item["label"])
        row = {**common, "label": without(name, label), "text": text, "target": common["id"]}
        row["crop"] = crop([box["at"] for box in item["boxes"]], paper)
        if item["kind"] == "letter":
            row["options"] = letter_options(item, value)
        return [(item["boxes"][0].get("order", index), row)]
    ticked = ticked_boxes(item, value, values is not None)
    rows = []
    for number, run in enumerate(runs(item["boxes"])):
        row_id = f"{common['id']}-{number}"
        shown = [
            without(name, labels.get((item["name"], item["boxes"][i]["value"]), item["boxes"][i]["label"])) for i in run
        ]
        label, short = common_label(shown)
        choices = [
            {
                "id": f"{row_id}-{n}",
                "value": item["boxes"][i]["value"],
                "label": short[n],
                "full": shown[n],
                "ticked": ticked[i],
                "crop": crop([item["boxes"][i]["at"]], paper),
            }
            for n, i in enumerate(run)
        ]
        row = {**common, "id": row_id, "label": label, "choices": choices, "target": choices[0]["id"]}
        row["unsure"] = run_unsure(item, run, first=not number)
        if number:
            row["errors"] = []
        rows.append((item["boxes"][run[0]].get("order", index), row))
    return rows


def letter_options(item: dict, value: object) -> list[dict]:
    """A letter box's choices: each letter it allows, what it stands for (the value sent), whether it is chosen."""
    return [{"value": meant, "label": written, "selected": meant == value} for written, meant in item["choices"]]


def shared_label(labels: list[str]) -> tuple[str, list[str]]:
    """The parts every label of a printed line starts with (its title) and what is left of each; labels that share
    nothing are all the title and each is left whole."""
    parts = [label.split(PART) for label in labels]
    shared = 0
    while all(len(p) > shared for p in parts) and len({p[shared] for p in parts}) == 1:
        shared += 1
    if not shared:
        return " / ".join(dict.fromkeys(labels)), labels
    return PART.join(parts[0][:shared]), [PART.join(p[shared:]) for p in parts]


def lines_of(rows: list[tuple[int, dict]]) -> list[dict]:
    """The rows in the sheet's order, in its printed lines: a line runs across the players, so a new one starts where
    the order goes back to an earlier seat."""
    lines: list[list[dict]] = []
    for _order, row in sorted(rows, key=lambda placed: placed[0]):
        if not lines or row["seat"] < lines[-1][-1]["seat"]:
            lines.append([])
        lines[-1].append(row)
    return [line_of(line) for line in lines]


def line_of(rows: list[dict]) -> dict:
    """A printed line: its title, and its players' cells in order, each row labelled by what its title leaves (the
    player's name where that is nothing) and keeping its full name; a cell names its player above rows labelled
    otherwise. The whole table's fields (a board's) have a cell for each of what their labels start with after the
    title (a square)."""
    title, rest = shared_label([row["label"] for row in rows])
    cells: list[dict] = []
    for row, label in zip(rows, rest):
        row["full"] = PART.join(part for part in (row["player"], row["label"]) if part)
        name = row["player"] if row["seat"] >= 0 else label.split(PART)[0]
        row["label"] = (without(name, label) if row["seat"] < 0 else label) or name
        if not cells or (cells[-1]["seat"], cells[-1]["name"]) != (row["seat"], name):
            cells.append({"id": f"{row['id']}-player", "seat": row["seat"], "name": name, "rows": []})
        cells[-1]["rows"].append(row)
    for cell in cells:
        cell["named"] = any(row["label"] != cell["name"] for row in cell["rows"])
    return {"title": title, "cells": cells}


def problems_of(groups: list[dict], errors: Mapping[str, list[str]], manche_id: str | None) -> list[dict]:
    """What a refused save objects to, for the summary above the form: the sheet's own objections first, then each
    field's in the sheet's order, with the input it points at and the field's full name."""
    problems = [{"text": text, "target": None, "label": ""} for text in errors.get("", [])]
    chooser = _("This sheet is for")
    problems += [{"text": text, "target": manche_id, "label": chooser} for text in errors.get("manche", [])]
    for group in groups:
        for line in group["lines"]:
            for cell in line["cells"]:
                for row in cell["rows"]:
                    label = PART.join(part for part in (group["title"], row["full"]) if part)
                    problems += [{"text": text, "target": row["target"], "label": label} for text in row["errors"]]
    return problems


def manche_choices(paper: PaperSheet) -> list[dict]:
    """The table's manches, for a sheet that is one manche the organiser names: number and whether it has a sheet."""
    return [
        {"number": manche.number, "entered": manche.document is not None}
        for manche in sorted(paper.table.manches.all(), key=lambda m: m.number)
    ]


def default_manche(choices: list[dict]) -> int | None:
    return next((c["number"] for c in choices if not c["entered"]), choices[0]["number"] if choices else None)


def sheet_form(
    paper: PaperSheet,
    values: Mapping[str, object] | None = None,
    errors: Mapping[str, list[str]] | None = None,
    chosen: int | None = None,
    labels: Mapping[tuple[str, str], str] | None = None,
) -> dict:
    """What the template needs to show ``paper``'s form: as read, or as posted (``values``) with ``errors``; its
    labels from ``labels`` (see ``rows_of``)."""
    errors = errors or {}
    names = [seat.player.name for seat in sorted(paper.table.seats.all(), key=lambda s: s.position)]
    placed: dict[int | None, list[tuple[int, dict]]] = {}
    for index, item in enumerate(paper.fields):
        name = names[item["seat"]] if 0 <= item["seat"] < len(names) else ""
        placed.setdefault(item["manche"], []).extend(rows_of(item, index, paper, name, values, errors, labels))
    choices = manche_choices(paper) if None in placed else []
    groups = [
        {"title": _("Manche %(number)d") % {"number": manche} if manche else "", "lines": lines_of(rows)}
        for manche, rows in placed.items()
    ]
    manche_id = f"paper-{paper.pk}-manche" if len(choices) > 1 else None
    problems = problems_of(groups, errors, manche_id)
    return {
        "paper": paper,
        "picture": reverse("tournaments:paper_picture", args=[paper.table.round.event.slug, paper.pk]),
        "problems": problems,
        "focus": next((problem["target"] for problem in problems if problem["target"]), None),
        "unsure": unsure_boxes(paper.fields),
        "manches": choices,
        "manche_id": manche_id,
        "chosen": chosen or default_manche(choices),
        "groups": groups,
    }
