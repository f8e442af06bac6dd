//! The compiled form of a resolution plan: a graph of translation steps held in arenas and
//! referred to by index, so that recursive schemas compile to finite plans.

/// Index of an [`Op`] in [`Program::ops`].
pub(crate) type OpId = usize;
/// Index of a [`Skip`] in [`Program::skips`].
pub(crate) type SkipId = usize;

/// All steps of one plan.
#[derive(Debug, Default)]
pub(crate) struct Program {
    pub(crate) ops: Vec<Op>,
    pub(crate) skips: Vec<Skip>,
    /// The step for the top-level value.
    pub(crate) root: OpId,
}

/// How to pass over one writer value without producing anything (its bytes may still be
/// copied verbatim by the caller).
#[derive(Debug, Clone)]
pub(crate) enum Skip {
    /// `boolean`.
    Boolean,
    /// `int`, `long` and enum indexes.
    Varint,
    /// `null` (0 bytes), `float`, `double` and `fixed`.
    Fixed(usize),
    /// `bytes` and `string`.
    Bytes,
    /// A record: its fields in order.
    Record(Vec<Pass>),
    /// An array of items.
    Array(SkipId),
    /// A map with values.
    Map(SkipId),
    /// A union: the branch index, then the branch.
    Union(Vec<Pass>),
    /// A placeholder while a recursive record is being compiled; never run.
    Pending,
}

/// How to turn one writer value into the reader's encoding of it.
#[derive(Debug, Clone)]
pub(crate) enum Op {
    /// Writer and reader encode this value the same way: skip it and copy its bytes.
    Verbatim(SkipId),
    /// A number read as a wider type.
    Promote(Promotion),
    /// A record whose fields are kept, dropped, reordered or defaulted.
    Record(RecordOp),
    /// An enum: the reader's index for each writer index.
    Enum(Vec<u32>),
    /// An array whose items are translated.
    Array(OpId),
    /// A map whose values are translated.
    Map(OpId),
    /// A writer union read as a reader union: for each writer branch, the reader branch
    /// index and the step for the value.
    UnionToUnion(Vec<(u32, OpId)>),
    /// A writer union read as a non-union: the step for each writer branch.
    UnionToOne(Vec<OpId>),
    /// A non-union read as a branch of a reader union: the branch index, then the value.
    OneToUnion(u32, OpId),
    /// A placeholder while a recursive named type is being compiled; never run.
    Pending,
}

/// A number the reader reads as a wider type (Avro specification, "Schema Resolution").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Promotion {
    /// `int` read as `float`.
    IntToFloat,
    /// `int` read as `double`.
    IntToDouble,
    /// `long` read as `float`.
    LongToFloat,
    /// `long` read as `double`.
    LongToDouble,
    /// `float` read as `double`.
    FloatToDouble,
}

/// How a record is rebuilt in the reader's field order.
#[derive(Debug, Clone)]
pub(crate) enum RecordOp {
    /// The reader's fields come in the writer's order (some may be new, with defaults): the
    /// steps run one after the other.
    InOrder(Vec<Step>),
    /// The reader reorders the writer's fields: every writer field is translated (or
    /// skipped) in writer order, then the pieces are put in reader order.
    Reordered {
        /// For each writer field, the reader field it feeds and the step, or a skip.
        writer_fields: Vec<WriterField>,
        /// For each reader field, its pre-encoded default when the writer lacks it.
        reader_defaults: Vec<Option<Vec<u8>>>,
    },
}

/// One step of an in-order record.
///
/// Runs of values both schemas encode alike are not copied value by value: [`Step::Keep`]
/// only passes over a value, and the bytes passed over since the last step that wrote are
/// copied in one piece when the next step writes, or when the record ends.
#[derive(Debug, Clone)]
pub(crate) enum Step {
    /// A writer field the reader reads with the same bytes: passed over, copied later.
    Keep(Pass),
    /// A writer field the reader does not have: passed over, its bytes dropped.
    Drop(Pass),
    /// A writer number the reader reads as a wider type.
    Promote(Promotion),
    /// Translate one writer field.
    Op(OpId),
    /// Emit the defaults of consecutive reader fields the writer lacks, encoded when the
    /// plan was built.
    Default(Vec<u8>),
}

/// How to pass over one writer value in a record's steps or a skipped record or union: the
/// common widths directly, anything else through its [`Skip`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pass {
    /// `int`, `long` and enum indexes.
    Varint,
    /// `bytes` and `string`.
    Bytes,
    /// `float`, `double`, `fixed`, and runs of them: this many bytes.
    Fixed(usize),
    /// Another value.
    Value(SkipId),
}

/// A writer field of a reordered record.
#[derive(Debug, Clone)]
pub(crate) enum WriterField {
    /// Feeds reader field `reader_index` through `op`.
    Read {
        /// The reader field's position.
        reader_index: usize,
        /// The translation.
        op: OpId,
    },
    /// The reader does not have it.
    Skip(SkipId),
}
