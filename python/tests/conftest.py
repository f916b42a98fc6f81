"""Test setup: import rlpool from the source tree (or $RLPOOL_PYTHONPATH) and make
Go check the cgo pointer rules while the tests run."""

import os
import sys

# cgocheck=1 (Go's default, stated explicitly): panics if Go memory is handed to C
# in a way the cgo rules forbid. It must be set before the library's runtime starts.
os.environ.setdefault("GODEBUG", "cgocheck=1")

_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("RLPOOL_PYTHONPATH") or os.path.join(_here, ".."))
