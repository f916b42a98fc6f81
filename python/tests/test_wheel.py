"""Tests of the wheel `make wheel` builds (python/build_wheel.py): its RECORD, metadata
and tag, and that pip installs it into a fresh virtual environment.

The wheel is $RLPOOL_WHEEL when set, else built here from the imported rlpool package
(whose folder holds the library)."""

import base64
import hashlib
import importlib.util
import os
import subprocess
import sys
import zipfile

import pytest

import rlpool

_HERE = os.path.dirname(os.path.abspath(__file__))


def _builder():
    spec = importlib.util.spec_from_file_location("build_wheel", os.path.join(_HERE, "..", "build_wheel.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    path = os.environ.get("RLPOOL_WHEEL")
    if path:
        return path
    return _builder().build(os.path.dirname(rlpool.__file__), str(tmp_path_factory.mktemp("dist")))


def test_record_hash_is_urlsafe_base64_without_padding():
    # sha256 of no bytes is e3b0c442...b855; in URL-safe base64 it has a '-' and a '_'.
    assert _builder().record_hash(b"") == "sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU"


def test_wheel_record_metadata_and_tag(wheel):
    version = rlpool.__version__
    info = "rlpool-%s.dist-info/" % version
    name = os.path.basename(wheel)
    assert name.startswith("rlpool-%s-py3-none-" % version) and name.endswith(".whl")
    platform = name[len("rlpool-%s-py3-none-" % version):-len(".whl")]
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert {"rlpool/__init__.py", "rlpool/pool.py", "rlpool/py.typed", "rlpool/librlpool.so"} <= names
        assert not any("__pycache__" in n or n.endswith(".h") for n in names)
        lines = z.read(info + "RECORD").decode().splitlines()
        record = {}
        for line in lines:
            path, digest, size = line.rsplit(",", 2)
            record[path] = (digest, size)
        assert record.pop(info + "RECORD") == ("", "")
        assert set(record) == names - {info + "RECORD"}  # every other file, once
        for path, (digest, size) in record.items():
            data = z.read(path)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert digest == "sha256=" + want and int(size) == len(data), path
        meta = z.read(info + "METADATA").decode().splitlines()
        assert "Name: rlpool" in meta and "Version: " + version in meta
        assert "Requires-Dist: numpy" in meta and "Requires-Python: >=3.9" in meta
        wheel_file = z.read(info + "WHEEL").decode().splitlines()
        assert "Tag: py3-none-" + platform in wheel_file and "Root-Is-Purelib: false" in wheel_file
        mode = z.getinfo("rlpool/librlpool.so").external_attr >> 16
        assert mode & 0o111, "the library must keep its executable bits"


def test_wheel_builds_reproducibly(tmp_path):
    build = _builder().build
    package = os.path.dirname(rlpool.__file__)
    a = build(package, str(tmp_path / "a"))
    b = build(package, str(tmp_path / "b"))
    with open(a, "rb") as fa, open(b, "rb") as fb:
        assert fa.read() == fb.read()


def test_pip_installs_the_wheel_into_a_venv(wheel, tmp_path):
    venv = tmp_path / "venv"
    # The system's site-packages give the venv numpy without a download.
    r = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("cannot make a venv with pip here: %s" % r.stderr.strip()[-200:])
    py = str(venv / "bin" / "python")
    r = subprocess.run([py, "-m", "pip", "install", "--no-index", "--no-cache-dir", wheel],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    code = ("import rlpool, numpy as np; print(rlpool.__file__); "
            "p = rlpool.make('CartPole-v1', env_type='gymnasium', num_envs=2); "
            "obs, info = p.reset(); print(obs.shape == (2, 4))")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RLPOOL_LIB")}
    r = subprocess.run([py, "-c", code], capture_output=True, text=True, cwd=str(tmp_path), env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    where, shaped = r.stdout.split()
    assert where.startswith(str(venv)) and shaped == "True"  # the venv's copy, working
