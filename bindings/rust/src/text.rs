//! Strings across the C boundary: NUL-terminated UTF-8 one way, borrowed or
//! library-allocated C strings the other.

use std::borrow::Cow;
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_void};

use crate::error::{Error, ErrorCode, Result};
use crate::ffi;

/// `value` as a C string; a NUL byte inside it (which C would silently cut the text at)
/// is an InvalidArgument error naming `field`.
pub(crate) fn to_c(field: &str, value: &str) -> Result<CString> {
    CString::new(value).map_err(|e| {
        Error::new(
            ErrorCode::InvalidArgument,
            format!(
                "{}: contains a NUL byte at offset {}",
                field,
                e.nul_position()
            ),
        )
    })
}

/// The same for an optional argument: `None` becomes NULL.
pub(crate) fn to_c_opt(field: &str, value: Option<&str>) -> Result<Option<CString>> {
    value.map(|v| to_c(field, v)).transpose()
}

pub(crate) fn opt_ptr(value: &Option<CString>) -> *const c_char {
    value.as_ref().map_or(std::ptr::null(), |v| v.as_ptr())
}

/// `value` as a C string where failing is not an option (error messages, interrupt
/// reasons): NUL bytes are written as `\0`.
pub(crate) fn to_c_lossy(value: &str) -> CString {
    CString::new(value.replace('\0', "\\0")).unwrap_or_default()
}

/// Borrows a C string owned by the library; invalid UTF-8 is replaced, NULL reads as "".
///
/// # Safety
/// `ptr` is NULL or a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn borrowed<'a>(ptr: *const c_char) -> Cow<'a, str> {
    if ptr.is_null() {
        return Cow::Borrowed("");
    }
    CStr::from_ptr(ptr).to_string_lossy()
}

/// Copies a string the library returned through a `char **out` parameter and frees it.
///
/// # Safety
/// `ptr` is NULL or a string allocated by the library and owned by the caller.
pub(crate) unsafe fn take(ptr: *mut c_char) -> String {
    let text = borrowed(ptr).into_owned();
    ffi::hermes_free(ptr as *mut c_void);
    text
}
