"""Readying an app process before it serves, so that its first requests cost what later ones do.

Django compiles a template, fills its URL resolver and reads a language's translations at first use: in a fresh
process, the first live standings page took several times its usual time while the requests behind it waited.
``warm_up`` does that work at start, then hands everything made so far to ``gc.freeze``: the garbage collector's
full passes no longer walk the hundreds of thousands of objects that live as long as the process (they had stopped
every thread of it for 40 to 120 ms, several times a minute, under load). The paper reader's classifiers are loaded
then too, so that no organiser's first upload waits for them.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings
from django.template import TemplateDoesNotExist, engines
from django.template.loader_tags import ExtendsNode, IncludeNode
from django.urls import reverse
from django.utils import translation

from .games.registry import all_games
from .paper import classifier


def project_templates() -> Iterator[str]:
    """The names of the project's own templates, those of its games and django-tables2's the tables draw with."""
    if getattr(settings, "DJANGO_TABLES2_TEMPLATE", ""):
        yield settings.DJANGO_TABLES2_TEMPLATE
    folders = [Path(folder) for config in settings.TEMPLATES for folder in config.get("DIRS", [])]
    folders += [game.template_dir for game in all_games() if game.template_dir.is_dir()]
    for folder in folders:
        for path in sorted(folder.rglob("*.html")):
            yield path.relative_to(folder).as_posix()


def referenced(template) -> Iterator[str]:
    """The templates that ``template`` extends or includes by a name written in it."""
    for node in template.nodelist.get_nodes_by_type((ExtendsNode, IncludeNode)):
        name = (node.parent_name if isinstance(node, ExtendsNode) else node.template).var
        if isinstance(name, str):
            yield name


def load_templates() -> int:
    """Compile the project's templates and every one they name into the cached loader; returns how many."""
    engine = engines["django"].engine
    waiting, loaded = list(project_templates()), set()
    while waiting:
        name = waiting.pop()
        if name in loaded:
            continue
        loaded.add(name)
        try:
            template = engine.get_template(name)
        except TemplateDoesNotExist:
            continue
        waiting.extend(referenced(template))
    return len(loaded)


def warm_up() -> None:
    """Fill the URL resolvers (one reverse does), the template cache, the translations of every language and the
    paper reader's classifiers, then freeze what the process made so far."""
    reverse("tournaments:standings_live", args=["warm-up"])
    load_templates()
    for name in (classifier.DIGITS, classifier.LETTERS):
        classifier.alphabet(name)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Standings")
    gc.freeze()
