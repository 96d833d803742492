package hermes

// #include <stdint.h>
// #include <stdlib.h>
// #include "hermes_c.h"
import "C"

import (
	"fmt"
	"runtime/cgo"
	"sync/atomic"
	"unsafe"
)

// Go values handed to the library as user_data and not yet released; the tests check
// that every one comes back.
var liveUserData int64

// newUserData makes v the user_data of a C callback: a cgo.Handle, in C memory so the
// pointer rules hold. The library gives it back through hermes_go_release.
func newUserData(v any) unsafe.Pointer {
	p := C.malloc(C.size_t(unsafe.Sizeof(C.uintptr_t(0))))
	*(*C.uintptr_t)(p) = C.uintptr_t(cgo.NewHandle(v))
	atomic.AddInt64(&liveUserData, 1)
	return p
}

func userDataValue(p unsafe.Pointer) any {
	return cgo.Handle(*(*C.uintptr_t)(p)).Value()
}

// releaseUserData frees what newUserData made; also used when the library refused it.
func releaseUserData(p unsafe.Pointer) {
	if p == nil {
		return
	}
	cgo.Handle(*(*C.uintptr_t)(p)).Delete()
	C.free(p)
	atomic.AddInt64(&liveUserData, -1)
}

//export hermesGoRelease
func hermesGoRelease(userData unsafe.Pointer) {
	releaseUserData(userData)
}

//export hermesGoRunTool
func hermesGoRunTool(call *C.hermes_tool_call_t, userData unsafe.Pointer) (status C.hermes_status_t) {
	view := &ToolCall{call: call}
	defer func() {
		view.call = nil // The C call ends with the handler.
		if r := recover(); r != nil {
			status = failToolCall(call, StatusInternal, fmt.Sprintf("tool panicked: %v", r))
		}
	}()
	handler := userDataValue(userData).(ToolHandler)
	result, err := handler(view)
	if err != nil {
		code := StatusFailedPrecondition
		if e, ok := err.(*Error); ok {
			code = e.Code
		}
		return failToolCall(call, code, err.Error())
	}
	text, err := cString("tool result", result)
	if err != nil {
		return failToolCall(call, StatusInternal, err.Error())
	}
	defer C.free(unsafe.Pointer(text))
	return C.hermes_tool_call_set_result(call, text)
}

func failToolCall(call *C.hermes_tool_call_t, code Status, message string) C.hermes_status_t {
	text := C.CString(sanitize(message))
	defer C.free(unsafe.Pointer(text))
	C.hermes_tool_call_set_error(call, text)
	return C.hermes_status_t(code)
}

//export hermesGoStream
func hermesGoStream(delta *C.char, length C.size_t, userData unsafe.Pointer) {
	// A panic cannot be reported from here; it is stopped before it reaches C.
	defer func() { _ = recover() }()
	userDataValue(userData).(func(string))(C.GoStringN(delta, C.int(length)))
}

//export hermesGoEvent
func hermesGoEvent(eventJSON *C.char, userData unsafe.Pointer) {
	defer func() { _ = recover() }()
	userDataValue(userData).(func(string))(C.GoString(eventJSON))
}

//export hermesGoAuthRefresh
func hermesGoAuthRefresh(requestJSON *C.char, answer *C.hermes_answer_t, userData unsafe.Pointer) {
	// A panic counts as no answer: the agent rotates keys or falls back.
	defer func() { _ = recover() }()
	key, ok := userDataValue(userData).(AuthRefreshFunc)(C.GoString(requestJSON))
	if !ok {
		return
	}
	text, err := cString("api_key", key)
	if err != nil {
		return // A key C cannot carry is no answer either.
	}
	defer C.free(unsafe.Pointer(text))
	C.hermes_answer_set(answer, text)
}
