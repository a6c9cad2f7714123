"""``python -m server`` is ``kibitz``."""

import sys

from .cli import main

sys.exit(main())
