"""The service worker that keeps a copy of the table and player pages for a phone whose network is gone."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


@require_GET
@never_cache
def service_worker(request):
    """At the site's root, so it may look after the table (/t/) and player (/p/) pages; always fetched afresh."""
    return render(request, "tournaments/offline/service_worker.js", content_type="text/javascript")


urlpatterns = [path("sw.js", service_worker, name="service_worker")]
