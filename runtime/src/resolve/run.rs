//! Running a [`Program`]: one pass over the writer's bytes that appends the reader's
//! encoding of the same value.
//!
//! Untrusted input stays bounded: every read goes through the bounded [`Reader`], whose
//! budget also limits the nesting of records (translated or skipped) and the items of all
//! arrays and maps, and the output may grow beyond the input only up to [`output_limit`]
//! (defaults for fields the writer lacks are the one way a few input bytes can produce many
//! output bytes).
//!
//! The functions of a record's steps are inlined into one loop in optimized builds only
//! (`cfg_attr(not(debug_assertions), inline(always))`), where that saves about a tenth of a
//! small record's translation. In a debug build inlining adds their locals to the frame of
//! every nesting level, and deep values would reach the decode's stack budget
//! ([`crate::codec::DecodeLimits::max_stack`]) before its depth limit.

use super::program::{
    Op, OpId, Pass, Program, Promotion, RecordOp, Skip, SkipId, Step, WriterField,
};
use crate::codec::{self, Reader};
use crate::error::DecodeError;

/// The most bytes a translation of `input_len` input bytes may produce: 64 times the input,
/// and at least [`MIN_OUTPUT_LIMIT`].
pub(crate) fn output_limit(input_len: usize) -> usize {
    input_len.saturating_mul(64).max(MIN_OUTPUT_LIMIT)
}

/// The output limit of a short input: 16 MiB.
pub(crate) const MIN_OUTPUT_LIMIT: usize = 16 << 20;

/// Translates `input` (one whole writer value) into `out` with `program`.
pub(crate) fn translate(
    program: &Program,
    input: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), DecodeError> {
    let mut reader = Reader::new(input);
    let mut run = Run {
        program,
        input,
        limit: out.len().saturating_add(output_limit(input.len())),
    };
    // The top-level value ends the input, so the values both sides encode alike at the end
    // of the top-level record are copied without walking them: the reader's decode checks
    // those bytes anyway.
    match &program.ops[program.root] {
        Op::Verbatim(_) => out.extend_from_slice(input),
        Op::Record(RecordOp::InOrder(steps)) => {
            let walked = steps
                .iter()
                .rposition(|step| !matches!(step, Step::Keep(_)))
                .map_or(0, |last| last + 1);
            let kept = run.walk(&steps[..walked], &mut reader, out)?;
            if walked < steps.len() {
                out.extend_from_slice(&input[kept..]);
            } else {
                run.copy_kept(kept, &reader, out);
                reader.finish()?;
            }
        }
        _ => {
            run.op(program.root, &mut reader, out)?;
            reader.finish()?;
        }
    }
    Ok(())
}

/// Passes over the writer values after those a reader decoded in place
/// ([`Strategy::InPlace`](super::strategy::Strategy::InPlace)), and checks that they end the input.
pub(crate) fn pass_rest(
    program: &Program,
    rest: &[Pass],
    reader: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    let mut run = Run::passing(program);
    for &pass in rest {
        run.pass(pass, reader)?;
    }
    reader.finish()
}

/// Passes over one writer value of kind `skip`.
pub(crate) fn skip_value(
    program: &Program,
    skip: SkipId,
    reader: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    Run::passing(program).skip(skip, reader)
}

struct Run<'p, 'i> {
    program: &'p Program,
    input: &'i [u8],
    limit: usize,
}

impl<'p> Run<'p, '_> {
    /// A run that only passes over values: it copies and writes nothing.
    fn passing(program: &'p Program) -> Self {
        Run {
            program,
            input: &[],
            limit: 0,
        }
    }
}

impl<'i> Run<'_, 'i> {
    fn skip(&mut self, id: SkipId, reader: &mut Reader<'i>) -> Result<(), DecodeError> {
        let program = self.program;
        match &program.skips[id] {
            Skip::Boolean => reader.skip_boolean(),
            Skip::Varint => reader.skip_long(),
            Skip::Fixed(size) => reader.skip_fixed(*size),
            Skip::Bytes => reader.skip_bytes(),
            Skip::Record(fields) => reader.nested(|reader| {
                fields
                    .iter()
                    .try_for_each(|&field| self.pass(field, reader))
            }),
            Skip::Array(items) => match program.skips[*items] {
                // Arrays of primitives skip without a dispatch per item.
                Skip::Varint => reader.skip_blocks(Reader::skip_long),
                Skip::Bytes => reader.skip_blocks(Reader::skip_bytes),
                Skip::Fixed(size) => reader.skip_blocks(|reader| reader.skip_fixed(size)),
                _ => reader.skip_blocks(|reader| self.skip(*items, reader)),
            },
            Skip::Map(values) => reader.skip_blocks(|reader| {
                reader.skip_bytes()?;
                self.skip(*values, reader)
            }),
            Skip::Union(branches) => {
                let branch = reader.read_union_index(branches.len())?;
                self.pass(branches[branch], reader)
            }
            Skip::Pending => Err(incomplete(reader)),
        }
    }

    /// Passes over one writer value of a record's steps.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn pass(&mut self, pass: Pass, reader: &mut Reader<'i>) -> Result<(), DecodeError> {
        match pass {
            Pass::Varint => reader.skip_long(),
            Pass::Bytes => reader.skip_bytes(),
            Pass::Fixed(size) => reader.skip_fixed(size),
            Pass::Value(skip) => self.skip(skip, reader),
        }
    }

    /// Copies the input from `kept` up to the reader's position: the values passed over
    /// since the last step that wrote.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn copy_kept(&self, kept: usize, reader: &Reader<'i>, out: &mut Vec<u8>) {
        let end = reader.position();
        if kept < end {
            out.extend_from_slice(&self.input[kept..end]);
        }
    }

    fn op(
        &mut self,
        id: OpId,
        reader: &mut Reader<'i>,
        out: &mut Vec<u8>,
    ) -> Result<(), DecodeError> {
        let program = self.program;
        match &program.ops[id] {
            Op::Verbatim(skip) => {
                let start = reader.position();
                self.skip(*skip, reader)?;
                self.copy_kept(start, reader, out);
            }
            Op::Promote(promotion) => promote(*promotion, reader, out)?,
            Op::Record(record) => reader.nested(|reader| self.record(record, reader, out))?,
            Op::Enum(map) => {
                let index = reader.read_enum_index(map.len())?;
                codec::write_int(out, map[index] as i32);
            }
            Op::Array(items) => {
                self.blocks(reader, out, |run, reader, out| run.op(*items, reader, out))?
            }
            Op::Map(values) => self.blocks(reader, out, |run, reader, out| {
                codec::write_string(out, reader.read_string()?);
                run.op(*values, reader, out)
            })?,
            Op::UnionToUnion(branches) => {
                let (index, op) = branches[reader.read_union_index(branches.len())?];
                codec::write_int(out, index as i32);
                self.op(op, reader, out)?;
            }
            Op::UnionToOne(branches) => {
                let op = branches[reader.read_union_index(branches.len())?];
                self.op(op, reader, out)?;
            }
            Op::OneToUnion(index, op) => {
                codec::write_int(out, *index as i32);
                self.op(*op, reader, out)?;
            }
            Op::Pending => return Err(incomplete(reader)),
        }
        Ok(())
    }

    fn record(
        &mut self,
        record: &RecordOp,
        reader: &mut Reader<'i>,
        out: &mut Vec<u8>,
    ) -> Result<(), DecodeError> {
        match record {
            RecordOp::InOrder(steps) => self.steps(steps, reader, out)?,
            RecordOp::Reordered {
                writer_fields,
                reader_defaults,
            } => {
                let base = out.len();
                let mut pieces = vec![None; reader_defaults.len()];
                for field in writer_fields {
                    match field {
                        WriterField::Read { reader_index, op } => {
                            let start = out.len() - base;
                            self.op(*op, reader, out)?;
                            pieces[*reader_index] = Some(start..out.len() - base);
                        }
                        WriterField::Skip(skip) => self.skip(*skip, reader)?,
                    }
                }
                let translated = out.split_off(base);
                for (piece, default) in pieces.into_iter().zip(reader_defaults) {
                    match (piece, default) {
                        (Some(range), _) => out.extend_from_slice(&translated[range]),
                        (None, Some(bytes)) => self.emit_default(bytes, reader, out)?,
                        (None, None) => {
                            return Err(DecodeError::custom(
                                "a reader field has no value",
                                reader.position(),
                            ))
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Runs the steps of an in-order record.
    fn steps(
        &mut self,
        steps: &[Step],
        reader: &mut Reader<'i>,
        out: &mut Vec<u8>,
    ) -> Result<(), DecodeError> {
        let kept = self.walk(steps, reader, out)?;
        self.copy_kept(kept, reader, out);
        Ok(())
    }

    /// Runs `steps`, except for the copy of the values kept after the last step that wrote:
    /// returns where they start.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn walk(
        &mut self,
        steps: &[Step],
        reader: &mut Reader<'i>,
        out: &mut Vec<u8>,
    ) -> Result<usize, DecodeError> {
        let mut kept = reader.position();
        for step in steps {
            match step {
                Step::Keep(pass) => self.pass(*pass, reader)?,
                _ => {
                    self.copy_kept(kept, reader, out);
                    self.step(step, reader, out)?;
                    kept = reader.position();
                }
            }
        }
        Ok(kept)
    }

    /// Runs one step of an in-order record (the copy of kept values aside).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn step(
        &mut self,
        step: &Step,
        reader: &mut Reader<'i>,
        out: &mut Vec<u8>,
    ) -> Result<(), DecodeError> {
        match step {
            Step::Keep(pass) | Step::Drop(pass) => self.pass(*pass, reader),
            Step::Promote(promotion) => promote(*promotion, reader, out),
            Step::Op(op) => self.op(*op, reader, out),
            Step::Default(bytes) => self.emit_default(bytes, reader, out),
        }
    }

    fn emit_default(
        &self,
        bytes: &[u8],
        reader: &Reader<'i>,
        out: &mut Vec<u8>,
    ) -> Result<(), DecodeError> {
        if out.len() + bytes.len() > self.limit {
            return Err(DecodeError::custom(
                format!(
                    "defaults make the translated value larger than {} bytes",
                    self.limit
                ),
                reader.position(),
            ));
        }
        out.extend_from_slice(bytes);
        Ok(())
    }

    /// Translates an array or map: all writer blocks become one reader block.
    fn blocks(
        &mut self,
        reader: &mut Reader<'i>,
        out: &mut Vec<u8>,
        mut item: impl FnMut(&mut Self, &mut Reader<'i>, &mut Vec<u8>) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        let start = out.len();
        let count = reader
            .read_blocks(|reader, index| item(self, reader, out).map_err(|e| e.at_index(index)))?;
        if count > 0 {
            // The count goes before the items: write it after them and rotate it in place.
            let end = out.len();
            codec::write_long(out, count as i64);
            let header = out.len() - end;
            out[start..].rotate_right(header);
        }
        codec::write_long(out, 0);
        Ok(())
    }
}

/// Reads a writer number and writes it as the reader's wider type.
#[cfg_attr(not(debug_assertions), inline(always))]
fn promote(
    promotion: Promotion,
    reader: &mut Reader<'_>,
    out: &mut Vec<u8>,
) -> Result<(), DecodeError> {
    out.extend_from_slice(promoted(promotion, reader)?.bytes());
    Ok(())
}

/// A writer number in the reader's wider encoding: little-endian IEEE 754.
pub(crate) enum Promoted {
    Float([u8; 4]),
    Double([u8; 8]),
}

impl Promoted {
    /// The encoded number.
    #[inline(always)]
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Promoted::Float(bytes) => bytes,
            Promoted::Double(bytes) => bytes,
        }
    }
}

/// Reads a writer number as the reader's wider type: the conversion of every path that
/// promotes.
#[inline(always)]
pub(crate) fn promoted(
    promotion: Promotion,
    reader: &mut Reader<'_>,
) -> Result<Promoted, DecodeError> {
    let float = |value: f32| Promoted::Float(value.to_le_bytes());
    let double = |value: f64| Promoted::Double(value.to_le_bytes());
    Ok(match promotion {
        Promotion::IntToFloat => float(reader.read_int()? as f32),
        Promotion::IntToDouble => double(f64::from(reader.read_int()?)),
        Promotion::LongToFloat => float(reader.read_long()? as f32),
        Promotion::LongToDouble => double(reader.read_long()? as f64),
        Promotion::FloatToDouble => double(f64::from(reader.read_float()?)),
    })
}

/// The error of a step that was never compiled, which a finished plan does not have.
#[cold]
fn incomplete(reader: &Reader<'_>) -> DecodeError {
    DecodeError::custom("incomplete resolution plan", reader.position())
}
