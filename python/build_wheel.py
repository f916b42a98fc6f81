#!/usr/bin/env python3
"""Build rlpool's wheel from the package folder, with the standard library only.

    python3 python/build_wheel.py [--package python/rlpool] [--out dist]

The package folder must hold librlpool.so (`make python` builds it). A wheel is a zip
of the package's files and an rlpool-<version>.dist-info folder (METADATA, WHEEL,
RECORD), so writing it needs no packaging tools and no download. The library is loaded
with ctypes and links no libpython, so one wheel serves every CPython 3 (tag py3-none);
it is native code for this machine's OS and architecture, and the platform tag says
so: linux_<arch> (not manylinux, which promises a library checked against an old
glibc baseline, as auditwheel does; pip installs linux_* wheels on the machine that
built them and on any with the same or a newer glibc).

The wheel is reproducible: its entries are sorted and dated 1980-01-01, so the same
files give the same bytes. It prints the wheel's path.
"""

import argparse
import base64
import hashlib
import os
import re
import sys
import sysconfig
import zipfile

NAME = "rlpool"
LIBRARY = "librlpool.so"
SUMMARY = "EnvPool-compatible pools of RL environments stepped by a Go engine"
REQUIRES_PYTHON = ">=3.9"
REQUIRES = ["numpy"]
# Every entry gets this date (the earliest a zip can hold), so builds are identical.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def package_version(package_dir):
    """Return __version__ as __init__.py assigns it (read, not imported: importing
    rlpool needs numpy and the library)."""
    with open(os.path.join(package_dir, "__init__.py"), encoding="utf-8") as f:
        m = re.search(r'^__version__\s*=\s*["\']([^"\']+)["\']', f.read(), re.M)
    if not m:
        raise SystemExit("build_wheel: no __version__ = \"...\" line in %s/__init__.py" % package_dir)
    return m.group(1)


def platform_tag():
    """Return the wheel platform tag of this machine, such as linux_x86_64."""
    return re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())


def package_files(package_dir):
    """Return the package's files to ship, as (path in the wheel, path on disk), sorted:
    the Python modules, py.typed and the shared library."""
    names = sorted(n for n in os.listdir(package_dir) if n.endswith(".py") or n in ("py.typed", LIBRARY))
    if LIBRARY not in names:
        raise SystemExit("build_wheel: %s/%s is missing; build it with `make python`" % (package_dir, LIBRARY))
    return [(NAME + "/" + n, os.path.join(package_dir, n)) for n in names]


def record_hash(data):
    """Return a RECORD hash: sha256=, then the digest in URL-safe base64 without padding."""
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def metadata(version, license_text):
    """Return the METADATA file (core metadata 2.1)."""
    lines = ["Metadata-Version: 2.1", "Name: " + NAME, "Version: " + version, "Summary: " + SUMMARY,
             "License: Apache-2.0" if license_text else None, "Requires-Python: " + REQUIRES_PYTHON]
    lines += ["Requires-Dist: " + r for r in REQUIRES]
    return "\n".join(l for l in lines if l) + "\n"


def wheel_file(tag):
    """Return the WHEEL file: a platform wheel, installed into platlib."""
    return "Wheel-Version: 1.0\nGenerator: rlpool build_wheel.py\nRoot-Is-Purelib: false\nTag: %s\n" % tag


def build(package_dir, out_dir, license_path=None):
    """Write the wheel into out_dir and return its path."""
    version = package_version(package_dir)
    tag = "py3-none-" + platform_tag()
    info = "%s-%s.dist-info" % (NAME, version)
    entries = []  # (name in the wheel, bytes, unix mode)
    for arc, path in package_files(package_dir):
        with open(path, "rb") as f:
            entries.append((arc, f.read(), 0o755 if arc.endswith(".so") else 0o644))
    license_text = None
    if license_path and os.path.exists(license_path):
        with open(license_path, "rb") as f:
            license_text = f.read()
        entries.append((info + "/LICENSE", license_text, 0o644))
    entries.append((info + "/METADATA", metadata(version, license_text).encode(), 0o644))
    entries.append((info + "/WHEEL", wheel_file(tag).encode(), 0o644))
    record = "".join("%s,%s,%d\n" % (arc, record_hash(data), len(data)) for arc, data, _ in entries)
    entries.append((info + "/RECORD", (record + info + "/RECORD,,\n").encode(), 0o644))

    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "%s-%s-%s.whl" % (NAME, version, tag))
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for arc, data, mode in entries:
            zi = zipfile.ZipInfo(arc, ZIP_DATE)
            zi.external_attr = (0o100000 | mode) << 16  # a regular file with its permissions
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    os.replace(tmp, path)
    return path


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--package", default=os.path.join(here, NAME), help="the rlpool package folder")
    ap.add_argument("--out", default="dist", help="folder to write the wheel into")
    ap.add_argument("--license", default=os.path.join(here, "..", "LICENSE"), help="license file to include")
    args = ap.parse_args(argv)
    print(build(args.package, args.out, args.license))
    return 0


if __name__ == "__main__":
    sys.exit(main())
