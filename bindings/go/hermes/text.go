package hermes

// #include <stdlib.h>
import "C"

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// cString copies s into C memory (the caller frees it). The C ABI takes NUL-terminated
// UTF-8: a NUL byte inside s (where C would silently cut the text) or invalid UTF-8 is an
// InvalidArgument error naming field.
func cString(field, s string) (*C.char, error) {
	if err := checkText(field, s); err != nil {
		return nil, err
	}
	return C.CString(s), nil
}

// checkText is cString's check alone, for text that reaches C inside a JSON document.
func checkText(field, s string) error {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return &Error{Code: StatusInvalidArgument, Message: field + ": contains a NUL byte at offset " + strconv.Itoa(i)}
	}
	if !utf8.ValidString(s) {
		return &Error{Code: StatusInvalidArgument, Message: field + ": not valid UTF-8"}
	}
	return nil
}

// cStrings converts several optional arguments; "" stays NULL. free releases them all.
type cStrings []*C.char

func (cs *cStrings) add(field, s string, nullIfEmpty bool) (*C.char, error) {
	if s == "" && nullIfEmpty {
		return nil, nil
	}
	p, err := cString(field, s)
	if err != nil {
		return nil, err
	}
	*cs = append(*cs, p)
	return p, nil
}

func (cs cStrings) free() {
	for _, p := range cs {
		C.free(unsafe.Pointer(p))
	}
}

// sanitize makes any text safe for the C ABI, for messages that must get through.
func sanitize(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", `\0`)
}
