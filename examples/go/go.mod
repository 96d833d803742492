module github.com/hermes-runtime/hermes/examples/go

go 1.19

require github.com/hermes-runtime/hermes/bindings/go v0.0.0

replace github.com/hermes-runtime/hermes/bindings/go => ../../bindings/go
