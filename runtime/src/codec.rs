//! Avro binary codec primitives (Avro specification, "Binary Encoding").
//!
//! Generated and derived code encodes by calling the `write_*` functions on a reusable
//! `Vec<u8>` and decodes through a [`Reader`], which borrows the input and never builds an
//! intermediate value tree.
//!
//! The [`Reader`] treats its input as untrusted: every length is checked against the bytes
//! that are left before anything is allocated, and every failure is a [`DecodeError`]
//! carrying the byte offset (never a panic). Three things a few bytes could otherwise
//! multiply are bounded by one [`DecodeLimits`] budget per decode, shared by every nesting
//! level (see there for the defaults and how to change them):
//!
//! * nesting depth, so a deep value cannot overflow the stack while it is read or dropped;
//! * array items and map entries in all, so a block count cannot describe billions of
//!   zero-byte items (`null`, empty records, `fixed(0)`) read in a loop;
//! * the memory the items' slots take in their `Vec` or map, so one-byte items that are large
//!   in memory cannot turn a small message into gigabytes.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

/// A cursor over untrusted Avro binary input, with the budget of its decode.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Records (and other nesting levels) entered and not left yet.
    depth: usize,
    /// The stack address where the outermost nesting level was entered.
    stack_base: usize,
    /// Array items and map entries read so far.
    items: usize,
    /// Bytes of item slots committed so far.
    memory: usize,
    /// The limits, or `None` for the defaults of the input length, which are then computed
    /// only when an array or map needs them: most messages never do, and a reader is made
    /// per message.
    limits: Option<DecodeLimits>,
}

/// The bounds of one decode. [`Reader::new`] sets them from the input length with
/// [`DecodeLimits::for_input_len`]; [`Reader::with_limits`] takes others.
///
/// Each limit is a budget for the whole decode, shared by all nesting levels, so the work and
/// memory a message can cost grow linearly with its length whatever its shape:
///
/// ```
/// use avdl2rs::codec::{DecodeLimits, Reader};
///
/// // `array<null>` with three items: one block of count 3 (zig-zag 6), then the end.
/// let bytes = [0x06, 0x00];
/// let nulls = Reader::new(&bytes).read_array(|_| Ok(())).unwrap();
/// assert_eq!(nulls.len(), 3);
///
/// // The same with a budget of two items is refused.
/// let strict = DecodeLimits { max_items: 2, ..DecodeLimits::for_input_len(bytes.len()) };
/// assert!(Reader::with_limits(&bytes, strict).read_array(|_| Ok(())).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeLimits {
    /// The deepest nesting of records and union enums a decode follows
    /// ([`DecodeLimits::DEFAULT_MAX_DEPTH`]). It bounds the stack that dropping the value
    /// needs, and with `max_stack` the stack the decode needs.
    pub max_depth: usize,
    /// The most stack the nested levels of a decode may take, in bytes, measured from where
    /// the outermost record was entered ([`DecodeLimits::DEFAULT_MAX_STACK`]). A level's
    /// frame depends on the type and the build (a record of many fields in a debug build
    /// takes several KiB), so the depth alone cannot promise that a decode fits a thread's
    /// stack; this does, whichever limit is reached first.
    pub max_stack: usize,
    /// The most array items and map entries, all arrays and maps together. Items that take
    /// input bytes are bounded by the input anyway; this bounds the ones that take none.
    pub max_items: usize,
    /// The most bytes the slots of all decoded array items and map entries may take
    /// (`size_of` of the item, or of the key and value, per entry). Strings and bytes are
    /// not counted: they are copies of input bytes.
    pub max_memory: usize,
}

/// The default item budget per input byte.
const ITEMS_PER_BYTE: usize = 8;
/// The default item budget of a short input.
const MIN_ITEMS: usize = 1 << 16;
/// The default slot memory per input byte.
const MEMORY_PER_BYTE: usize = 64;
/// The default slot memory of a short input.
const MIN_MEMORY: usize = 1 << 20;

impl DecodeLimits {
    /// The default nesting limit, the same on every decode path.
    pub const DEFAULT_MAX_DEPTH: usize = 512;
    /// The default stack a decode may take: 1 MiB, half of a 2 MiB thread (tokio's worker
    /// default), leaving the other half to the caller.
    pub const DEFAULT_MAX_STACK: usize = 1 << 20;
    /// Tuning of [`DecodeLimits::for_input_len`], not a setting.
    #[deprecated(note = "internal tuning of `DecodeLimits::for_input_len`; will become private")]
    #[doc(hidden)]
    pub const ITEMS_PER_BYTE: usize = ITEMS_PER_BYTE;
    /// Tuning of [`DecodeLimits::for_input_len`], not a setting.
    #[deprecated(note = "internal tuning of `DecodeLimits::for_input_len`; will become private")]
    #[doc(hidden)]
    pub const MIN_ITEMS: usize = MIN_ITEMS;
    /// Tuning of [`DecodeLimits::for_input_len`], not a setting.
    #[deprecated(note = "internal tuning of `DecodeLimits::for_input_len`; will become private")]
    #[doc(hidden)]
    pub const MEMORY_PER_BYTE: usize = MEMORY_PER_BYTE;
    /// Tuning of [`DecodeLimits::for_input_len`], not a setting.
    #[deprecated(note = "internal tuning of `DecodeLimits::for_input_len`; will become private")]
    #[doc(hidden)]
    pub const MIN_MEMORY: usize = MIN_MEMORY;

    /// The defaults for an input of `len` bytes: depth 512 and 1 MiB of stack; `8 × len`
    /// items (at least 65,536); `64 × len` bytes of item slots (at least 1 MiB).
    pub const fn for_input_len(len: usize) -> Self {
        let items = len.saturating_mul(ITEMS_PER_BYTE);
        let memory = len.saturating_mul(MEMORY_PER_BYTE);
        DecodeLimits {
            max_depth: Self::DEFAULT_MAX_DEPTH,
            max_stack: Self::DEFAULT_MAX_STACK,
            max_items: if items > MIN_ITEMS { items } else { MIN_ITEMS },
            max_memory: if memory > MIN_MEMORY {
                memory
            } else {
                MIN_MEMORY
            },
        }
    }
}

/// Reverses the zig-zag mapping of signed to unsigned integers.
#[inline(always)]
fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

/// Maps signed integers to unsigned ones so that small magnitudes get short varints.
#[inline(always)]
fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`, with the default limits for its length
    /// ([`DecodeLimits::for_input_len`]).
    #[inline]
    pub fn new(bytes: &'a [u8]) -> Self {
        Self::with(bytes, None)
    }

    /// A reader at the start of `bytes` with the budget `limits`.
    #[inline]
    pub fn with_limits(bytes: &'a [u8], limits: DecodeLimits) -> Self {
        Self::with(bytes, Some(limits))
    }

    #[inline]
    fn with(bytes: &'a [u8], limits: Option<DecodeLimits>) -> Self {
        Self {
            bytes,
            pos: 0,
            depth: 0,
            stack_base: 0,
            items: 0,
            memory: 0,
            limits,
        }
    }

    /// The limits of this reader's decode.
    #[inline]
    pub fn limits(&self) -> DecodeLimits {
        self.limits
            .unwrap_or_else(|| DecodeLimits::for_input_len(self.bytes.len()))
    }

    /// What is left of this decode's budget: its limits less the array items, map entries
    /// and slot memory taken so far. A caller decoding several values of one input with a
    /// reader each (the records of a container block) hands it to the next reader, so that
    /// one budget covers them all and the work stays linear in the input.
    #[inline]
    pub fn limits_left(&self) -> DecodeLimits {
        let limits = self.limits();
        DecodeLimits {
            max_items: limits.max_items - self.items,
            max_memory: limits.max_memory - self.memory,
            ..limits
        }
    }

    /// The depth and stack limits, which do not depend on the input length.
    #[inline]
    fn nesting_limits(&self) -> (usize, usize) {
        match &self.limits {
            Some(limits) => (limits.max_depth, limits.max_stack),
            None => (
                DecodeLimits::DEFAULT_MAX_DEPTH,
                DecodeLimits::DEFAULT_MAX_STACK,
            ),
        }
    }

    /// Runs `read` one nesting level deeper: an error past [`DecodeLimits::max_depth`], or
    /// once the levels take more than [`DecodeLimits::max_stack`] bytes of stack. Derived code
    /// reads every record and union enum through it, generated code those that can hold
    /// themselves (the only ones data can make deep), and so does the resolving decode.
    #[inline]
    pub fn nested<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<T, DecodeError> {
        // An address in the caller's frame: how far the stack has grown since the first level.
        let marker = 0u8;
        let here = std::ptr::addr_of!(marker) as usize;
        let (max_depth, max_stack) = self.nesting_limits();
        if self.depth == 0 {
            self.stack_base = here;
        }
        if self.depth >= max_depth || here.abs_diff(self.stack_base) > max_stack {
            return Err(self.too_deep());
        }
        self.depth += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    #[cold]
    fn too_deep(&self) -> DecodeError {
        let (max_depth, max_stack) = self.nesting_limits();
        let kind = if self.depth >= max_depth {
            DecodeErrorKind::TooDeep { limit: max_depth }
        } else {
            DecodeErrorKind::TooMuchStack {
                limit: max_stack,
                depth: self.depth,
            }
        };
        self.limit_error(kind)
    }

    #[cold]
    fn limit_error(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError::new(kind, self.pos)
    }

    /// Takes `count` items of `slot` bytes each from the memory budget.
    #[inline]
    fn commit(&mut self, count: usize, slot: usize) -> Result<(), DecodeError> {
        match count.checked_mul(slot) {
            Some(bytes) if bytes <= self.limits().max_memory - self.memory => {
                self.memory += bytes;
                Ok(())
            }
            _ => Err(self.limit_error(DecodeErrorKind::TooMuchMemory {
                limit: self.limits().max_memory,
            })),
        }
    }

    /// The number of bytes consumed so far (the offset errors report).
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Moves to `pos` of the input (its end, if `pos` is past it), for a caller that passes
    /// over values on its own ([`short_varint_end`], [`short_bytes_end`]) and leaves the rest,
    /// and every error, to the reader.
    #[inline]
    pub(crate) fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.bytes.len());
    }

    /// The number of bytes not read yet.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// Whether all input has been read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The whole input, read or not.
    #[inline]
    pub(crate) fn input(&self) -> &'a [u8] {
        self.bytes
    }

    /// The bytes not read yet.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        &self.bytes[self.pos..]
    }

    /// Fails with [`DecodeErrorKind::TrailingBytes`] unless all input has been read; used
    /// after decoding a whole message body.
    pub fn finish(&self) -> Result<(), DecodeError> {
        match self.remaining() {
            0 => Ok(()),
            left => Err(DecodeError::new(
                DecodeErrorKind::TrailingBytes(left),
                self.pos,
            )),
        }
    }

    #[cold]
    fn eof(&self, needed: usize) -> DecodeError {
        DecodeError::new(
            DecodeErrorKind::UnexpectedEof {
                needed,
                remaining: self.remaining(),
            },
            self.pos,
        )
    }

    /// Takes the next `len` bytes.
    #[inline]
    fn take(&mut self, len: usize) -> Result<&'a [u8], DecodeError> {
        let rest = self.rest();
        if rest.len() < len {
            return Err(self.eof(len));
        }
        self.pos += len;
        Ok(&rest[..len])
    }

    /// Reads an unsigned LEB128 varint of at most 10 bytes (64 bits), inline: the one-byte
    /// case (most lengths, counts, indexes and small numbers) first, then a loop over at
    /// most ten bytes that needs no bounds check per byte. Out of line only the errors.
    #[inline]
    fn read_varint(&mut self) -> Result<u64, DecodeError> {
        let rest = self.rest();
        if let Some(&first) = rest.first() {
            if first < 0x80 {
                self.pos += 1;
                return Ok(u64::from(first));
            }
        }
        let mut value = 0u64;
        for (i, &byte) in rest.iter().take(10).enumerate() {
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                if i == 9 && byte > 1 {
                    break; // bits beyond the 64th
                }
                self.pos += i + 1;
                return Ok(value);
            }
        }
        Err(self.bad_varint())
    }

    /// Why [`Self::read_varint`] found no varint: the input ended inside it (no last byte
    /// among fewer than 10), or it runs past 64 bits.
    #[cold]
    fn bad_varint(&self) -> DecodeError {
        let left = self.remaining();
        if left < 10 {
            return self.eof(left + 1);
        }
        DecodeError::new(DecodeErrorKind::VarintTooLong, self.pos)
    }

    /// Reads a `boolean`: one byte, 0 or 1.
    #[inline]
    pub fn read_boolean(&mut self) -> Result<bool, DecodeError> {
        match self.rest().first() {
            Some(0) => {
                self.pos += 1;
                Ok(false)
            }
            Some(1) => {
                self.pos += 1;
                Ok(true)
            }
            Some(&other) => Err(DecodeError::new(
                DecodeErrorKind::InvalidBoolean(other),
                self.pos,
            )),
            None => Err(self.eof(1)),
        }
    }

    /// Reads an `int`: a zig-zag varint whose value must fit `i32`.
    #[inline]
    pub fn read_int(&mut self) -> Result<i32, DecodeError> {
        let start = self.pos;
        let value = self.read_long()?;
        i32::try_from(value)
            .map_err(|_| DecodeError::new(DecodeErrorKind::IntOverflow(value), start))
    }

    /// Reads a `long`: a zig-zag varint of at most 10 bytes.
    #[inline]
    pub fn read_long(&mut self) -> Result<i64, DecodeError> {
        self.read_varint().map(unzigzag)
    }

    /// Reads a `float`: 4 bytes, little-endian IEEE 754.
    #[inline]
    pub fn read_float(&mut self) -> Result<f32, DecodeError> {
        self.read_fixed::<4>().map(f32::from_le_bytes)
    }

    /// Reads a `double`: 8 bytes, little-endian IEEE 754.
    #[inline]
    pub fn read_double(&mut self) -> Result<f64, DecodeError> {
        self.read_fixed::<8>().map(f64::from_le_bytes)
    }

    /// Reads a `bytes`/`string` length prefix and checks it against the input left.
    #[inline]
    fn read_length(&mut self) -> Result<usize, DecodeError> {
        let start = self.pos;
        let length = self.read_long()?;
        if length < 0 {
            return Err(DecodeError::new(
                DecodeErrorKind::NegativeLength(length),
                start,
            ));
        }
        match usize::try_from(length) {
            Ok(len) if len <= self.remaining() => Ok(len),
            _ => Err(DecodeError::new(
                DecodeErrorKind::LengthTooLarge {
                    length,
                    remaining: self.remaining(),
                },
                start,
            )),
        }
    }

    /// Reads `bytes`, borrowed from the input.
    #[inline]
    pub fn read_bytes(&mut self) -> Result<&'a [u8], DecodeError> {
        let len = self.read_length()?;
        self.take(len)
    }

    /// Reads a `string`, borrowed from the input, checked to be UTF-8.
    #[inline]
    pub fn read_string(&mut self) -> Result<&'a str, DecodeError> {
        let start = self.pos;
        let bytes = self.read_bytes()?;
        std::str::from_utf8(bytes)
            .map_err(|_| DecodeError::new(DecodeErrorKind::InvalidUtf8, start))
    }

    /// Reads a `fixed` of size `N` into an array.
    #[inline]
    pub fn read_fixed<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let rest = self.rest();
        match rest.first_chunk::<N>() {
            Some(chunk) => {
                self.pos += N;
                Ok(*chunk)
            }
            None => Err(self.eof(N)),
        }
    }

    /// Reads a `fixed` of `size` bytes, borrowed from the input.
    #[inline]
    pub fn read_fixed_slice(&mut self, size: usize) -> Result<&'a [u8], DecodeError> {
        self.take(size)
    }

    /// Reads an `int` index and checks it is below `count`. Always inlined: every optional
    /// field reads one, and left to its heuristics the compiler makes it a call in some
    /// builds (about 1% of decoding a small record).
    #[inline(always)]
    fn read_index(
        &mut self,
        count: usize,
        error: fn(i32, usize) -> DecodeErrorKind,
    ) -> Result<usize, DecodeError> {
        let start = self.pos;
        let index = self.read_int()?;
        match usize::try_from(index) {
            Ok(i) if i < count => Ok(i),
            _ => Err(DecodeError::new(error(index, count), start)),
        }
    }

    /// Reads an enum symbol index and checks it is below `symbols`.
    #[inline]
    pub fn read_enum_index(&mut self, symbols: usize) -> Result<usize, DecodeError> {
        self.read_index(symbols, |index, symbols| {
            DecodeErrorKind::EnumIndexOutOfRange { index, symbols }
        })
    }

    /// Reads a union branch index and checks it is below `branches`.
    #[inline]
    pub fn read_union_index(&mut self, branches: usize) -> Result<usize, DecodeError> {
        self.read_index(branches, |index, branches| {
            DecodeErrorKind::UnionIndexOutOfRange { index, branches }
        })
    }

    /// Reads one block header of an array or map: the item count (0 at the end), reading and
    /// checking the byte size of the negative-count form, and taking the count from the item
    /// budget.
    fn read_block_header(&mut self) -> Result<BlockHeader, DecodeError> {
        let start = self.pos;
        let count = self.read_long()?;
        let byte_size = if count < 0 {
            let size_at = self.pos;
            let size = self.read_long()?;
            match usize::try_from(size) {
                Ok(size) if size <= self.remaining() => Some(size),
                _ => {
                    return Err(DecodeError::new(
                        DecodeErrorKind::BadBlockSize(size),
                        size_at,
                    ))
                }
            }
        } else {
            None
        };
        match usize::try_from(count.unsigned_abs()) {
            Ok(count) if count <= self.limits().max_items - self.items => {
                self.items += count;
                Ok(BlockHeader { count, byte_size })
            }
            _ => Err(DecodeError::new(
                DecodeErrorKind::TooManyItems {
                    count: count.unsigned_abs(),
                    limit: self.limits().max_items,
                },
                start,
            )),
        }
    }

    /// Reads all blocks of an array or map into `state`: each block's count is taken from
    /// the memory budget at `slot` bytes an item, then `on_block` gets it (to reserve room),
    /// and `item` each item with its index across blocks. Returns the total item count.
    fn read_blocks_into<S>(
        &mut self,
        state: &mut S,
        slot: usize,
        on_block: fn(&mut S, usize),
        mut item: impl FnMut(&mut Self, &mut S, usize) -> Result<(), DecodeError>,
    ) -> Result<usize, DecodeError> {
        let mut index = 0;
        loop {
            let header = self.read_block_header()?;
            if header.count == 0 {
                return Ok(index);
            }
            self.commit(header.count, slot)?;
            on_block(state, header.count);
            for _ in 0..header.count {
                item(self, state, index)?;
                index += 1;
            }
        }
    }

    /// Reads all blocks of an array or map (either block form), calling `item` with the
    /// reader and the item's index across blocks; returns the item count. For schema-driven
    /// readers that do not collect into a `Vec` or map (items are counted, memory is not);
    /// `item` adds its own error path.
    pub fn read_blocks(
        &mut self,
        mut item: impl FnMut(&mut Self, usize) -> Result<(), DecodeError>,
    ) -> Result<usize, DecodeError> {
        self.read_blocks_into(
            &mut (),
            0,
            |_, _| {},
            |reader, _, index| item(reader, index),
        )
    }

    /// Reads an array: all its blocks, each item with `item`. Item errors get the item's
    /// index added to their path. Each block's count is checked against the item and memory
    /// budgets, then room is reserved for it, but for no more than 1 MiB of items ahead of
    /// those read.
    #[inline]
    pub fn read_array<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        let mut items = Vec::new();
        self.read_blocks_into(
            &mut items,
            std::mem::size_of::<T>(),
            |items, count| items.reserve(prealloc::<T>(count)),
            |reader, items, index| {
                items.push(item(reader).map_err(|e| e.at_index(index))?);
                Ok(())
            },
        )?;
        Ok(items)
    }

    /// Reads a map: all its blocks, each value with `value`, into any map type. Value errors
    /// get the entry's key added to their path; a bad key gets the entry's index. Each block's
    /// count is checked against the item and memory budgets, then the map is offered room for
    /// it (through the entries' size hint, which `HashMap` reserves by, so that it does not
    /// rehash as it grows), for no more entries than 1 MiB of them nor than bytes are left.
    #[inline]
    pub fn read_map<M, T>(
        &mut self,
        mut value: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<M, DecodeError>
    where
        M: Default + Extend<(String, T)>,
    {
        let mut map = M::default();
        let mut index = 0;
        loop {
            let header = self.read_block_header()?;
            if header.count == 0 {
                return Ok(map);
            }
            self.commit(header.count, std::mem::size_of::<(String, T)>())?;
            // Every entry takes at least one byte, its key's length.
            let room = prealloc::<(String, T)>(header.count).min(self.remaining());
            let mut entries = MapEntries {
                reader: self,
                value: &mut value,
                left: header.count,
                room,
                index,
                error: None,
            };
            map.extend(&mut entries);
            if let Some(error) = entries.error {
                return Err(error);
            }
            index = entries.index;
        }
    }

    /// Reads an `array<double>` like [`Self::read_array`] (same budgets, same errors), but
    /// converts each block the input holds whole in one pass over its bytes.
    #[inline]
    pub fn read_doubles(&mut self) -> Result<Vec<f64>, DecodeError> {
        self.read_fixed_width_array(f64::from_le_bytes)
    }

    /// Reads an `array<float>` like [`Self::read_array`] (same budgets, same errors), but
    /// converts each block the input holds whole in one pass over its bytes.
    #[inline]
    pub fn read_floats(&mut self) -> Result<Vec<f32>, DecodeError> {
        self.read_fixed_width_array(f32::from_le_bytes)
    }

    /// Reads an array of items of `N` bytes each. Every block is counted against the item
    /// and memory budgets exactly as [`Self::read_array`] counts it; a block the input holds
    /// whole is converted in one pass, and one it does not is read item by item, so that the
    /// error names the item and offset where the input ends, as [`Self::read_array`]'s does.
    #[inline]
    fn read_fixed_width_array<T, const N: usize>(
        &mut self,
        from_bytes: fn([u8; N]) -> T,
    ) -> Result<Vec<T>, DecodeError> {
        let mut items = Vec::new();
        loop {
            let header = self.read_block_header()?;
            if header.count == 0 {
                return Ok(items);
            }
            self.commit(header.count, std::mem::size_of::<T>())?;
            match header.count.checked_mul(N) {
                Some(len) if len <= self.remaining() => {
                    let (chunks, _) = self.take(len)?.as_chunks::<N>();
                    items.extend(chunks.iter().map(|&chunk| from_bytes(chunk)));
                }
                _ => self.read_truncated_block(&mut items, header.count, from_bytes)?,
            }
        }
    }

    /// The items of a block of [`Self::read_fixed_width_array`] that the input ends inside.
    #[cold]
    fn read_truncated_block<T, const N: usize>(
        &mut self,
        items: &mut Vec<T>,
        count: usize,
        from_bytes: fn([u8; N]) -> T,
    ) -> Result<(), DecodeError> {
        items.reserve(prealloc::<T>(count));
        for _ in 0..count {
            let index = items.len();
            let item = self.read_fixed::<N>().map_err(|e| e.at_index(index))?;
            items.push(from_bytes(item));
        }
        Ok(())
    }

    /// Skips a `boolean`, checking it like [`Self::read_boolean`].
    #[inline]
    pub fn skip_boolean(&mut self) -> Result<(), DecodeError> {
        self.read_boolean().map(drop)
    }

    /// Skips an `int` or a `long` (a varint), checked like [`Self::read_long`]. Where eight
    /// bytes are left, the varint's end is found in all of them at once: the first byte
    /// without the continuation bit, which ends a varint of at most eight bytes (56 bits,
    /// always valid). Longer varints and the last bytes of the input take the byte loop.
    #[inline]
    pub fn skip_long(&mut self) -> Result<(), DecodeError> {
        if let Some(end) = short_varint_end(self.bytes, self.pos) {
            self.pos = end;
            return Ok(());
        }
        self.read_varint().map(drop)
    }

    /// Skips `bytes` or a `string` (without checking UTF-8). A length of one byte (up to 63)
    /// whose bytes are all there is handled inline; other lengths and every error take the
    /// length reader that [`Self::read_bytes`] uses, which checks the length against the input
    /// left.
    #[inline]
    pub fn skip_bytes(&mut self) -> Result<(), DecodeError> {
        if let Some(end) = short_bytes_end(self.bytes, self.pos) {
            self.pos = end;
            return Ok(());
        }
        let len = self.read_length()?;
        // `read_length` checked the length against the input left.
        self.pos += len;
        Ok(())
    }

    /// Skips a `fixed` of `size` bytes (also a `float`, 4, or a `double`, 8).
    #[inline]
    pub fn skip_fixed(&mut self, size: usize) -> Result<(), DecodeError> {
        self.take(size).map(drop)
    }

    /// Skips an array or map. Blocks in the negative-count form are jumped over by their
    /// byte size; the items of other blocks are skipped one by one with `item` (for a map,
    /// `item` must skip the key string too).
    pub fn skip_blocks(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        loop {
            let header = self.read_block_header()?;
            if header.count == 0 {
                return Ok(());
            }
            match header.byte_size {
                Some(size) => self.skip_fixed(size)?,
                None => {
                    for _ in 0..header.count {
                        item(self)?;
                    }
                }
            }
        }
    }
}

/// Where the varint that starts at `pos` of `bytes` ends, found in the eight bytes from `pos`
/// at once ([`Reader::skip_long`] says how), for the skip and for a caller that keeps its
/// position outside a [`Reader`]. `None` where fewer than eight bytes are left or the varint
/// is longer: the reader then reads it byte by byte.
#[inline(always)]
pub(crate) fn short_varint_end(bytes: &[u8], pos: usize) -> Option<usize> {
    let word = bytes.get(pos..)?.first_chunk::<8>()?;
    let ends = !u64::from_le_bytes(*word) & 0x8080_8080_8080_8080;
    (ends != 0).then(|| pos + ends.trailing_zeros() as usize / 8 + 1)
}

/// Where the `bytes`/`string` value that starts at `pos` of `bytes` ends, when its length
/// takes one byte (up to 63) and its bytes are all there, for [`Reader::skip_bytes`] and for a
/// caller that keeps its position outside a [`Reader`]; `None` otherwise, and the reader then
/// reads the length in full and reports what is wrong.
#[inline(always)]
pub(crate) fn short_bytes_end(bytes: &[u8], pos: usize) -> Option<usize> {
    let rest = bytes.get(pos..)?;
    let &first = rest.first()?;
    // A one-byte varint with the sign bit clear: a length of `first / 2`.
    let len = usize::from(first >> 1);
    (first & 0x81 == 0 && len < rest.len()).then(|| pos + 1 + len)
}

/// The most memory an array reserves ahead of the items it has read: a block count is
/// only checked against the budgets, which may be far larger than what a short input really
/// holds, so beyond this the `Vec` grows as items actually arrive.
const PREALLOC_BYTES: usize = 1 << 20;

/// How many items of `T` to reserve for a block of `count`.
fn prealloc<T>(count: usize) -> usize {
    count.min(PREALLOC_BYTES / std::mem::size_of::<T>().max(1))
}

/// The entries of one map block, read one by one as the map takes them; the first error
/// ends them and is kept for [`Reader::read_map`] to return.
struct MapEntries<'r, 'a, F> {
    reader: &'r mut Reader<'a>,
    value: &'r mut F,
    /// Entries of the block not read yet.
    left: usize,
    /// The entries the map may reserve room for.
    room: usize,
    /// The index of the next entry across blocks.
    index: usize,
    error: Option<DecodeError>,
}

impl<'a, T, F> Iterator for MapEntries<'_, 'a, F>
where
    F: FnMut(&mut Reader<'a>) -> Result<T, DecodeError>,
{
    type Item = (String, T);

    #[inline]
    fn next(&mut self) -> Option<(String, T)> {
        if self.left == 0 || self.error.is_some() {
            return None;
        }
        self.left -= 1;
        let index = self.index;
        self.index += 1;
        let entry = self.reader.read_string().map_err(|e| e.at_index(index));
        let entry = entry.and_then(|key| match (self.value)(self.reader) {
            Ok(value) => Ok((key.to_owned(), value)),
            Err(e) => Err(e.at_key(key)),
        });
        entry.map_err(|e| self.error = Some(e)).ok()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.room.min(self.left), Some(self.left))
    }
}

/// An array or map block header.
struct BlockHeader {
    /// The item count; 0 ends the array or map.
    count: usize,
    /// The block's byte size, for the negative-count form.
    byte_size: Option<usize>,
}

/// Writes an unsigned LEB128 varint, a byte at a time straight into `out`. (Encoding it into
/// a 10-byte buffer first and appending that in one copy measured slower: the loop filling
/// the buffer costs more than the pushes' capacity checks, which always pass.)
#[inline]
fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Writes a `boolean` as one byte, 0 or 1.
#[inline]
pub fn write_boolean(out: &mut Vec<u8>, value: bool) {
    out.push(u8::from(value));
}

/// Writes an `int` as a zig-zag varint.
#[inline]
pub fn write_int(out: &mut Vec<u8>, value: i32) {
    write_long(out, i64::from(value));
}

/// Writes a `long` as a zig-zag varint.
#[inline]
pub fn write_long(out: &mut Vec<u8>, value: i64) {
    write_varint(out, zigzag(value));
}

/// Writes a `float` as 4 little-endian bytes of its raw bits.
#[inline]
pub fn write_float(out: &mut Vec<u8>, value: f32) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// Writes a `double` as 8 little-endian bytes of its raw bits.
#[inline]
pub fn write_double(out: &mut Vec<u8>, value: f64) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// Writes a length prefix (a `long`).
#[inline]
pub(crate) fn write_len(out: &mut Vec<u8>, len: usize) {
    // A slice is never longer than isize::MAX, so this conversion is lossless.
    write_long(out, len as i64);
}

/// Writes `bytes`: the length as a `long`, then the bytes. Always inlined: a call would
/// cost more than the prefix and the copy of a short string (and `#[inline]` alone is not
/// followed in records of several strings).
#[inline(always)]
pub fn write_bytes(out: &mut Vec<u8>, value: &[u8]) {
    write_len(out, value.len());
    out.extend_from_slice(value);
}

/// Writes a `string`: the UTF-8 length as a `long`, then the bytes.
#[inline(always)]
pub fn write_string(out: &mut Vec<u8>, value: &str) {
    write_bytes(out, value.as_bytes());
}

/// Writes a `fixed`: the bytes alone (the schema fixes the size).
#[inline]
pub fn write_fixed(out: &mut Vec<u8>, value: &[u8]) {
    out.extend_from_slice(value);
}

/// Writes an array as one block with all `items` and the closing 0 (an empty array is a
/// single 0). Item errors get the item's index added to their path.
#[inline]
pub fn write_array<T>(
    out: &mut Vec<u8>,
    items: &[T],
    mut item: impl FnMut(&mut Vec<u8>, &T) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    if !items.is_empty() {
        out.reserve(items.len() + 2);
        write_len(out, items.len());
        for (index, value) in items.iter().enumerate() {
            item(out, value).map_err(|e| e.at_index(index))?;
        }
    }
    out.push(0);
    Ok(())
}

/// Writes an `array<double>` like [`write_array`], with all items in one pass over one
/// stretch of the output (no capacity check per item).
#[inline]
pub fn write_doubles(out: &mut Vec<u8>, items: &[f64]) {
    write_fixed_width_array(out, items, f64::to_le_bytes);
}

/// Writes an `array<float>` like [`write_array`], with all items in one pass over one
/// stretch of the output (no capacity check per item).
#[inline]
pub fn write_floats(out: &mut Vec<u8>, items: &[f32]) {
    write_fixed_width_array(out, items, f32::to_le_bytes);
}

/// Writes an array of items of `N` bytes each as one block: the count, then the output grown
/// once by all the items' bytes and filled in place, then the closing 0.
#[inline]
fn write_fixed_width_array<T: Copy, const N: usize>(
    out: &mut Vec<u8>,
    items: &[T],
    to_bytes: fn(T) -> [u8; N],
) {
    if !items.is_empty() {
        write_len(out, items.len());
        let start = out.len();
        out.resize(start + items.len() * N, 0);
        let (slots, _) = out[start..].as_chunks_mut::<N>();
        for (slot, &item) in slots.iter_mut().zip(items) {
            *slot = to_bytes(item);
        }
    }
    out.push(0);
}

/// Writes a map as one block of `len` entries and the closing 0 (an empty map is a single
/// 0). `entries` must yield exactly `len` entries, otherwise the error is
/// [`EncodeErrorKind::MapLengthMismatch`]. Value errors get the key added to their path.
#[inline]
pub fn write_map<'a, T: 'a>(
    out: &mut Vec<u8>,
    len: usize,
    entries: impl IntoIterator<Item = (&'a String, &'a T)>,
    mut value: impl FnMut(&mut Vec<u8>, &T) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    if len > 0 {
        write_len(out, len);
    }
    let mut written = 0;
    for (key, entry) in entries {
        write_string(out, key);
        value(out, entry).map_err(|e| e.at_key(key))?;
        written += 1;
    }
    if written != len {
        return Err(EncodeError::new(EncodeErrorKind::MapLengthMismatch {
            announced: len,
            written,
        }));
    }
    out.push(0);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples_of_zigzag_varints() {
        for (value, bytes) in [
            (0i64, &[0x00][..]),
            (-1, &[0x01]),
            (1, &[0x02]),
            (-2, &[0x03]),
            (2, &[0x04]),
            (-64, &[0x7f]),
            (64, &[0x80, 0x01]),
        ] {
            let mut out = Vec::new();
            write_long(&mut out, value);
            assert_eq!(out, bytes, "{value}");
            assert_eq!(Reader::new(bytes).read_long().unwrap(), value);
        }
    }

    #[test]
    fn spec_example_of_an_array() {
        let mut out = Vec::new();
        write_array(&mut out, &[3i64, 27], |out, v| {
            write_long(out, *v);
            Ok(())
        })
        .unwrap();
        assert_eq!(out, [0x04, 0x06, 0x36, 0x00]);
    }

    #[test]
    fn reservations_are_capped_in_bytes() {
        assert_eq!(prealloc::<u64>(1000), 1000);
        assert_eq!(prealloc::<u64>(1 << 30), PREALLOC_BYTES / 8);
        assert_eq!(prealloc::<[u8; 4096]>(1 << 20), PREALLOC_BYTES / 4096);
    }

    #[test]
    fn extreme_longs_round_trip() {
        for value in [i64::MIN, i64::MAX, i64::MIN + 1, 0] {
            let mut out = Vec::new();
            write_long(&mut out, value);
            let mut reader = Reader::new(&out);
            assert_eq!(reader.read_long().unwrap(), value);
            assert!(reader.is_empty());
        }
    }
}
