"""The printed labels come from the one catalogue without the printing layer loading the web."""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import sys
from ball.printing import render_html
from ball.printing.render import labels
assert labels("ko")["forms"]["score_sheet"]["title"] != "Match score sheet"
render_html("forms", lang="bg")
print(sorted(m for m in sys.modules if m == "ball.web" or m.startswith("ball.web.")))
"""


def test_printing_reads_the_catalogue_without_importing_the_web():
    # A fresh interpreter: in the test process other tests have loaded ball.web already.
    run = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
