//! Rust closures as C callbacks: a closure travels as `user_data` (a thin pointer to a
//! boxed trait object) with a destructor the library calls when it lets go of it, and
//! every trampoline catches panics, which must never unwind into C.

use std::any::Any;
use std::os::raw::c_void;
use std::panic::{self, AssertUnwindSafe};

/// Moves `value` to the heap and returns it as `user_data`. Ownership passes to whoever
/// later calls [`destroy::<T>`] with the pointer, once.
pub(crate) fn into_user_data<T>(value: T) -> *mut c_void {
    Box::into_raw(Box::new(value)) as *mut c_void
}

/// The destructor handed to the library with [`into_user_data`]; also how the caller
/// takes ownership back when the library refused the callback.
///
/// # Safety
/// `user_data` came from `into_user_data::<T>` and is not used again.
pub(crate) unsafe extern "C" fn destroy<T>(user_data: *mut c_void) {
    if user_data.is_null() {
        return;
    }
    // A closure's captures may panic when dropped; that must not reach C either.
    let _ = panic::catch_unwind(AssertUnwindSafe(|| {
        drop(Box::from_raw(user_data as *mut T))
    }));
}

/// Runs `f`, turning a panic into `Err` with the panic's message.
pub(crate) fn catch<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| panic_message(payload.as_ref()))
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_owned()
    }
}
