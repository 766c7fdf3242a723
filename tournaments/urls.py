"""The app's URLs, gathered from each concern's views module."""

from .views import backup, event_setup, organiser, players, public, rounds

app_name = "tournaments"

urlpatterns = [
    *public.urlpatterns,
    *organiser.urlpatterns,
    *event_setup.urlpatterns,
    *players.urlpatterns,
    *rounds.urlpatterns,
    *backup.urlpatterns,
]
