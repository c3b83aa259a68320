"""``python -m companion.cli``: the same as the ``clue-companion`` command."""

import sys

from .main import main

sys.exit(main())
