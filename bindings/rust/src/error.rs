//! Errors: the C ABI's status code and message as a Rust value.

use std::ffi::CStr;
use std::fmt;
use std::ptr;

use crate::ffi;

/// What went wrong, as one of the C ABI's frozen status codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    InvalidArgument,
    NotFound,
    AlreadyExists,
    FailedPrecondition,
    Unavailable,
    DeadlineExceeded,
    Cancelled,
    Api,
    Io,
    DataLoss,
    Unimplemented,
    ResourceExhausted,
    PermissionDenied,
    Internal,
    /// A code this version of the crate does not know (from a newer library).
    Unknown(i32),
}

impl ErrorCode {
    /// The code for a C status value. `HERMES_OK` is not an error and maps to `Unknown(0)`.
    pub fn from_raw(status: ffi::hermes_status_t) -> ErrorCode {
        match status {
            ffi::HERMES_ERR_INVALID_ARGUMENT => ErrorCode::InvalidArgument,
            ffi::HERMES_ERR_NOT_FOUND => ErrorCode::NotFound,
            ffi::HERMES_ERR_ALREADY_EXISTS => ErrorCode::AlreadyExists,
            ffi::HERMES_ERR_FAILED_PRECONDITION => ErrorCode::FailedPrecondition,
            ffi::HERMES_ERR_UNAVAILABLE => ErrorCode::Unavailable,
            ffi::HERMES_ERR_DEADLINE_EXCEEDED => ErrorCode::DeadlineExceeded,
            ffi::HERMES_ERR_CANCELLED => ErrorCode::Cancelled,
            ffi::HERMES_ERR_API => ErrorCode::Api,
            ffi::HERMES_ERR_IO => ErrorCode::Io,
            ffi::HERMES_ERR_DATA_LOSS => ErrorCode::DataLoss,
            ffi::HERMES_ERR_UNIMPLEMENTED => ErrorCode::Unimplemented,
            ffi::HERMES_ERR_RESOURCE_EXHAUSTED => ErrorCode::ResourceExhausted,
            ffi::HERMES_ERR_PERMISSION_DENIED => ErrorCode::PermissionDenied,
            ffi::HERMES_ERR_INTERNAL => ErrorCode::Internal,
            other => ErrorCode::Unknown(other),
        }
    }

    /// The C status value.
    pub fn raw(self) -> ffi::hermes_status_t {
        match self {
            ErrorCode::InvalidArgument => ffi::HERMES_ERR_INVALID_ARGUMENT,
            ErrorCode::NotFound => ffi::HERMES_ERR_NOT_FOUND,
            ErrorCode::AlreadyExists => ffi::HERMES_ERR_ALREADY_EXISTS,
            ErrorCode::FailedPrecondition => ffi::HERMES_ERR_FAILED_PRECONDITION,
            ErrorCode::Unavailable => ffi::HERMES_ERR_UNAVAILABLE,
            ErrorCode::DeadlineExceeded => ffi::HERMES_ERR_DEADLINE_EXCEEDED,
            ErrorCode::Cancelled => ffi::HERMES_ERR_CANCELLED,
            ErrorCode::Api => ffi::HERMES_ERR_API,
            ErrorCode::Io => ffi::HERMES_ERR_IO,
            ErrorCode::DataLoss => ffi::HERMES_ERR_DATA_LOSS,
            ErrorCode::Unimplemented => ffi::HERMES_ERR_UNIMPLEMENTED,
            ErrorCode::ResourceExhausted => ffi::HERMES_ERR_RESOURCE_EXHAUSTED,
            ErrorCode::PermissionDenied => ffi::HERMES_ERR_PERMISSION_DENIED,
            ErrorCode::Internal => ffi::HERMES_ERR_INTERNAL,
            ErrorCode::Unknown(code) => code,
        }
    }

    /// The stable name the library gives the code, e.g. `"invalid_argument"`.
    pub fn name(self) -> &'static str {
        // SAFETY: hermes_status_name returns static storage for every input.
        let name = unsafe { CStr::from_ptr(ffi::hermes_status_name(self.raw())) };
        name.to_str().unwrap_or("unknown")
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A failed call: the status code and the library's message, which names the problem
/// (for bad options, the field).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    code: ErrorCode,
    message: String,
}

/// The result of every fallible call of this crate.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An error made on the Rust side, e.g. for a string the C ABI cannot carry.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error {
            code,
            message: message.into(),
        }
    }

    pub fn code(&self) -> ErrorCode {
        self.code
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// Takes over the C error object (which may be NULL) of a call that returned `status`.
    ///
    /// # Safety
    /// `error` is NULL or an error object the caller owns; it is freed here.
    unsafe fn from_c(status: ffi::hermes_status_t, error: *mut ffi::hermes_error_t) -> Error {
        let code = ErrorCode::from_raw(status);
        let message = if error.is_null() {
            code.name().to_owned()
        } else {
            let message = CStr::from_ptr(ffi::hermes_error_message(error))
                .to_string_lossy()
                .into_owned();
            ffi::hermes_error_free(error);
            message
        };
        Error { code, message }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Error {}

/// Runs a C call that reports failures through an `out_error` parameter.
pub(crate) fn call(
    f: impl FnOnce(*mut *mut ffi::hermes_error_t) -> ffi::hermes_status_t,
) -> Result<()> {
    let mut error: *mut ffi::hermes_error_t = ptr::null_mut();
    let status = f(&mut error);
    if status == ffi::HERMES_OK {
        // SAFETY: a successful call leaves no error object, but one is freed if it does.
        unsafe { ffi::hermes_error_free(error) };
        return Ok(());
    }
    // SAFETY: the call handed us `error` (or left it NULL).
    Err(unsafe { Error::from_c(status, error) })
}

/// Checks the status of a C call without an `out_error` parameter (the option setters);
/// `what` names the setting in the message.
pub(crate) fn check(status: ffi::hermes_status_t, what: &str) -> Result<()> {
    if status == ffi::HERMES_OK {
        return Ok(());
    }
    Err(Error::new(
        ErrorCode::from_raw(status),
        format!("{}: value rejected", what),
    ))
}
