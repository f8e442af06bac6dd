//! `avdl2rs toidl [IN] [OUT] [--indent N]`: `.avsc` / `.avpr` JSON to Avro IDL, in protocol
//! syntax for a protocol and schema syntax for a schema.

use std::io::Read;

use avdl2rs::schema::SchemaSet;
use avdl_parser::idl_writer::{self, Indent};
use serde_json::Value;

use crate::io::{Failure, Output};

/// Arguments of `toidl`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs toidl orders.avpr orders.avdl\n  \
    avdl2rs toidl --indent 4 order.avsc\n  \
    curl -s $REGISTRY/subjects/orders-value/versions/latest/schema | avdl2rs toidl - order.avdl\n\n\
What IDL cannot say (a property IDL reserves, a name that is not an identifier, a doc \
that would read back differently) is an error naming its JSON path; nothing is written then.")]
pub struct Args {
    /// Input schema (.avsc) or protocol (.avpr) JSON; `-` or absent for stdin.
    #[arg(value_name = "IN", default_value = "-")]
    pub input: String,
    /// Output file; `-` or absent for stdout.
    #[arg(value_name = "OUT")]
    pub output: Option<Output>,
    /// Spaces per indentation level.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub indent: usize,
}

/// Reads the JSON, checks it is a valid schema or protocol and writes its IDL.
pub fn run(args: &Args) -> Result<(), Failure> {
    let (text, label) = read_input(&args.input)?;
    let idl = json_idl(&text, &label, Indent { width: args.indent })?;
    args.output.clone().unwrap_or_default().write_with(|out| {
        out.write_all(idl.as_bytes())
            .map_err(|e| Failure::Message(format!("cannot write the IDL: {e}")))
    })
}

/// The IDL of the schema or protocol JSON `text` (read from `label`): invalid JSON or an
/// invalid schema, and what IDL cannot say, are errors naming `label` and the JSON path.
pub fn json_idl(text: &str, label: &str, indent: Indent) -> Result<String, Failure> {
    // serde_json's nesting limit bounds the writer's recursion.
    let json: Value = serde_json::from_str(text)
        .map_err(|e| Failure::Message(format!("{label}: not JSON: {e}")))?;
    SchemaSet::new()
        .parse_file_value(&json)
        .map_err(|e| Failure::Message(format!("{label}: {e}")))?;
    idl_writer::to_idl(&json, indent)
        .map_err(|e| Failure::Message(format!("{label}: IDL cannot say this: {e}")))
}

/// The input's text and its name in messages.
fn read_input(input: &str) -> Result<(String, String), Failure> {
    let mut text = String::new();
    if input == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::Message(format!("cannot read stdin: {e}")))?;
        return Ok((text, "<stdin>".to_owned()));
    }
    let text = std::fs::read_to_string(input)
        .map_err(|e| Failure::Message(format!("cannot read {input}: {e}")))?;
    Ok((text, input.to_owned()))
}
