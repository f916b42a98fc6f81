"""pytest setup that runs EnvPool's own Python tests against rlpool.

scripts/envpool-tests.sh copies this file beside the extracted EnvPool tests. It does
three things and nothing else:

1. The module name `envpool` and the submodules the tests import are mapped to
   rlpool: `envpool` is the rlpool package itself; `envpool.registration` and
   `envpool.python.protocol` hold rlpool's make functions and pool classes; the
   per-family `registration` modules are EnvPool's own files from the extracted tree
   (they are task lists; their `register` calls record nothing, since rlpool has its
   own registry). Names rlpool does not have (EnvPool's private C++ bindings such as
   `_AtariEnvPool`) are placeholders that fail when used.
2. Third-party libraries that cannot be installed on this machine (gymnasium, gym,
   dm_env, jax, mujoco's Python bindings, dm_control, cv2 when absent) get a
   placeholder module only when they do not import, so that a test file whose module
   imports one still loads; any use of a placeholder raises MissingDependency. The
   tests that use them are deselected by the list in deselect.tsv, with the reason.
   dm_env's placeholder holds the dm_env types rlpool returns in dm_env's absence
   (StepType, TimeStep, specs; not Environment), as an rlpool user without dm_env
   sees them.
   rlpool itself is imported before the placeholders exist, so it sees the libraries
   as absent and uses its own stand-ins, as it does for any user without them.
3. Tests are deselected by deselect.tsv (ENVPOOL_TESTS_DESELECT), and every outcome
   is written as JSON to ENVPOOL_TESTS_REPORT for the summary table.

The tests' own code is run unchanged.
"""

import importlib
import importlib.util
import json
import os
import sys
import types

os.environ.setdefault("GODEBUG", "cgocheck=1")
if os.environ.get("RLPOOL_PYTHONPATH"):
    sys.path.insert(0, os.environ["RLPOOL_PYTHONPATH"])

import rlpool  # noqa: E402  (must come before the placeholders below)
import rlpool.pool  # noqa: E402,F401
import rlpool.spaces  # noqa: E402,F401

_HERE = os.path.dirname(os.path.abspath(__file__))


class MissingDependency(RuntimeError):
    """A test used something that does not exist here: a library that is not
    installed, or an EnvPool binding rlpool does not have."""


class _Missing:
    """Stands for name; every use but attribute access raises MissingDependency."""

    def __init__(self, name):
        object.__setattr__(self, "_name", name)

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Missing(self._name + "." + attr)

    def _fail(self, *args, **kwargs):
        raise MissingDependency("%s is not available here (placeholder)" % self._name)

    __call__ = __instancecheck__ = __subclasscheck__ = __iter__ = __bool__ = _fail
    __eq__ = __lt__ = __gt__ = __le__ = __ge__ = __getitem__ = __len__ = _fail
    __hash__ = object.__hash__

    def __repr__(self):
        return "<missing %s>" % self._name


class _AbsentModule(types.ModuleType):
    """A module that is not installed: its attributes are _Missing placeholders."""

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Missing(self.__name__ + "." + attr)


def _dm_env_types():
    """dm_env, when it does not import: the dm_env types rlpool itself uses in its
    place (rlpool.dm: StepType, TimeStep, specs), which are what an rlpool user without
    dm_env gets. Environment stays a placeholder, so that isinstance checks against it
    fail instead of passing against a stand-in."""
    import rlpool.dm as stand_in
    mod = _AbsentModule("dm_env")
    mod.StepType, mod.TimeStep, mod.specs = stand_in.StepType, stand_in.TimeStep, stand_in.specs
    mod.Environment = _Missing("dm_env.Environment")
    return mod


def _placeholder_libraries():
    try:
        importlib.import_module("dm_env")
    except ImportError:
        sys.modules["dm_env"] = _dm_env_types()
    for name in ("gymnasium", "gym", "dm_env", "jax", "mujoco", "dm_control", "cv2", "packaging"):
        try:
            importlib.import_module(name)
        except ImportError:
            sys.modules[name] = _AbsentModule(name)
    # Submodules imported with `from X.y import z` or `import X.y`.
    for name in ("jax.numpy", "dm_control.suite", "dm_control.mujoco", "packaging.version"):
        if isinstance(sys.modules.get(name.split(".")[0]), _AbsentModule):
            sys.modules[name] = _AbsentModule(name)


def _module(name, package=False, **attrs):
    mod = types.ModuleType(name)
    if package:
        mod.__path__ = []
    mod.__dict__.update(attrs)
    sys.modules[name] = mod
    parent, _, leaf = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], leaf, mod)
    return mod


def _rlpool_names(*names):
    """rlpool's attribute for each name, or a placeholder where it has none."""
    return {n: getattr(rlpool, n, None) or _Missing("rlpool." + n) for n in names}


def _register(**kwargs):
    """EnvPool's registry call; rlpool has its own registry, so nothing is recorded."""


def _envpool_registration(name):
    """Load EnvPool's own registration file for name (a task list) from the tree."""
    path = os.path.join(_HERE, *name.split(".")) + ".py"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    parent, _, leaf = name.rpartition(".")
    setattr(sys.modules[parent], leaf, mod)


def _map_envpool():
    sys.modules["envpool"] = rlpool
    make_fns = ("make", "make_gym", "make_dm", "make_gymnasium", "make_spec", "list_all_envs")
    # EnvPool's Atari registration lists the games from base_path/atari/roms: the
    # script links that folder to $RLPOOL_ROMS.
    base = os.path.join(_HERE, "envpool_base")
    _module("envpool.registration", register=_register, base_path=base, **_rlpool_names(*make_fns))
    _module("envpool.python", package=True)
    _module("envpool.python.protocol",
            **_rlpool_names("EnvSpec", "EnvPool", "DMEnvPool", "GymnasiumEnvPool", "GymEnvPool"))
    _module("envpool.atari", package=True, AtariEnvSpec=_Missing("envpool.atari.AtariEnvSpec"))
    _module("envpool.atari.atari_envpool", _AtariEnvPool=_Missing("envpool's _AtariEnvPool"),
            _AtariEnvSpec=_Missing("envpool's _AtariEnvSpec"))
    _module("envpool.classic_control", package=True)
    _module("envpool.mujoco", package=True)
    _module("envpool.mujoco.gym", package=True)
    _module("envpool.mujoco.dmc", package=True)
    _module("envpool.mujoco.metaworld", package=True)
    for fam in ("atari", "classic_control", "mujoco.gym", "mujoco.dmc", "mujoco.metaworld"):
        _envpool_registration("envpool.%s.registration" % fam)


_placeholder_libraries()
_map_envpool()


# -- deselection and the report ---------------------------------------------------------

def _rom_present(game):
    roms = os.environ.get("RLPOOL_ROMS", "")
    return bool(roms) and os.path.exists(os.path.join(roms, game + ".bin"))


def _load_deselect():
    """{node id prefix: reason} from deselect.tsv. A line is `node id<TAB>needs<TAB>
    reason`; needs is "-" (always deselected) or "rom=a,b" (deselected only when one
    of those ROMs is missing from $RLPOOL_ROMS)."""
    out = {}
    path = os.environ.get("ENVPOOL_TESTS_DESELECT") or os.path.join(_HERE, "deselect.tsv")
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            node, needs, reason = line.split("\t")
            if needs.startswith("py="):
                try:
                    if not isinstance(importlib.import_module(needs[3:]), _AbsentModule):
                        continue
                except ImportError:
                    pass
            elif needs.startswith("rom="):
                missing = [g for g in needs[4:].split(",") if not _rom_present(g)]
                if not missing:
                    continue
                reason = "%s (missing ROM: %s)" % (reason, ", ".join(missing))
            out[node] = reason
    return out


_DESELECT = _load_deselect()
_RESULTS = {}


def _reason(nodeid):
    for prefix, reason in _DESELECT.items():
        if nodeid == prefix or nodeid.startswith(prefix + "::"):
            return reason
    return None


def pytest_collection_modifyitems(session, config, items):
    keep, drop = [], []
    for item in items:
        reason = _reason(item.nodeid)
        if reason is None:
            keep.append(item)
        else:
            drop.append(item)
            _RESULTS[item.nodeid] = {"outcome": "deselected", "reason": reason}
    items[:] = keep
    if drop:
        config.hook.pytest_deselected(items=drop)


def pytest_collectreport(report):
    if report.failed:
        _RESULTS[report.nodeid] = {"outcome": "error", "reason": "collection: " + str(report.longrepr)[-300:]}


def pytest_runtest_logreport(report):
    r = _RESULTS.setdefault(report.nodeid, {"outcome": "passed"})
    if report.failed:
        r["outcome"] = "failed"
        r["reason"] = str(getattr(report.longrepr, "reprcrash", None) or report.longrepr)[-300:]
    elif report.skipped and r["outcome"] == "passed":
        r["outcome"] = "skipped"
        r["reason"] = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else ""


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("ENVPOOL_TESTS_REPORT")
    if path:
        with open(path, "w") as f:
            json.dump(_RESULTS, f, indent=1, sort_keys=True)
