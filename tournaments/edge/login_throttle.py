"""Login throttling's page: django-axes counts the failures (AXES_*), this is the wait and the form it shows."""

from __future__ import annotations

import math

from django.contrib.admin import site as admin_site
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Max
from django.forms.utils import ErrorDict
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..errors import too_many_requests


def lockout_seconds(request, credentials=None) -> int:
    """How long this user name must wait at this address: the cool-off from its latest recorded failure."""
    from axes.handlers.proxy import AxesProxyHandler
    from axes.helpers import get_cool_off

    cool_off = get_cool_off(request)
    if cool_off is None:
        return 0
    AxesProxyHandler.update_request(request)
    handler = AxesProxyHandler.get_implementation()
    since = timezone.now()
    if hasattr(handler, "get_user_attempts"):  # the database handler: each failure's time is kept
        latest = [
            attempts.aggregate(t=Max("attempt_time"))["t"]
            for attempts in handler.get_user_attempts(request, credentials)
        ]
        since = max((moment for moment in latest if moment is not None), default=since)
    return max(1, math.ceil((since + cool_off - timezone.now()).total_seconds()))


def login_lockout(request, original_response=None, credentials=None) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the login form again, with what was typed and the wait, as 429 with Retry-After."""
    wait = lockout_seconds(request, credentials)
    minutes = max(1, math.ceil(wait / 60))
    message = ngettext(
        "Too many attempts, try again in %(minutes)d minute.",
        "Too many attempts, try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}
    view_name = request.resolver_match.view_name if request.resolver_match else ""
    if view_name not in {"login", "admin:login"}:
        return too_many_requests(request, message, wait)
    admin = view_name == "admin:login"
    form = (AdminAuthenticationForm if admin else AuthenticationForm)(request, data=request.POST)
    form._errors = ErrorDict({"__all__": form.error_class([message])})
    form.cleaned_data = {}
    next_url = request.POST.get(REDIRECT_FIELD_NAME, request.GET.get(REDIRECT_FIELD_NAME, ""))
    context = {"form": form, REDIRECT_FIELD_NAME: next_url}
    if admin:
        context.update(admin_site.each_context(request), title=_("Log in"), app_path=request.get_full_path())
    template = "admin/login.html" if admin else "registration/login.html"
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(wait)
    return response
