"""Makes `torch.utils.tensorboard` import as summary_writer.py next to this file when
the tensorboard package is not installed (torch's own module needs it). Python imports
sitecustomize at startup from the first folder on sys.path that has one, so
scripts/legacy-training.sh puts this folder on PYTHONPATH only when tensorboard is
missing, and says so."""

import importlib.abc
import importlib.util
import os
import sys

_NAME = "torch.utils.tensorboard"


class _StandInFinder(importlib.abc.MetaPathFinder):
    """Finds torch.utils.tensorboard in this folder; every other import goes on."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != _NAME:
            return None
        here = os.path.dirname(os.path.abspath(__file__))
        return importlib.util.spec_from_file_location(fullname, os.path.join(here, "summary_writer.py"))


if importlib.util.find_spec("tensorboard") is None:
    sys.meta_path.insert(0, _StandInFinder())
