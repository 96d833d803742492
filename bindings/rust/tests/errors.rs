//! Bad input gives an Error naming the problem, never a panic or a crash. None of these
//! needs a model server.

use std::ptr;
use std::sync::Arc;
use std::time::Duration;

use hermes::{ffi, Agent, AgentOptions, Backoff, ErrorCode, Timeout, Tool, ToolRegistry};

#[test]
fn the_loaded_library_matches_the_crate() {
    assert_eq!(hermes::version(), env!("CARGO_PKG_VERSION"));
    assert_eq!(hermes::abi_version(), hermes::ABI_VERSION);
    assert!(hermes::abi_compatible());
}

#[test]
fn options_without_a_model_are_refused_naming_the_field() {
    let mut options = AgentOptions::new().unwrap();
    options.set_persist_sessions(false).unwrap();
    let error = Agent::new(&options).expect_err("no model must be refused");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert!(
        error.message().starts_with("provider.model"),
        "message: {}",
        error.message()
    );
}

#[test]
fn a_malformed_base_url_is_refused_when_the_agent_is_created() {
    let mut options = AgentOptions::new().unwrap();
    options
        .set_model("m")
        .unwrap()
        .set_base_url("not a url")
        .unwrap()
        .set_persist_sessions(false)
        .unwrap();
    let error = Agent::new(&options).expect_err("a bad URL must be refused");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert!(
        error.message().contains("base_url"),
        "message: {}",
        error.message()
    );
    assert!(
        error.to_string().starts_with("invalid_argument: "),
        "display: {}",
        error
    );
}

#[test]
fn a_nul_byte_inside_a_string_is_an_error_not_a_panic() {
    let mut options = AgentOptions::new().unwrap();
    let error = options
        .set_model("gpt\0-4")
        .expect_err("an interior NUL must be refused");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(error.message(), "model: contains a NUL byte at offset 3");

    let mut tools = ToolRegistry::new().unwrap();
    let error = tools
        .add(Tool::new("a\0b"), |_| Ok(String::new()))
        .expect_err("refused");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert!(
        error.message().starts_with("name:"),
        "message: {}",
        error.message()
    );
}

#[test]
fn out_of_range_numbers_are_refused_by_the_setters() {
    let mut options = AgentOptions::new().unwrap();
    let error = options
        .set_max_iterations(0)
        .expect_err("0 iterations must be refused");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(error.message(), "max_iterations: value rejected");
    assert!(options.set_max_retries(0).is_err());
    assert!(options.set_max_tokens(-1).is_err());
    assert!(options.set_temperature(f64::NAN).is_err());
    assert!(options.set_temperature(-0.5).is_err());
    assert!(options.add_api_key("").is_err());
    assert!(options.enable_toolset("").is_err());
    options
        .set_max_iterations(3)
        .unwrap()
        .set_timeout(Timeout::Total, Duration::from_secs(30))
        .unwrap()
        .set_retry_backoff(Backoff::Base, Duration::ZERO)
        .unwrap()
        .set_retry_backoff(Backoff::InvalidResponseMax, Duration::from_secs(1))
        .unwrap();
}

#[test]
fn a_schema_that_is_not_json_is_refused_and_the_handler_released() {
    let owned = Arc::new(());
    let captured = Arc::clone(&owned);
    let mut tools = ToolRegistry::new().unwrap();
    let error = tools
        .add(Tool::new("t").parameters("{not json"), move |_| {
            let _ = &captured;
            Ok(String::new())
        })
        .expect_err("a schema that does not parse must be refused");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert!(
        error.message().contains("parameters_json"),
        "message: {}",
        error.message()
    );
    assert_eq!(
        Arc::strong_count(&owned),
        1,
        "the refused handler must be dropped"
    );

    let error = tools
        .add(Tool::new("bad name!"), |_| Ok(String::new()))
        .expect_err("refused");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
}

#[test]
fn registered_handlers_are_dropped_with_the_last_user_of_the_registry() {
    let owned = Arc::new(());
    let captured = Arc::clone(&owned);
    let mut tools = ToolRegistry::new().unwrap();
    tools
        .add(
            Tool::new("t").description("d").parallel_safe(true),
            move |_| {
                let _ = &captured;
                Ok("{}".to_owned())
            },
        )
        .unwrap();
    let mut options = AgentOptions::new().unwrap();
    options.set_tools(&tools).unwrap();
    drop(tools);
    assert_eq!(
        Arc::strong_count(&owned),
        2,
        "the options still share the registry"
    );
    drop(options);
    assert_eq!(Arc::strong_count(&owned), 1);
}

#[test]
fn callbacks_set_on_options_are_dropped_with_them() {
    let owned = Arc::new(());
    let mut options = AgentOptions::new().unwrap();
    for _ in 0..2 {
        let stream = Arc::clone(&owned);
        let status = Arc::clone(&owned);
        options
            .set_stream_callback(move |_| {
                let _ = &stream;
            })
            .unwrap()
            .set_status_callback(move |_| {
                let _ = &status;
            })
            .unwrap();
    }
    // Setting a callback again releases the one it replaces.
    assert_eq!(Arc::strong_count(&owned), 3);
    drop(options);
    assert_eq!(Arc::strong_count(&owned), 1);
}

#[test]
fn error_codes_keep_the_frozen_values_and_names() {
    assert_eq!(ErrorCode::from_raw(-1), ErrorCode::InvalidArgument);
    assert_eq!(ErrorCode::from_raw(-14), ErrorCode::Internal);
    assert_eq!(ErrorCode::Api.raw(), -8);
    assert_eq!(ErrorCode::InvalidArgument.name(), "invalid_argument");
    assert_eq!(ErrorCode::from_raw(12345), ErrorCode::Unknown(12345));
    assert_eq!(ErrorCode::Unknown(12345).name(), "unknown");
    for raw in -14..=-1 {
        assert_eq!(ErrorCode::from_raw(raw).raw(), raw);
    }
}

#[test]
fn the_c_abi_accepts_null_handles_and_double_frees_through_freep() {
    // SAFETY: every call below is documented as accepting NULL.
    unsafe {
        ffi::hermes_agent_free(ptr::null_mut());
        ffi::hermes_agent_options_free(ptr::null_mut());
        ffi::hermes_tool_registry_free(ptr::null_mut());
        ffi::hermes_error_free(ptr::null_mut());
        ffi::hermes_free(ptr::null_mut());
        assert_eq!(
            ffi::hermes_error_code(ptr::null()),
            ffi::HERMES_ERR_INVALID_ARGUMENT
        );
        assert_eq!(*ffi::hermes_error_message(ptr::null()), 0);

        let mut options = ffi::hermes_agent_options_new();
        assert!(!options.is_null());
        ffi::hermes_agent_options_freep(&mut options);
        assert!(options.is_null());
        ffi::hermes_agent_options_freep(&mut options);

        let mut registry = ffi::hermes_tool_registry_new();
        ffi::hermes_tool_registry_freep(&mut registry);
        ffi::hermes_tool_registry_freep(&mut registry);
        assert!(registry.is_null());

        let mut agent: *mut ffi::hermes_agent_t = ptr::null_mut();
        ffi::hermes_agent_freep(&mut agent);

        let mut text: *mut std::os::raw::c_char = ptr::null_mut();
        let mut error: *mut ffi::hermes_error_t = ptr::null_mut();
        let message = b"hi\0";
        let status = ffi::hermes_agent_chat(
            ptr::null_mut(),
            message.as_ptr().cast(),
            &mut text,
            &mut error,
        );
        assert_eq!(status, ffi::HERMES_ERR_INVALID_ARGUMENT);
        assert!(text.is_null());
        assert_eq!(
            ffi::hermes_error_code(error),
            ffi::HERMES_ERR_INVALID_ARGUMENT
        );
        ffi::hermes_error_free(error);
    }
}
