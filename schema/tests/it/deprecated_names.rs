//! The names hidden in this release still compile, so users move at their pace.
#![allow(deprecated)]

#[test]
fn child_still_escapes_json_pointer_segments() {
    assert_eq!(avdl2rs_schema::child("/fields", "a/b~c"), "/fields/a~1b~0c");
}
