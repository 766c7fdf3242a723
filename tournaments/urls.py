"""The app's URLs, gathered from each concern's views module."""

from .views import (
    api,
    backup,
    clock,
    clubs,
    desk_alerts,
    desk_tables,
    event_setup,
    offline,
    organiser,
    paper,
    people,
    player_link,
    players,
    printing,
    public,
    rounds,
    seasons,
    sheet_list,
    statistics,
    table_entry,
)

app_name = "tournaments"

urlpatterns = [
    *public.urlpatterns,
    *organiser.urlpatterns,
    *event_setup.urlpatterns,
    *players.urlpatterns,
    *rounds.urlpatterns,
    *backup.urlpatterns,
    *sheet_list.urlpatterns,
    *table_entry.urlpatterns,
    *player_link.urlpatterns,
    *desk_tables.urlpatterns,
    *api.urlpatterns,
    *offline.urlpatterns,
    *printing.urlpatterns,
    *paper.urlpatterns,
    *clock.urlpatterns,
    *desk_alerts.urlpatterns,
    *people.urlpatterns,
    *clubs.urlpatterns,
    *seasons.urlpatterns,
    *statistics.urlpatterns,
]
