"""Paper in, at the desk: a round's page to photograph or upload filled score sheets, check what was read beside
the picture of each box, and save; the pictures kept with a sheet's changes."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ..access import organiser_event
from ..models import PaperSheet, Round, SheetRevision
from ..numbers import whole_number
from ..paper.images import MAX_BYTES, MAX_PAGES, MAX_PIXELS
from ..printouts.sheets import round_with_seats, sheet_layouts
from ..services import paper as reading
from ..services.paper_form import sheet_form, unsure_boxes

PICTURES = "pictures"


def round_for(request, slug: str, number: int) -> Round:
    event = organiser_event(request, slug)
    round_ = get_object_or_404(Round, event=event, number=number)
    round_.event = event
    return round_


def waiting(round_: Round):
    """The event's sheets waiting to be checked, whatever round they were read on, round by round."""
    return (
        PaperSheet.objects.filter(table__round__event=round_.event)
        .select_related("table__round__event")
        .prefetch_related("table__seats__player", "table__manches")
        .defer("picture")
        .order_by("table__round__number", "table__number", "pk")
    )


def labels_now(event, paper: PaperSheet) -> dict[tuple[str, str], str]:
    """The labels of the boxes of ``paper``'s table, in the language of the page."""
    round_ = round_with_seats(event, paper.table.round.number)
    return {
        (box.field, box.value): box.label
        for layout in sheet_layouts(event, round_, lambda table: table.token, get_language())
        if layout.table == paper.table.number
        for box in layout.boxes
    }


def render_page(request, round_: Round, shown: int | None = None, replaced: dict | None = None, status: int = 200):
    """The round's paper page: one waiting sheet's form (``shown``, else the first; ``replaced``: as the organiser
    posted it, errors and all), and the others waiting, each a link to its own form."""
    papers = list(waiting(round_))
    current = next((paper for paper in papers if paper.pk == shown), papers[0] if papers else None)
    form = None
    if current is not None:
        form = (replaced or {}).get(current.pk)
        if form is None:
            form = sheet_form(current, labels=labels_now(round_.event, current))
    context = {
        "event": round_.event,
        "round": round_,
        "sheet": form,
        "others": [{"paper": paper, "unsure": unsure_boxes(paper.fields)} for paper in papers if paper is not current],
        "limits": {"megabytes": MAX_BYTES // 2**20, "megapixels": MAX_PIXELS // 1_000_000, "pages": MAX_PAGES},
    }
    return render(request, "tournaments/organiser/paper.html", context, status=status)


@require_http_methods(["GET", "POST"])
def paper_page(request, slug: str, number: int):
    """GET: the round's sheets waiting to be checked, and the form to add pictures; POST: read the pictures."""
    round_ = round_for(request, slug, number)
    if request.method == "GET":
        return render_page(request, round_, shown=whole_number(request.GET.get("sheet"), 2**31))
    files = request.FILES.getlist(PICTURES)
    if not files:
        messages.error(request, _("Choose or take at least one picture of a score sheet."))
        return redirect("tournaments:round_paper", slug, number)
    upload = reading.read_files(round_.event, files, request.user)
    for problem in upload.problems:
        messages.error(request, problem)
    if upload.sheets:
        tables = ", ".join(str(number) for number in sorted({paper.table.number for paper in upload.sheets}))
        messages.success(
            request,
            ngettext(
                "%(count)d sheet read (table %(tables)s): check it below, then save.",
                "%(count)d sheets read (tables %(tables)s): check them below, then save each.",
                len(upload.sheets),
            )
            % {"count": len(upload.sheets), "tables": tables},
        )
    return redirect("tournaments:round_paper", slug, number)


def paper_of(request, slug: str, paper_id: int) -> PaperSheet:
    event = organiser_event(request, slug)
    paper = get_object_or_404(PaperSheet.objects.select_related("table__round"), pk=paper_id)
    if paper.table.round.event_id != event.pk:
        raise Http404
    paper.table.round.event = event
    return paper


@require_POST
def paper_save(request, slug: str, paper_id: int):
    """Save a checked sheet as the organiser's entry from paper; refused, the page again with every value kept."""
    paper = paper_of(request, slug, paper_id)
    round_ = paper.table.round
    values, errors = reading.posted_values(paper, request.POST)
    chosen = reading.chosen_manche(paper, request.POST.get("manche"))
    if not errors:
        try:
            saved = reading.save_paper_sheet(paper, values, chosen, request.user)
        except reading.PaperRefused as refused:
            errors = refused.errors
        else:
            messages.success(
                request,
                _("Table %(table)d saved from its paper sheet (%(games)s).")
                % {"table": paper.table.number, "games": ", ".join(str(n) for n in saved)},
            )
            return redirect("tournaments:round_paper", slug, round_.number)
    labels = labels_now(round_.event, paper)
    form = sheet_form(paper, values=values, errors=errors, chosen=chosen, labels=labels)
    return render_page(request, round_, shown=paper.pk, replaced={paper.pk: form}, status=400)


@require_POST
def paper_discard(request, slug: str, paper_id: int):
    paper = paper_of(request, slug, paper_id)
    number = paper.table.round.number
    paper.delete()
    messages.success(request, _("The picture of table %(table)d was discarded.") % {"table": paper.table.number})
    return redirect("tournaments:round_paper", slug, number)


def jpeg_response(data) -> HttpResponse:
    response = HttpResponse(bytes(data), content_type="image/jpeg")
    response["Cache-Control"] = "private, max-age=3600"
    return response


def paper_picture(request, slug: str, paper_id: int):
    """The picture of a sheet waiting to be checked, set straight."""
    return jpeg_response(paper_of(request, slug, paper_id).picture)


def revision_picture(request, slug: str, revision_id: int):
    """The picture of the paper sheet a change was read from, kept for disputes."""
    event = organiser_event(request, slug)
    revision = get_object_or_404(
        SheetRevision.objects.only("paper"), pk=revision_id, manche__table__round__event=event, paper__isnull=False
    )
    return jpeg_response(revision.paper)


PAPER = "e/<slug:slug>/organiser/"

urlpatterns = [
    path(PAPER + "rounds/<int:number>/paper/", paper_page, name="round_paper"),
    path(PAPER + "paper/<int:paper_id>/save/", paper_save, name="paper_save"),
    path(PAPER + "paper/<int:paper_id>/discard/", paper_discard, name="paper_discard"),
    path(PAPER + "paper/<int:paper_id>/picture.jpg", paper_picture, name="paper_picture"),
    path(PAPER + "changes/<int:revision_id>/paper.jpg", revision_picture, name="revision_paper"),
]
