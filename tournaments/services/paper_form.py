"""A paper sheet waiting to be checked, as its form shows it: grouped by manche and player, in the sheet's order,
each field beside the picture of its boxes, the fields the reader is unsure of marked."""

from __future__ import annotations

from collections.abc import Mapping

from django.urls import reverse
from django.utils.translation import gettext as _

from ..models import PaperSheet

#: Pixels of the sheet's picture kept around a field's boxes in its crop, and the crop's height on the page.
CROP_MARGIN, CROP_HEIGHT = 6, 44


def crop(at: list[list[float]], paper: PaperSheet) -> dict:
    """The part of the picture that shows the boxes ``at`` (each left, top, width, height), with a margin."""
    left = max(0.0, min(box[0] for box in at) - CROP_MARGIN)
    top = max(0.0, min(box[1] for box in at) - CROP_MARGIN)
    right = min(float(paper.width), max(box[0] + box[2] for box in at) + CROP_MARGIN)
    bottom = min(float(paper.height), max(box[1] + box[3] for box in at) + CROP_MARGIN)
    width, height = max(1.0, right - left), max(1.0, bottom - top)
    return {
        "view_box": f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}",
        "height": CROP_HEIGHT,
        "width": round(CROP_HEIGHT * width / height),
    }


def shown_value(item: dict, values: Mapping[str, object] | None) -> object:
    return values.get(item["name"]) if values is not None else item["value"]


def without(prefix: str, label: str) -> str:
    """``label`` without the player's name it starts with (the form groups fields by player)."""
    return label[len(prefix) + 3 :] if prefix and label.startswith(f"{prefix} · ") else label


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


def common_label(labels: list[str]) -> tuple[str, list[str]]:
    """The parts (split at " · ") the labels share at their start, and what is left of each; a single label is
    all shared."""
    parts = [label.split(" · ") for label in labels]
    if len(parts) == 1:
        return labels[0], [""]
    shared = 0
    while all(len(p) > shared + 1 for p in parts) and len({p[shared] for p in parts}) == 1:
        shared += 1
    return " · ".join(parts[0][:shared]), [" · ".join(p[shared:]) for p in parts]


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
        "unsure": item["unsure"],
        "errors": errors.get(item["name"], []),
    }
    if item["kind"] != "choice":
        text = "" if value is None else str(value)
        label = labels.get((item["name"], ""), item["label"])
        row = {**common, "label": without(name, label), "text": text}
        row["crop"] = crop([box["at"] for box in item["boxes"]], paper)
        return [(item["boxes"][0].get("order", index), row)]
    ticked = ticked_boxes(item, value, values is not None)
    rows = []
    for number, run in enumerate(runs(item["boxes"])):
        shown = [
            without(name, labels.get((item["name"], item["boxes"][i]["value"]), item["boxes"][i]["label"])) for i in run
        ]
        label, short = common_label(shown)
        choices = [
            {
                "value": item["boxes"][i]["value"],
                "label": short[n],
                "full": shown[n],
                "ticked": ticked[i],
                "crop": crop([item["boxes"][i]["at"]], paper),
            }
            for n, i in enumerate(run)
        ]
        row = {**common, "id": f"{common['id']}-{number}", "label": label, "choices": choices}
        if number:
            row |= {"unsure": False, "errors": []}
        rows.append((item["boxes"][run[0]].get("order", index), row))
    return rows


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
    placed: dict[int | None, dict[int, list[tuple[int, dict]]]] = {}
    for index, item in enumerate(paper.fields):
        name = names[item["seat"]] if item["seat"] < len(names) else ""
        seats = placed.setdefault(item["manche"], {})
        seats.setdefault(item["seat"], []).extend(rows_of(item, index, paper, name, values, errors, labels))
    choices = manche_choices(paper) if None in placed else []
    return {
        "paper": paper,
        "picture": reverse("tournaments:paper_picture", args=[paper.table.round.event.slug, paper.pk]),
        "errors": errors.get("", []) + errors.get("manche", []),
        "unsure": sum(1 for item in paper.fields if item["unsure"]),
        "manches": choices,
        "chosen": chosen or default_manche(choices),
        "groups": [
            {
                "title": _("Manche %(number)d") % {"number": manche} if manche else "",
                "players": [
                    {
                        "name": names[seat] if seat < len(names) else "",
                        "rows": [row for _order, row in sorted(rows, key=lambda r: r[0])],
                    }
                    for seat, rows in sorted(seats.items())
                ],
            }
            for manche, seats in placed.items()
        ],
    }
