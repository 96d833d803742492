package hermes

// #include "hermes_c.h"
import "C"

import "fmt"

// Status is one of the C ABI's frozen status codes.
type Status int32

const (
	StatusOK                 Status = C.HERMES_OK
	StatusInvalidArgument    Status = C.HERMES_ERR_INVALID_ARGUMENT
	StatusNotFound           Status = C.HERMES_ERR_NOT_FOUND
	StatusAlreadyExists      Status = C.HERMES_ERR_ALREADY_EXISTS
	StatusFailedPrecondition Status = C.HERMES_ERR_FAILED_PRECONDITION
	StatusUnavailable        Status = C.HERMES_ERR_UNAVAILABLE
	StatusDeadlineExceeded   Status = C.HERMES_ERR_DEADLINE_EXCEEDED
	StatusCancelled          Status = C.HERMES_ERR_CANCELLED
	StatusAPI                Status = C.HERMES_ERR_API
	StatusIO                 Status = C.HERMES_ERR_IO
	StatusDataLoss           Status = C.HERMES_ERR_DATA_LOSS
	StatusUnimplemented      Status = C.HERMES_ERR_UNIMPLEMENTED
	StatusResourceExhausted  Status = C.HERMES_ERR_RESOURCE_EXHAUSTED
	StatusPermissionDenied   Status = C.HERMES_ERR_PERMISSION_DENIED
	StatusInternal           Status = C.HERMES_ERR_INTERNAL
)

// String is the library's stable name of the code, e.g. "invalid_argument".
func (s Status) String() string {
	return C.GoString(C.hermes_status_name(C.hermes_status_t(s)))
}

// Error is a failed call: the status code and the library's message, which names the
// problem (for bad options, the field).
type Error struct {
	Code    Status
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("hermes: %s: %s", e.Code, e.Message)
}

// Is makes errors.Is(err, ErrInvalidArgument) (and the other sentinels) match any error
// with that code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Code == e.Code
}

// Sentinels for errors.Is, one per status code.
var (
	ErrInvalidArgument    = &Error{Code: StatusInvalidArgument}
	ErrNotFound           = &Error{Code: StatusNotFound}
	ErrAlreadyExists      = &Error{Code: StatusAlreadyExists}
	ErrFailedPrecondition = &Error{Code: StatusFailedPrecondition}
	ErrUnavailable        = &Error{Code: StatusUnavailable}
	ErrDeadlineExceeded   = &Error{Code: StatusDeadlineExceeded}
	ErrCancelled          = &Error{Code: StatusCancelled}
	ErrAPI                = &Error{Code: StatusAPI}
	ErrIO                 = &Error{Code: StatusIO}
	ErrDataLoss           = &Error{Code: StatusDataLoss}
	ErrUnimplemented      = &Error{Code: StatusUnimplemented}
	ErrResourceExhausted  = &Error{Code: StatusResourceExhausted}
	ErrPermissionDenied   = &Error{Code: StatusPermissionDenied}
	ErrInternal           = &Error{Code: StatusInternal}
)

// errorFrom takes over the C error object (possibly NULL) of a call that returned status.
func errorFrom(status C.hermes_status_t, cerr *C.hermes_error_t) error {
	defer C.hermes_error_free(cerr)
	if status == C.HERMES_OK {
		return nil
	}
	e := &Error{Code: Status(status), Message: Status(status).String()}
	if cerr != nil {
		e.Message = C.GoString(C.hermes_error_message(cerr))
	}
	return e
}

// checkSetter turns the status of an option setter (which has no error object) into an
// error naming the option.
func checkSetter(status C.hermes_status_t, what string) error {
	if status == C.HERMES_OK {
		return nil
	}
	return &Error{Code: Status(status), Message: what + ": value rejected"}
}
