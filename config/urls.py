"""Top-level URLs: the app, the admin, login, and the language switch; the error pages' views."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("tournaments.urls")),
]

handler400 = "tournaments.errors.bad_request"
handler403 = "tournaments.errors.permission_denied"
handler404 = "tournaments.errors.page_not_found"
handler500 = "tournaments.errors.server_error"
