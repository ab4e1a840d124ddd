"""``python -m binmetrics``: the same as the ``binmetrics`` command."""

from .cli import main

raise SystemExit(main())
