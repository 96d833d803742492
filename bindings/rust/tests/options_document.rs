//! The options document from Rust: every option of tests/fixtures/options/every_option.json
//! applied with `apply_json` and read back unchanged, and a bad document refused naming
//! the option, with nothing changed.

use std::path::PathBuf;

use hermes::{AgentOptions, ErrorCode};

fn fixture() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/options/every_option.json");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e))
}

/// The document without the whitespace outside strings: as the library writes one whose
/// keys are sorted.
fn compact(text: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

#[test]
fn every_option_of_the_fixture_reads_back() -> hermes::Result<()> {
    let document = fixture();
    let mut options = AgentOptions::new()?;
    options.apply_json(&document)?;
    assert_eq!(options.to_json()?, compact(&document));
    Ok(())
}

#[test]
fn a_bad_document_names_the_option_and_changes_nothing() -> hermes::Result<()> {
    let mut options = AgentOptions::new()?;
    options.set_model("kept")?;
    let before = options.to_json()?;
    let error = options
        .apply_json(r#"{"provider": {"model": "lost"}, "compression": {"threshold_percent": 2}}"#)
        .err()
        .expect("refused");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(error.message(), "compression.threshold_percent: must be at most 1");
    assert_eq!(options.to_json()?, before);
    assert_eq!(options.apply_json("{\"a\0\": 1}").err().map(|e| e.code()), Some(ErrorCode::InvalidArgument));
    Ok(())
}

#[test]
fn setters_and_the_document_reach_the_same_fields() -> hermes::Result<()> {
    let mut options = AgentOptions::new()?;
    options.set_max_iterations(9)?;
    assert!(options.to_json()?.contains("\"max_iterations\":9,"));
    options.apply_json(r#"{"max_iterations": 7}"#)?;
    assert!(options.to_json()?.contains("\"max_iterations\":7,"));
    assert!(hermes::describe_options()?.contains("\"name\":\"compression.threshold_percent\""));
    Ok(())
}

#[test]
fn durability_is_full_normal_or_refused() -> hermes::Result<()> {
    let mut options = AgentOptions::new()?;
    assert!(options.to_json()?.contains("\"durability\":\"full\""));
    options.set_durability("normal")?;
    assert!(options.to_json()?.contains("\"durability\":\"normal\""));
    assert_eq!(options.set_durability("eventually").err().map(|e| e.code()), Some(ErrorCode::InvalidArgument));
    Ok(())
}
