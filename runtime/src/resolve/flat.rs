//! The translation of a flat top-level record: one whose steps only keep, drop and promote
//! writer fields and add defaults, with no nested translation (nested records translated in
//! order are already replaced by their fields' steps when the plan is compiled).
//!
//! Such a record's translation is at most a constant number of bytes longer than the
//! writer's ([`Flat::room`]), so it is written into a slice sized once per message (on the
//! stack for small messages) rather than a growing `Vec`, with no size limit to check per
//! default; runs of up to [`WORD`] bytes are copied as one fixed-width store rather than by
//! a call to `memcpy`, which costs more than the copy for the few bytes a field takes; and
//! the read position is a local, so that the common short values are passed over without
//! the [`Reader`] (whose state lives in memory). On a small record these were most of what
//! the general step interpreter ([`super::run`]) spends beyond reading the values.
//!
//! Errors stay those of the general path, at the same offsets: every value that is not the
//! common short case, and every error, is left to the [`Reader`], moved to the position.

use super::program::{Pass, Program, Promotion, Step};
use super::run::{promoted, skip_value, MIN_OUTPUT_LIMIT};
use crate::codec::{short_bytes_end, short_varint_end, Reader};
use crate::error::DecodeError;

/// How many bytes a short copy moves at once.
const WORD: usize = 16;

/// The most bytes a flat plan's defaults and promotions may add to a message. Up to it, the
/// translation stays within the limit the general path enforces
/// ([`super::run::output_limit`]: at least [`MIN_OUTPUT_LIMIT`], at least 64 times the
/// input), so a flat plan needs no check of its own; a plan with larger defaults takes the
/// general path, which checks.
const MAX_GROWTH: usize = MIN_OUTPUT_LIMIT / 2;

/// A flat top-level record's translation (see the module documentation).
#[derive(Debug)]
pub(crate) struct Flat {
    /// The steps up to the last one that writes or drops: the values after it are kept, and
    /// copied without walking them (the reader's decode checks them).
    steps: Vec<FlatStep>,
    /// Whether the last step ends the record, so that the input must end there too.
    ends_input: bool,
    /// The defaults the steps write, one after the other, then [`WORD`] zero bytes, so that
    /// every default of up to [`WORD`] bytes can be copied as one word.
    defaults: Vec<u8>,
    /// The most bytes the translation is longer than the input.
    growth: usize,
}

/// One step of a [`Flat`] translation.
#[derive(Debug, Clone, Copy)]
enum FlatStep {
    /// Pass over a value the reader reads alike; it is copied with the run it belongs to.
    Keep(Pass),
    /// Pass over a value the reader lacks.
    Drop(Pass),
    /// Read a number and write it as a wider type.
    Promote(Promotion),
    /// Write `len` bytes of [`Flat::defaults`] from `start`.
    Default { start: usize, len: usize },
}

impl Flat {
    /// The flat translation of a top-level record with `steps`, if it is one.
    pub(crate) fn new(steps: &[Step]) -> Option<Self> {
        let walked = steps
            .iter()
            .rposition(|step| !matches!(step, Step::Keep(_)))
            .map_or(0, |last| last + 1);
        let mut flat = Flat {
            steps: Vec::with_capacity(walked),
            ends_input: walked == steps.len(),
            defaults: Vec::new(),
            growth: 0,
        };
        for step in &steps[..walked] {
            let step = match step {
                Step::Keep(pass) => FlatStep::Keep(*pass),
                Step::Drop(pass) => FlatStep::Drop(*pass),
                Step::Promote(promotion) => {
                    flat.growth += widening(*promotion);
                    FlatStep::Promote(*promotion)
                }
                Step::Default(bytes) => {
                    let start = flat.defaults.len();
                    flat.defaults.extend_from_slice(bytes);
                    flat.growth += bytes.len();
                    FlatStep::Default {
                        start,
                        len: bytes.len(),
                    }
                }
                Step::Op(_) => return None,
            };
            flat.steps.push(step);
        }
        flat.defaults.extend_from_slice(&[0; WORD]);
        (flat.growth <= MAX_GROWTH).then_some(flat)
    }

    /// The bytes of output room a translation of `input_len` bytes needs.
    pub(crate) fn room(&self, input_len: usize) -> usize {
        input_len.saturating_add(self.growth).saturating_add(WORD)
    }

    /// Translates `input` (one whole writer value) into `out`, which has at least
    /// [`Flat::room`] bytes, and returns the translated bytes.
    pub(crate) fn translate<'o>(
        &self,
        program: &Program,
        input: &[u8],
        out: &'o mut [u8],
    ) -> Result<&'o [u8], DecodeError> {
        let mut reader = Reader::new(input);
        let mut out = Output { buf: out, len: 0 };
        // The read position, and where the run of kept values not copied yet starts.
        let mut at = 0;
        let mut kept = 0;
        for step in &self.steps {
            match *step {
                FlatStep::Keep(pass) => at = pass_over(program, pass, &mut reader, at)?,
                FlatStep::Drop(pass) => {
                    out.copy(&input[kept..], at - kept)?;
                    at = pass_over(program, pass, &mut reader, at)?;
                    kept = at;
                }
                FlatStep::Promote(promotion) => {
                    out.copy(&input[kept..], at - kept)?;
                    reader.seek(at);
                    out.put(promoted(promotion, &mut reader)?.bytes())?;
                    at = reader.position();
                    kept = at;
                }
                FlatStep::Default { start, len } => {
                    out.copy(&input[kept..], at - kept)?;
                    out.copy(&self.defaults[start..], len)?;
                    kept = at;
                }
            }
        }
        if self.ends_input {
            reader.seek(at);
            reader.finish()?;
        }
        if kept < input.len() {
            out.copy(&input[kept..], input.len() - kept)?;
        }
        Ok(out.written())
    }
}

/// How many bytes a promotion may add: a one-byte varint becomes a `float` or a `double`,
/// a `float` a `double`.
fn widening(promotion: Promotion) -> usize {
    match promotion {
        Promotion::IntToFloat | Promotion::LongToFloat => 3,
        Promotion::IntToDouble | Promotion::LongToDouble => 7,
        Promotion::FloatToDouble => 4,
    }
}

/// Passes over the writer value at `at` of the reader's input; returns where it ends.
#[inline(always)]
fn pass_over(
    program: &Program,
    pass: Pass,
    reader: &mut Reader<'_>,
    at: usize,
) -> Result<usize, DecodeError> {
    let input = reader.input();
    let end = match pass {
        Pass::Varint => short_varint_end(input, at),
        Pass::Bytes => short_bytes_end(input, at),
        Pass::Fixed(size) => at.checked_add(size).filter(|&end| end <= input.len()),
        Pass::Value(_) => None,
    };
    match end {
        Some(end) => Ok(end),
        None => pass_with_reader(program, pass, reader, at),
    }
}

/// Passes over the writer value at `at` with the reader: a long one, a nested one, or one
/// the input does not hold (the error).
#[inline(never)]
fn pass_with_reader(
    program: &Program,
    pass: Pass,
    reader: &mut Reader<'_>,
    at: usize,
) -> Result<usize, DecodeError> {
    reader.seek(at);
    match pass {
        Pass::Varint => reader.skip_long(),
        Pass::Bytes => reader.skip_bytes(),
        Pass::Fixed(size) => reader.skip_fixed(size),
        Pass::Value(skip) => skip_value(program, skip, reader),
    }?;
    Ok(reader.position())
}

/// The output of a flat translation: a slice with room for it, and the bytes written.
struct Output<'o> {
    buf: &'o mut [u8],
    len: usize,
}

impl<'o> Output<'o> {
    /// Appends the first `len` bytes of `from`: a short run as one word (whose bytes past
    /// `len` the next write overwrites) where `from` and the output have a word left.
    #[inline(always)]
    fn copy(&mut self, from: &[u8], len: usize) -> Result<(), DecodeError> {
        if len <= WORD {
            if let (Some(word), Some(to)) = (from.first_chunk::<WORD>(), self.word_at_end()) {
                *to = *word;
                self.len += len;
                return Ok(());
            }
        }
        self.put(&from[..len])
    }

    /// The output's next [`WORD`] bytes, where it has them.
    #[inline(always)]
    fn word_at_end(&mut self) -> Option<&mut [u8; WORD]> {
        self.buf.get_mut(self.len..)?.first_chunk_mut()
    }

    /// Appends `bytes`.
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) -> Result<(), DecodeError> {
        let end = self.len + bytes.len();
        match self.buf.get_mut(self.len..end) {
            Some(to) => {
                to.copy_from_slice(bytes);
                self.len = end;
                Ok(())
            }
            None => Err(overflow(end)),
        }
    }

    fn written(self) -> &'o [u8] {
        &self.buf[..self.len]
    }
}

/// The error of a translation longer than the room it was given, which the bound of
/// [`Flat::room`] rules out.
#[cold]
fn overflow(len: usize) -> DecodeError {
    DecodeError::custom(
        format!("the translated value outgrew its bound at {len} bytes"),
        0,
    )
}
