module github.com/hermes-runtime/hermes/bindings/go

go 1.19
