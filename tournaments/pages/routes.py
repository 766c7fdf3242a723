"""The three doors to a table's sheets: its table link, a player's own link, the organiser's desk.

Each names its pages by URL name; the manche forms post through the door the page was opened by.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from ..models import Player, Table

ACTIONS = ("save", "check", "confirm", "dispute")


@dataclass(frozen=True)
class EntryRoute:
    kind: str
    prefix: str
    args: tuple
    actions: tuple[str, ...] = ACTIONS
    player: Player | None = None

    @property
    def organiser(self) -> bool:
        return self.kind == "desk"

    def page(self) -> str:
        return reverse(f"tournaments:{self.prefix}", args=self.args)

    def urls(self, number: int) -> dict[str, str]:
        return {
            action: reverse(f"tournaments:{self.prefix}_{action}", args=[*self.args, number])
            if action in self.actions
            else ""
            for action in ACTIONS
        }


def table_route(table: Table) -> EntryRoute:
    return EntryRoute("link", "table", (table.token,))


def player_route(player: Player, table: Table) -> EntryRoute:
    return EntryRoute("player", "player_table", (player.token, table.pk), player=player)


def desk_route(table: Table) -> EntryRoute:
    return EntryRoute("desk", "desk_table", (table.round.event.slug, table.pk), actions=("save", "check", "confirm"))
