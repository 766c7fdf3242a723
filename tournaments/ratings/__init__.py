"""Ratings of a club's people from the placements of completed rounds (openskill's Plackett-Luce model).

``skill.py`` is the arithmetic alone (no Django); ``build.py`` reads the stored results in a fixed order and
stores the ratings and their history; ``pages.py`` lists them for the club's pages.
"""
