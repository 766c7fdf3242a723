"""A template loader for the games' own templates, each kept in its bundle's ``templates`` folder."""

from __future__ import annotations

from django.template.loaders.filesystem import Loader as FilesystemLoader

from .registry import all_games


class Loader(FilesystemLoader):
    """Finds a template in the folders of the registered games."""

    def get_dirs(self):
        return [game.template_dir for game in all_games() if game.template_dir.is_dir()]
