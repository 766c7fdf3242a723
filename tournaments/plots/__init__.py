"""Plots as server-rendered SVG: pure functions from plain numbers to an inline ``<svg role="img">`` with its title,
description and a table of the same numbers for screen readers. No Django, no JavaScript, no inline style: colours
come from classes the site's stylesheet paints."""

from .charts import Bar, Group, Plot, Series, bars, lines, strips

__all__ = ["Bar", "Group", "Plot", "Series", "bars", "lines", "strips"]
