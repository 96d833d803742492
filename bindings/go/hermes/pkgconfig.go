//go:build !hermes_no_pkgconfig

package hermes

// #cgo pkg-config: hermes_agent_c
import "C"
