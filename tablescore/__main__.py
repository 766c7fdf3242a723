"""``python -m tablescore``: the same as the ``tablescore`` command."""

from tablescore.cli import main

raise SystemExit(main())
