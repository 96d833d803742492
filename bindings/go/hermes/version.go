package hermes

// #include "hermes_c.h"
import "C"

import "fmt"

// ABIVersion is the version of the C ABI this package was written against.
const ABIVersion = 1

// Version is the version of the library actually loaded, e.g. "0.2.0".
func Version() string { return C.GoString(C.hermes_version()) }

// LibraryABIVersion is the ABI version of the library actually loaded.
func LibraryABIVersion() uint32 { return uint32(C.hermes_abi_version()) }

// ABICompatible reports whether the loaded library can be used through this package.
// Every constructor checks it and fails with FailedPrecondition rather than calling a
// mismatched library.
func ABICompatible() bool { return C.hermes_abi_compatible(ABIVersion) != 0 }

func ensureABICompatible() error {
	if ABICompatible() {
		return nil
	}
	return &Error{Code: StatusFailedPrecondition, Message: fmt.Sprintf(
		"libhermes_agent_c %s (ABI %d) does not match this package (ABI %d)",
		Version(), LibraryABIVersion(), ABIVersion)}
}
