"""``python -m binmetrics``: the same as the ``binmetrics`` command."""

from binmetrics.cli.app import main

raise SystemExit(main())
