// SPDX-License-Identifier: MIT (LICENSE at the root of the repository)
module github.com/hermes-runtime/hermes/bindings/go

go 1.19
