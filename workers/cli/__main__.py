"""``python -m workers.cli``: the ``deid`` command."""

import sys

from workers.cli.parser import main

sys.exit(main())
