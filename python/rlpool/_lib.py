"""Loading of librlpool.so and the ctypes signatures of its C API (rlp_*)."""

import ctypes
import json
import os

_HERE = os.path.dirname(os.path.abspath(__file__))

#: Error kinds reported by rlp_error_kind.
KIND_VALUE = 1
KIND_RUNTIME = 2

_lib = None


def lib_path():
    """Return the path of the shared library: $RLPOOL_LIB, else the package's copy."""
    return os.environ.get("RLPOOL_LIB") or os.path.join(_HERE, "librlpool.so")


def load():
    """Load librlpool.so once and declare its functions; return the ctypes library.

    ctypes.CDLL releases the GIL for the duration of every call, so other Python
    threads run while a call waits in Go.
    """
    global _lib
    if _lib is not None:
        return _lib
    path = lib_path()
    if not os.path.exists(path):
        raise ImportError(
            "rlpool: shared library %s not found; build it with `make python` "
            "(or set RLPOOL_LIB to its path)" % path
        )
    lib = ctypes.CDLL(path)
    c_i64, c_int, c_vp = ctypes.c_int64, ctypes.c_int, ctypes.c_void_p
    sigs = {
        "rlp_version": ([], c_vp),
        "rlp_list_tasks": ([], c_vp),
        "rlp_make": ([ctypes.c_char_p, ctypes.c_char_p], c_i64),
        "rlp_spec": ([c_i64], c_vp),
        "rlp_task_spec": ([ctypes.c_char_p, ctypes.c_char_p], c_vp),
        "rlp_async_reset": ([c_i64], c_int),
        "rlp_reset_ids": ([c_i64, c_vp, c_i64], c_int),
        "rlp_send": ([c_i64, c_vp, c_i64, c_vp, c_i64], c_int),
        "rlp_recv": ([c_i64, c_int, c_vp, c_vp, c_vp, c_vp, c_vp, c_vp, c_vp, c_vp], c_int),
        "rlp_render_size": ([c_i64, ctypes.c_int32, c_vp], c_int),
        "rlp_render": ([c_i64, c_vp, c_i64, ctypes.c_int32, ctypes.c_int32, c_vp], c_int),
        "rlp_close": ([c_i64], c_int),
        "rlp_last_error": ([], c_vp),
        "rlp_handle_error": ([c_i64], c_vp),
        "rlp_error_kind": ([c_i64], c_int),
        "rlp_free": ([c_vp], None),
    }
    for name, (args, res) in sigs.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = res
    _lib = lib
    return lib


def take_string(ptr):
    """Copy a C string returned by the library into a Python str and free it."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        _lib.rlp_free(ptr)


def error(handle=0):
    """Return the exception for the last failed call on handle (0: any call)."""
    lib = load()
    msg = take_string(lib.rlp_handle_error(handle) if handle else lib.rlp_last_error())
    kind = lib.rlp_error_kind(handle)
    if not msg:
        msg = "rlpool: unknown error"
    return (ValueError if kind == KIND_VALUE else RuntimeError)(msg)


def version():
    """Return the C API's version string."""
    return take_string(load().rlp_version())


def list_tasks():
    """Return every registered task id, sorted."""
    s = take_string(load().rlp_list_tasks())
    if s is None:
        raise error()
    return json.loads(s)


def task_spec(task_id, options_json):
    """Return the spec JSON of a pool of task_id made with options_json, without making
    it (ValueError for a bad task id or options)."""
    s = take_string(load().rlp_task_spec(task_id.encode(), options_json.encode()))
    if s is None:
        raise error()
    return s
