//! Syntax error messages name the literal tokens expected, which only pest's detailed mode
//! records; that mode is a process-wide switch. The same bad input must get the same message
//! while other threads parse, with or without errors, at the same time.

use avdl_parser::{parse_str, ParseOptions};

const BAD: &str = "protocol P {\n  record R {\n    int x\n  }\n}";
const MESSAGE: &str = "expected `,`, `;` or `=`, found `}`";
const GOOD: &str = "protocol P {\n  record R {\n    int x;\n  }\n}";

#[test]
fn syntax_errors_read_the_same_while_other_threads_parse() {
    std::thread::scope(|scope| {
        for thread in 0..8 {
            scope.spawn(move || {
                for round in 0..300 {
                    let options = ParseOptions::default();
                    if (thread + round) % 3 == 0 {
                        parse_str(GOOD, "good.avdl", &options).expect("a valid protocol");
                    }
                    let error = parse_str(BAD, "bad.avdl", &options).expect_err("a syntax error");
                    assert_eq!(error.message(), MESSAGE, "thread {thread}, round {round}");
                }
            });
        }
    });
}
