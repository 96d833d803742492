//go:build !hermes_no_pkgconfig

package hermes

// #cgo pkg-config: hermes_c
import "C"
