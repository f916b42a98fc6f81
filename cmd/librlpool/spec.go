//go:build cgo

package main

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

// rlp_task_spec returns, as JSON (free with rlp_free), the spec that rlp_spec would
// give a pool of task_id made with options_json, without building the pool or its envs:
// EnvPool's make_spec. It checks the options as rlp_make does and returns NULL with the
// error in rlp_last_error when they are bad.
//
//export rlp_task_spec
func rlp_task_spec(taskID, optionsJSON *C.char) (ret *C.char) {
	failed := false
	defer func() {
		if failed {
			ret = nil
		}
	}()
	defer guard(0, &failed)
	if taskID == nil {
		fail(0, valueErr("rlpool: make_spec: task id is NULL"))
		return nil
	}
	opts := ""
	if optionsJSON != nil {
		opts = C.GoString(optionsJSON)
	}
	task, spec, _, resolved, err := configure(C.GoString(taskID), opts)
	if err == nil {
		var s string
		if s, err = describe(task.Family, &spec, resolved); err == nil {
			return C.CString(s)
		}
	}
	fail(0, err)
	return nil
}
