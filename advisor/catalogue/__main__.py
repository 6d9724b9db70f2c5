"""``python -m advisor.catalogue``: regenerate verification.yaml (see :mod:`._verify`)."""

from __future__ import annotations

import sys

from ._verify import main

sys.exit(main())
