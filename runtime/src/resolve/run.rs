//! Running a [`Program`]: one pass over the writer's bytes that appends the reader's
//! encoding of the same value.
//!
//! Untrusted input stays bounded: every read goes through the bounded [`Reader`], whose
//! budget also limits the nesting of records (translated or skipped) and the items of all
//! arrays and maps, and the output may grow beyond the input only up to [`output_limit`]
//! (defaults for fields the writer lacks are the one way a few input bytes can produce many
//! output bytes).

use super::program::{Op, OpId, Program, RecordOp, Skip, SkipId, Step, WriterField};
use crate::codec::{self, Reader};
use crate::error::DecodeError;

/// The most bytes a translation of `input_len` input bytes may produce: 64 times the input,
/// and at least 16 MiB.
pub(crate) fn output_limit(input_len: usize) -> usize {
    input_len.saturating_mul(64).max(16 << 20)
}

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
    // The top-level value ends the input, so a last run of values both sides encode alike
    // is copied without walking it: the reader's decode checks those bytes anyway.
    match &program.ops[program.root] {
        Op::Verbatim(_) => out.extend_from_slice(input),
        Op::Record(RecordOp::InOrder(steps)) => match steps.split_last() {
            Some((Step::Run { copy: true, .. }, init)) => {
                run.steps(init, &mut reader, out)?;
                out.extend_from_slice(reader.rest());
            }
            _ => {
                run.steps(steps, &mut reader, out)?;
                reader.finish()?;
            }
        },
        _ => {
            run.op(program.root, &mut reader, out)?;
            reader.finish()?;
        }
    }
    Ok(())
}

struct Run<'p, 'i> {
    program: &'p Program,
    input: &'i [u8],
    limit: usize,
}

impl<'i> Run<'_, 'i> {
    fn skip(&mut self, id: SkipId, reader: &mut Reader<'i>) -> Result<(), DecodeError> {
        let program = self.program;
        match &program.skips[id] {
            Skip::Nothing => Ok(()),
            Skip::Boolean => reader.skip_boolean(),
            Skip::Varint => reader.skip_long(),
            Skip::Fixed(size) => reader.skip_fixed(*size),
            Skip::Bytes => reader.skip_bytes(),
            Skip::Record(fields) => reader.nested(|reader| {
                fields
                    .iter()
                    .try_for_each(|&field| self.skip(field, reader))
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
                self.skip(branches[branch], reader)
            }
        }
    }

    /// Skips the writer values of `skips` and copies their bytes to `out`.
    fn copy(
        &mut self,
        skips: &[SkipId],
        reader: &mut Reader<'i>,
        out: &mut Vec<u8>,
    ) -> Result<(), DecodeError> {
        let start = reader.position();
        for &skip in skips {
            self.skip(skip, reader)?;
        }
        out.extend_from_slice(&self.input[start..reader.position()]);
        Ok(())
    }

    fn op(
        &mut self,
        id: OpId,
        reader: &mut Reader<'i>,
        out: &mut Vec<u8>,
    ) -> Result<(), DecodeError> {
        let program = self.program;
        match &program.ops[id] {
            Op::Verbatim(skip) => self.copy(std::slice::from_ref(skip), reader, out)?,
            Op::IntToFloat => codec::write_float(out, reader.read_int()? as f32),
            Op::IntToDouble => codec::write_double(out, f64::from(reader.read_int()?)),
            Op::LongToFloat => codec::write_float(out, reader.read_long()? as f32),
            Op::LongToDouble => codec::write_double(out, reader.read_long()? as f64),
            Op::FloatToDouble => codec::write_double(out, f64::from(reader.read_float()?)),
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
            Op::Pending => {
                return Err(DecodeError::custom(
                    "incomplete resolution plan",
                    reader.position(),
                ))
            }
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
        for step in steps {
            match step {
                Step::Op(op) => self.op(*op, reader, out)?,
                Step::Run { skips, copy: true } => self.copy(skips, reader, out)?,
                Step::Run { skips, copy: false } => {
                    for &skip in skips {
                        self.skip(skip, reader)?;
                    }
                }
                Step::Default(bytes) => self.emit_default(bytes, reader, out)?,
            }
        }
        Ok(())
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
