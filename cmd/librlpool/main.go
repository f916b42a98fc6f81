// Command librlpool is rlpool's C ABI, built as a shared library for the Python package
// (python/rlpool):
//
//	CGO_ENABLED=1 go build -buildmode=c-shared -o python/rlpool/librlpool.so ./cmd/librlpool
//
// Every function is prefixed rlp_. Pools are named by int64 handles (> 0). Functions
// that fail return -1 (or NULL) and record the error, per handle and globally:
// rlp_last_error and rlp_handle_error return it, rlp_error_kind says whether it was a
// bad argument (1) or another failure (2). Strings returned to C are allocated with
// malloc and must be released with rlp_free. C never holds Go memory: results are
// copied into buffers the caller owns. A Go panic inside any function becomes an error.
package main

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

import (
	"time"
	"unsafe"

	_ "github.com/rlpool/rlpool/envs/all" // registers every task family
)

// version is the C ABI's version, reported by rlp_version.
const version = "rlpool-capi 1"

func main() {}

// guard turns a panic in an exported function into an error recorded for hid; the
// caller's deferred assignment of the failure value follows it.
func guard(hid int64, failed *bool) {
	if r := recover(); r != nil {
		fail(hid, runtimeErr("rlpool: internal error (Go panic): %v", r))
		*failed = true
	}
}

// withHandle runs f on the open handle hid under its lock and records an error.
func withHandle(hid int64, f func(h *handle) error) error {
	h, err := lookup(hid)
	if err != nil {
		fail(hid, err)
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := f(h); err != nil {
		fail(hid, err)
		return err
	}
	return nil
}

// rlp_version returns the ABI version string (free with rlp_free).
//
//export rlp_version
func rlp_version() *C.char { return C.CString(version) }

// rlp_list_tasks returns the registered task ids as a JSON array (free with rlp_free).
//
//export rlp_list_tasks
func rlp_list_tasks() (ret *C.char) {
	failed := false
	defer func() {
		if failed {
			ret = nil
		}
	}()
	defer guard(0, &failed)
	return C.CString(listTasksJSON())
}

// rlp_make builds a pool of task_id configured by options_json (a JSON object of pool
// options and the task's own options; NULL or "" for none). It returns a handle > 0, or
// -1 with the error in rlp_last_error.
//
//export rlp_make
func rlp_make(taskID, optionsJSON *C.char) (ret C.int64_t) {
	failed := false
	defer func() {
		if failed {
			ret = -1
		}
	}()
	defer guard(0, &failed)
	if taskID == nil {
		fail(0, valueErr("rlpool: make: task id is NULL"))
		return -1
	}
	opts := ""
	if optionsJSON != nil {
		opts = C.GoString(optionsJSON)
	}
	id, err := makeHandle(C.GoString(taskID), opts)
	if err != nil {
		fail(0, err)
		return -1
	}
	return C.int64_t(id)
}

// rlp_spec returns the pool's spec and resolved options as JSON (free with rlp_free),
// or NULL on error.
//
//export rlp_spec
func rlp_spec(hid C.int64_t) (ret *C.char) {
	failed := false
	defer func() {
		if failed {
			ret = nil
		}
	}()
	defer guard(int64(hid), &failed)
	var s string
	if withHandle(int64(hid), func(h *handle) (err error) { s, err = h.specJSON(); return err }) != nil {
		return nil
	}
	return C.CString(s)
}

// status converts an error to the C return convention: 0 or -1.
func status(err error) C.int {
	if err != nil {
		return -1
	}
	return 0
}

// rlp_async_reset queues a reset of every env (none may be in flight); rlp_recv
// collects the first observations. Returns 0 or -1.
//
//export rlp_async_reset
func rlp_async_reset(hid C.int64_t) (ret C.int) {
	failed := false
	defer func() {
		if failed {
			ret = -1
		}
	}()
	defer guard(int64(hid), &failed)
	return status(withHandle(int64(hid), (*handle).asyncReset))
}

// int32s views n int32 values of C memory (nil for a NULL pointer).
func int32s(p *C.int32_t, n C.int64_t) []int32 {
	if p == nil {
		return nil
	}
	if n == 0 {
		return []int32{}
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(p)), int(n))
}

// rlp_reset_ids queues a reset of the n envs in ids only (none of them may be in
// flight); rlp_recv returns their first observations among its rows. Returns 0 or -1.
//
//export rlp_reset_ids
func rlp_reset_ids(hid C.int64_t, ids *C.int32_t, n C.int64_t) (ret C.int) {
	failed := false
	defer func() {
		if failed {
			ret = -1
		}
	}()
	defer guard(int64(hid), &failed)
	if n < 0 || (ids == nil && n > 0) {
		err := valueErr("rlpool: reset: bad id array (%d ids)", int64(n))
		fail(int64(hid), err)
		return -1
	}
	list := int32s(ids, n)
	return status(withHandle(int64(hid), func(h *handle) error { return h.resetIDs(list) }))
}

// rlp_send queues one step for each of the n_ids envs in env_ids (env_ids NULL: every
// env in order) with n_actions float values (action space size per env; discrete
// actions as integer values). The actions are copied. Returns 0 or -1.
//
//export rlp_send
func rlp_send(hid C.int64_t, actions *C.float, nActions C.int64_t, envIDs *C.int32_t, nIDs C.int64_t) (ret C.int) {
	failed := false
	defer func() {
		if failed {
			ret = -1
		}
	}()
	defer guard(int64(hid), &failed)
	if nActions < 0 || nIDs < 0 || (actions == nil && nActions > 0) {
		err := valueErr("rlpool: send: bad array lengths (%d actions, %d ids)", int64(nActions), int64(nIDs))
		fail(int64(hid), err)
		return -1
	}
	acts := []float32{}
	if nActions > 0 {
		acts = unsafe.Slice((*float32)(unsafe.Pointer(actions)), int(nActions))
	}
	ids := int32s(envIDs, nIDs)
	return status(withHandle(int64(hid), func(h *handle) error { return h.send(acts, ids) }))
}

// rlp_recv waits up to timeout_ms milliseconds (negative: without limit) for the next
// batch and copies it into the caller's buffers, each batch_size rows: out_obs (the
// observation dtype), out_reward, out_terminated and out_truncated (0 or 1),
// out_env_id, out_elapsed, out_info (batch_size x info_width float32, each row's keys
// in info_keys' order, info_lens columns each; may be NULL when there are none) and out_final_obs (may be NULL; in same_step mode the
// terminal observations of rows that ended an episode). It returns the number of rows,
// 0 when the wait timed out (the next call returns that batch), or -1 on error.
//
//export rlp_recv
func rlp_recv(hid C.int64_t, timeoutMS C.int, outObs unsafe.Pointer, outReward *C.float,
	outTerminated, outTruncated *C.uint8_t, outEnvID, outElapsed *C.int32_t, outInfo *C.float,
	outFinalObs unsafe.Pointer) (ret C.int) {
	failed := false
	defer func() {
		if failed {
			ret = -1
		}
	}()
	defer guard(int64(hid), &failed)
	timeout := time.Duration(timeoutMS) * time.Millisecond
	if timeoutMS < 0 {
		timeout = -1
	}
	rows := 0
	err := withHandle(int64(hid), func(h *handle) error {
		if outObs == nil || outReward == nil || outTerminated == nil || outTruncated == nil ||
			outEnvID == nil || outElapsed == nil || (outInfo == nil && h.spec.InfoWidth() > 0) {
			return valueErr("rlpool: recv: an output buffer is NULL")
		}
		var err error
		rows, err = h.recv(timeout, func(n int) outBufs {
			o := outBufs{
				obs: outObs, finalObs: outFinalObs,
				reward:     unsafe.Slice((*float32)(unsafe.Pointer(outReward)), n),
				terminated: unsafe.Slice((*uint8)(unsafe.Pointer(outTerminated)), n),
				trunc:      unsafe.Slice((*uint8)(unsafe.Pointer(outTruncated)), n),
				envID:      unsafe.Slice((*int32)(unsafe.Pointer(outEnvID)), n),
				elapsed:    unsafe.Slice((*int32)(unsafe.Pointer(outElapsed)), n),
			}
			if k := h.spec.InfoWidth(); k > 0 {
				o.info = unsafe.Slice((*float32)(unsafe.Pointer(outInfo)), n*k)
			}
			return o
		})
		return err
	})
	if err != nil {
		return -1
	}
	return C.int(rows)
}

// rlp_close stops the pool's workers and frees its envs; later calls on the handle
// fail. Closing twice is fine. Returns 0 or -1.
//
//export rlp_close
func rlp_close(hid C.int64_t) (ret C.int) {
	failed := false
	defer func() {
		if failed {
			ret = -1
		}
	}()
	defer guard(int64(hid), &failed)
	return status(withHandle(int64(hid), (*handle).close))
}

// rlp_last_error returns the last error of any call (free with rlp_free), or NULL
// when there was none.
//
//export rlp_last_error
func rlp_last_error() *C.char {
	regMu.Lock()
	defer regMu.Unlock()
	if globalErr == "" {
		return nil
	}
	return C.CString(globalErr)
}

// rlp_handle_error returns the last error of a call on that handle (free with
// rlp_free), or the global one when the handle is unknown, or NULL.
//
//export rlp_handle_error
func rlp_handle_error(hid C.int64_t) *C.char {
	regMu.Lock()
	defer regMu.Unlock()
	msg := globalErr
	if h := handles[int64(hid)]; h != nil {
		msg = h.errMsg
	}
	if msg == "" {
		return nil
	}
	return C.CString(msg)
}

// rlp_error_kind returns the kind of the last error on a handle (0: the global last
// error): 0 none, 1 a bad argument (Python's ValueError), 2 any other failure.
//
//export rlp_error_kind
func rlp_error_kind(hid C.int64_t) C.int {
	regMu.Lock()
	defer regMu.Unlock()
	if h := handles[int64(hid)]; h != nil {
		return C.int(h.errKind)
	}
	return C.int(globalKnd)
}

// rlp_free releases a string returned by this library.
//
//export rlp_free
func rlp_free(p unsafe.Pointer) { C.free(p) }
