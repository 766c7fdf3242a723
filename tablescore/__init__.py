"""Tablescore installed: the ``tablescore`` command serves a club's tournaments from the user's own data folder.

Once installed, this package also holds what the app serves (``templates/``, ``static/``, ``locale/``), which a
checkout keeps beside ``manage.py``.
"""

__version__ = "0.2.0"
