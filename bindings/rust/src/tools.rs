//! Tools: Rust closures the model can call.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::os::raw::c_void;

use crate::callback;
use crate::error::{self, Error, ErrorCode, Result};
use crate::ffi;
use crate::text;

/// What a tool handler returns: the result text (normally JSON) for the model, or an
/// error message, which the model receives as `{"error": <message>}`.
pub type ToolResult = std::result::Result<String, String>;

type Handler = Box<dyn Fn(&ToolCall<'_>) -> ToolResult + Send + Sync>;

/// The description of a tool: its name, what it does and the JSON Schema of its
/// arguments. Built with chained calls: `Tool::new("add").description("Adds.")`.
#[derive(Debug, Clone)]
pub struct Tool {
    name: String,
    toolset: Option<String>,
    description: String,
    parameters: Option<String>,
    flags: u32,
}

impl Tool {
    /// A tool called `name` (letters, digits, `_` and `-`), in the "custom" toolset, with
    /// no arguments.
    pub fn new(name: impl Into<String>) -> Tool {
        Tool {
            name: name.into(),
            toolset: None,
            description: String::new(),
            parameters: None,
            flags: 0,
        }
    }

    /// The toolset the tool belongs to (see [`AgentOptions::enable_toolset`](crate::AgentOptions::enable_toolset)).
    pub fn toolset(mut self, toolset: impl Into<String>) -> Tool {
        self.toolset = Some(toolset.into());
        self
    }

    /// What the tool does, for the model.
    pub fn description(mut self, description: impl Into<String>) -> Tool {
        self.description = description.into();
        self
    }

    /// The JSON Schema (an object) of the arguments, as JSON text.
    pub fn parameters(mut self, schema_json: impl Into<String>) -> Tool {
        self.parameters = Some(schema_json.into());
        self
    }

    /// The tool may run at the same time as other calls of the same model response, so
    /// its handler may run on several threads at once.
    pub fn parallel_safe(mut self, yes: bool) -> Tool {
        self.set_flag(ffi::HERMES_TOOL_PARALLEL_SAFE, yes);
        self
    }

    /// The tool needs the user: it always runs alone.
    pub fn interactive(mut self, yes: bool) -> Tool {
        self.set_flag(ffi::HERMES_TOOL_INTERACTIVE, yes);
        self
    }

    fn set_flag(&mut self, flag: u32, on: bool) {
        if on {
            self.flags |= flag;
        } else {
            self.flags &= !flag;
        }
    }
}

/// One running call of a tool, valid while its handler runs.
#[derive(Debug)]
pub struct ToolCall<'a> {
    raw: *mut ffi::hermes_tool_call_t,
    _call: PhantomData<&'a ffi::hermes_tool_call_t>,
}

impl<'a> ToolCall<'a> {
    /// The tool's name.
    pub fn name(&self) -> Cow<'a, str> {
        // SAFETY: `raw` is valid for 'a; the accessor returns a string owned by the call.
        unsafe { text::borrowed(ffi::hermes_tool_call_name(self.raw)) }
    }

    /// The id the model gave this call.
    pub fn id(&self) -> Cow<'a, str> {
        // SAFETY: as in `name`.
        unsafe { text::borrowed(ffi::hermes_tool_call_id(self.raw)) }
    }

    /// The arguments as JSON text (an object).
    pub fn arguments(&self) -> Cow<'a, str> {
        // SAFETY: as in `name`.
        unsafe { text::borrowed(ffi::hermes_tool_call_arguments(self.raw)) }
    }

    /// The session the call belongs to.
    pub fn session_id(&self) -> Cow<'a, str> {
        // SAFETY: as in `name`.
        unsafe { text::borrowed(ffi::hermes_tool_call_session_id(self.raw)) }
    }

    /// True once the turn was interrupted: a long-running handler should stop and return.
    pub fn cancelled(&self) -> bool {
        // SAFETY: `raw` is valid for 'a.
        unsafe { ffi::hermes_tool_call_cancelled(self.raw) != 0 }
    }
}

/// A set of tools to give agents ([`AgentOptions::set_tools`](crate::AgentOptions::set_tools)).
///
/// Agents share the registry: it may be dropped once set on options, and tools added
/// later are seen by every agent using it. Handlers are dropped when the last user of
/// the registry goes.
pub struct ToolRegistry {
    raw: *mut ffi::hermes_tool_registry_t,
}

// SAFETY: the C registry may be used from any thread, one at a time while it is being
// populated (which `&mut self` ensures); handlers are Send + Sync.
unsafe impl Send for ToolRegistry {}
unsafe impl Sync for ToolRegistry {}

impl ToolRegistry {
    pub fn new() -> Result<ToolRegistry> {
        crate::ensure_abi_compatible()?;
        // SAFETY: no preconditions; NULL only when out of memory.
        let raw = unsafe { ffi::hermes_tool_registry_new() };
        if raw.is_null() {
            return Err(Error::new(
                ErrorCode::ResourceExhausted,
                "tool registry: out of memory",
            ));
        }
        Ok(ToolRegistry { raw })
    }

    /// Adds a tool; a tool of the same name in the same toolset is replaced. The handler
    /// runs on a library thread; a panic in it is caught and becomes an error result for
    /// the model. InvalidArgument names a bad name or a schema that is not a JSON
    /// object; AlreadyExists means another toolset holds the name.
    pub fn add<F>(&mut self, tool: Tool, handler: F) -> Result<()>
    where
        F: Fn(&ToolCall<'_>) -> ToolResult + Send + Sync + 'static,
    {
        let name = text::to_c("name", &tool.name)?;
        let toolset = text::to_c_opt("toolset", tool.toolset.as_deref())?;
        let description = text::to_c("description", &tool.description)?;
        let parameters = text::to_c_opt("parameters", tool.parameters.as_deref())?;
        let handler: Handler = Box::new(handler);
        let user_data = callback::into_user_data(handler);
        let added = error::call(|out_error| unsafe {
            // SAFETY: every pointer is valid for the call; on success the registry owns
            // user_data and frees it with destroy::<Handler>.
            ffi::hermes_tool_registry_add(
                self.raw,
                name.as_ptr(),
                text::opt_ptr(&toolset),
                description.as_ptr(),
                text::opt_ptr(&parameters),
                tool.flags,
                Some(run_tool),
                user_data,
                Some(callback::destroy::<Handler>),
                out_error,
            )
        });
        if added.is_err() {
            // SAFETY: refused, so ownership of user_data stayed here.
            unsafe { callback::destroy::<Handler>(user_data) };
        }
        added
    }

    pub(crate) fn as_ptr(&self) -> *mut ffi::hermes_tool_registry_t {
        self.raw
    }
}

impl fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolRegistry").finish_non_exhaustive()
    }
}

impl Drop for ToolRegistry {
    fn drop(&mut self) {
        // SAFETY: `raw` is ours; the freep form leaves it NULL.
        unsafe { ffi::hermes_tool_registry_freep(&mut self.raw) };
    }
}

/// The C handler of every Rust tool: runs the closure in `user_data` and reports what it
/// returned, or that it panicked.
unsafe extern "C" fn run_tool(
    call: *mut ffi::hermes_tool_call_t,
    user_data: *mut c_void,
) -> ffi::hermes_status_t {
    // SAFETY: user_data is the Handler registered with this function; the registry keeps
    // it alive while handlers run.
    let handler = &*(user_data as *const Handler);
    let view = ToolCall {
        raw: call,
        _call: PhantomData,
    };
    match callback::catch(|| handler(&view)) {
        Ok(Ok(result)) => match text::to_c("tool result", &result) {
            Ok(result) => ffi::hermes_tool_call_set_result(call, result.as_ptr()),
            Err(e) => fail(call, ffi::HERMES_ERR_INTERNAL, e.message()),
        },
        Ok(Err(message)) => fail(call, ffi::HERMES_ERR_FAILED_PRECONDITION, &message),
        Err(panic) => fail(
            call,
            ffi::HERMES_ERR_INTERNAL,
            &format!("tool panicked: {}", panic),
        ),
    }
}

unsafe fn fail(
    call: *mut ffi::hermes_tool_call_t,
    status: ffi::hermes_status_t,
    message: &str,
) -> ffi::hermes_status_t {
    ffi::hermes_tool_call_set_error(call, text::to_c_lossy(message).as_ptr());
    status
}
