"""An app process readied before it serves: templates compiled, translations and the paper reader read, what it
made frozen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from tournaments.warm_up import project_templates

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import gc, json
import config.wsgi
from django.template import engines
from django.utils.translation import trans_real
from tournaments.paper import classifier
cached = engines["django"].engine.template_loaders[0].get_template_cache
print(json.dumps({
    "frozen": gc.get_freeze_count(),
    "templates": sorted(cached),
    "languages": sorted(trans_real._translations),
    "classifiers": classifier.alphabet.cache_info().currsize,
}))
"""


def test_the_wsgi_entry_point_readies_its_process_before_it_serves(tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": f"sqlite:///{tmp_path}/db"}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["frozen"] > 10_000, "what the process made while starting is frozen"
    templates = set(found["templates"])
    live = {"tournaments/_standings_live.html", "tournaments/_standings_list.html", "django_tables2/semantic.html"}
    assert live <= templates, "the live standings' templates are compiled, the library's table among them"
    assert set(project_templates()) <= templates, "every template of the project"
    assert {code for code, _name in settings.LANGUAGES} <= set(found["languages"])
    assert found["classifiers"] == 2, "the paper reader's digits and letters are loaded before the first upload"
