//! The generated IDL protocol the linter's and the language server's benchmarks read
//! (`benches/idl_lint.rs`, `benches/lsp.rs`): records that break several lint rules each, so
//! that placing thousands of findings is part of what is measured.

use std::fmt::Write as _;

/// A protocol of `records` records, each referring to the one before, with an enum for every
/// 100 records and a message for every 20.
pub fn protocol(records: usize) -> String {
    let mut text = String::from("@namespace(\"bench.lint\")\nprotocol Ledger {\n");
    for e in 0..records.div_ceil(100) {
        let _ = writeln!(
            text,
            "  /** States {e}. */\n  enum State{e} {{ OPEN, CLOSED, Void }} = OPEN;"
        );
    }
    for i in 0..records {
        let previous = match i {
            0 => "string".to_owned(),
            _ => format!("Entry{}", i - 1),
        };
        let _ = write!(
            text,
            "  /** Entry {i}. */\n  record Entry{i} {{\n    /** Key. */ long entryId = {i};\n    \
             string memo;\n    /** Value. */ union {{ null, int, string, double }} value = null;\n    \
             /** Price. */ double unitPrice = 0.0;\n    /** State. */ State{s} state = \"OPEN\";\n    \
             /** Before. */ {previous}? previous_entry = null;\n    \
             /** When. */ timestamp_ms bookedAt = 0;\n  }}\n",
            s = i / 100,
        );
        if i % 20 == 0 {
            let _ = writeln!(text, "  Entry{i} entry{i}(long entryId);");
        }
    }
    text.push_str("}\n");
    text
}
