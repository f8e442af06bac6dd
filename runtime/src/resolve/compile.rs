//! Compiling a (writer, reader) schema pair into a [`Program`], following the same rules as
//! the compatibility checker ([`crate::compat::rules`]).

use std::collections::HashMap;

use super::program::{
    Op, OpId, Pass, Program, Promotion, RecordOp, Skip, SkipId, Step, WriterField,
};
use crate::avro_json::encode_default;
use crate::compat::rules::{reader_branch, writer_field};
use crate::compat::SchemaRef;
use crate::schema::{Field, NamedKind, Schema, SchemaKind, SchemaSet};

/// Compiles the plan that turns `writer` data into `reader` data. The pair must have passed
/// the compatibility check; an error here names what still cannot be read.
pub(crate) fn compile(reader: SchemaRef<'_>, writer: SchemaRef<'_>) -> Result<Program, String> {
    let mut compiler = Compiler {
        reader: reader.set,
        writer: writer.set,
        program: Program::default(),
        named_ops: HashMap::new(),
        named_skips: HashMap::new(),
    };
    let root = compiler.op(reader.schema, writer.schema)?;
    let mut program = compiler.program;
    program.root = root;
    Ok(program)
}

struct Compiler<'a> {
    reader: &'a SchemaSet,
    writer: &'a SchemaSet,
    program: Program,
    /// Steps of (reader, writer) named type pairs, so recursion reuses them.
    named_ops: HashMap<(String, String), OpId>,
    /// Skips of writer named types.
    named_skips: HashMap<String, SkipId>,
}

impl Compiler<'_> {
    fn push_op(&mut self, op: Op) -> OpId {
        self.program.ops.push(op);
        self.program.ops.len() - 1
    }

    fn push_skip(&mut self, skip: Skip) -> SkipId {
        self.program.skips.push(skip);
        self.program.skips.len() - 1
    }

    fn verbatim(&mut self, writer: &Schema) -> OpId {
        let skip = self.skip(writer);
        self.push_op(Op::Verbatim(skip))
    }

    fn is_verbatim(&self, op: OpId) -> bool {
        matches!(self.program.ops[op], Op::Verbatim(_))
    }

    /// The step reading a `writer` value as a `reader` one. Wherever both encode the value
    /// with the same bytes (same types, `int` as `long`, `string` as `bytes`, records whose
    /// fields all are, enums whose indexes stay...), the step is [`Op::Verbatim`], so such
    /// values are copied rather than translated.
    fn op(&mut self, reader: &Schema, writer: &Schema) -> Result<OpId, String> {
        use SchemaKind as K;
        let op = match (&reader.kind, &writer.kind) {
            (K::Named(_), K::Named(_)) => return self.named(reader, writer),
            (K::Union(branches), K::Union(writer_branches)) => {
                let mut steps = Vec::with_capacity(writer_branches.len());
                for branch in writer_branches {
                    let index = self.branch(branches, branch)?;
                    steps.push((index as u32, self.op(&branches[index], branch)?));
                }
                let same = steps
                    .iter()
                    .enumerate()
                    .all(|(i, &(index, op))| index as usize == i && self.is_verbatim(op));
                if same {
                    return Ok(self.verbatim(writer));
                }
                Op::UnionToUnion(steps)
            }
            (_, K::Union(writer_branches)) => {
                let steps = writer_branches.iter().map(|b| self.op(reader, b));
                Op::UnionToOne(steps.collect::<Result<_, _>>()?)
            }
            (K::Union(branches), _) => {
                let index = self.branch(branches, writer)?;
                Op::OneToUnion(index as u32, self.op(&branches[index], writer)?)
            }
            (K::Array(r), K::Array(w)) => match self.op(r, w)? {
                items if self.is_verbatim(items) => return Ok(self.verbatim(writer)),
                items => Op::Array(items),
            },
            (K::Map(r), K::Map(w)) => match self.op(r, w)? {
                values if self.is_verbatim(values) => return Ok(self.verbatim(writer)),
                values => Op::Map(values),
            },
            (K::Long, K::Int) | (K::Bytes, K::String) | (K::String, K::Bytes) => {
                return Ok(self.verbatim(writer));
            }
            (r, w) if r == w => return Ok(self.verbatim(writer)),
            (K::Float, K::Int) => Op::Promote(Promotion::IntToFloat),
            (K::Double, K::Int) => Op::Promote(Promotion::IntToDouble),
            (K::Float, K::Long) => Op::Promote(Promotion::LongToFloat),
            (K::Double, K::Long) => Op::Promote(Promotion::LongToDouble),
            (K::Double, K::Float) => Op::Promote(Promotion::FloatToDouble),
            _ => return Err(self.mismatch(reader, writer)),
        };
        Ok(self.push_op(op))
    }

    fn mismatch(&self, reader: &Schema, writer: &Schema) -> String {
        format!(
            "the writer's {} cannot be read as the reader's {}",
            self.writer.to_json(writer),
            self.reader.to_json(reader)
        )
    }

    fn branch(&self, branches: &[Schema], writer: &Schema) -> Result<usize, String> {
        reader_branch(self.reader, branches, self.writer, writer).ok_or_else(|| {
            format!(
                "no branch of the reader's union reads the writer's {}",
                self.writer.to_json(writer)
            )
        })
    }

    fn named(&mut self, reader: &Schema, writer: &Schema) -> Result<OpId, String> {
        let (Some(r), Some(w)) = (self.reader.resolve(reader), self.writer.resolve(writer)) else {
            return Err(self.mismatch(reader, writer));
        };
        let key = (r.name.full_name(), w.name.full_name());
        if let Some(&id) = self.named_ops.get(&key) {
            return Ok(id);
        }
        let id = self.push_op(Op::Pending);
        self.named_ops.insert(key, id);
        let op = match (&r.kind, &w.kind) {
            (NamedKind::Record { fields: rf, .. }, NamedKind::Record { fields: wf, .. }) => {
                Op::Record(self.record(rf, wf)?)
            }
            (
                NamedKind::Enum {
                    symbols: rs,
                    default,
                },
                NamedKind::Enum { symbols: ws, .. },
            ) => {
                let index = |symbol: &String| rs.iter().position(|s| s == symbol);
                let fallback = default.as_ref().and_then(index);
                let map = ws.iter().map(|s| {
                    let i = index(s).or(fallback);
                    i.map(|i| i as u32).ok_or_else(|| {
                        format!(
                            "the reader's enum {} has no symbol {s:?} and no default",
                            r.name
                        )
                    })
                });
                Op::Enum(map.collect::<Result<_, _>>()?)
            }
            (NamedKind::Fixed { size: rs }, NamedKind::Fixed { size: ws }) if rs == ws => {
                Op::Verbatim(self.skip(writer))
            }
            _ => return Err(self.mismatch(reader, writer)),
        };
        self.program.ops[id] = if same_bytes(&op) {
            Op::Verbatim(self.skip(writer))
        } else {
            op
        };
        Ok(id)
    }

    fn record(
        &mut self,
        reader_fields: &[Field],
        writer_fields: &[Field],
    ) -> Result<RecordOp, String> {
        // The writer field feeding each reader field; a writer field feeds at most one.
        let mut sources: Vec<Option<usize>> = Vec::with_capacity(reader_fields.len());
        for field in reader_fields {
            let source = writer_field(field, writer_fields).map(|(i, _)| i);
            sources.push(source.filter(|i| !sources.contains(&Some(*i))));
        }
        let fed: Vec<usize> = sources.iter().flatten().copied().collect();
        if fed.windows(2).all(|pair| pair[0] < pair[1]) {
            self.in_order(reader_fields, writer_fields, &sources)
                .map(RecordOp::InOrder)
        } else {
            self.reordered(reader_fields, writer_fields, &sources)
        }
    }

    fn default_of(&self, field: &Field) -> Result<Vec<u8>, String> {
        let default = field.default.as_ref().ok_or_else(|| {
            format!(
                "the reader's field {:?} is not written and has no default",
                field.name
            )
        })?;
        // Encoded once, here, by the JSON encoding's reader of defaults; the schema model
        // has checked the default when the schema was parsed, so this only fails for a
        // schema built by hand.
        let mut bytes = Vec::new();
        encode_default(self.reader, &field.schema, default, &mut bytes).map_err(|e| {
            let schema = self.reader.to_json(&field.schema);
            format!("default {default} does not match {schema}: {e}")
        })?;
        Ok(bytes)
    }

    fn in_order(
        &mut self,
        reader_fields: &[Field],
        writer_fields: &[Field],
        sources: &[Option<usize>],
    ) -> Result<Vec<Step>, String> {
        let mut steps = Vec::new();
        let mut next_writer = 0;
        for (field, source) in reader_fields.iter().zip(sources) {
            let Some(source) = *source else {
                let default = Step::Default(self.default_of(field)?);
                self.push_step(&mut steps, default, FLATTENED_LEVELS);
                continue;
            };
            self.drop_fields(&writer_fields[next_writer..source], &mut steps);
            let writer = &writer_fields[source].schema;
            let op = self.op(&field.schema, writer)?;
            let step = match &self.program.ops[op] {
                Op::Verbatim(_) => Step::Keep(self.pass(writer)),
                Op::Promote(promotion) => Step::Promote(*promotion),
                _ => Step::Op(op),
            };
            self.push_step(&mut steps, step, FLATTENED_LEVELS);
            next_writer = source + 1;
        }
        self.drop_fields(&writer_fields[next_writer..], &mut steps);
        Ok(steps)
    }

    /// Adds the steps passing over writer fields the reader does not have.
    fn drop_fields(&mut self, dropped: &[Field], steps: &mut Vec<Step>) {
        for field in dropped {
            let step = Step::Drop(self.pass(&field.schema));
            self.push_step(steps, step, FLATTENED_LEVELS);
        }
    }

    /// Adds `step` to a record's steps, merged into the last one where that saves a step:
    /// fixed widths passed over the same way add up, defaults in a row become one, and a
    /// value that takes no bytes needs no step. A nested record whose fields are all
    /// translated in order, or all passed over alike, is replaced by the steps of its fields
    /// (for `levels` more levels of nesting), so that its fields merge with those around it.
    fn push_step(&self, steps: &mut Vec<Step>, step: Step, levels: usize) {
        let nested = match &step {
            Step::Op(op) => match &self.program.ops[*op] {
                Op::Record(RecordOp::InOrder(inner)) => Some(inner.clone()),
                _ => None,
            },
            Step::Keep(Pass::Value(skip)) | Step::Drop(Pass::Value(skip)) => {
                match &self.program.skips[*skip] {
                    Skip::Record(fields) => {
                        let keep = matches!(step, Step::Keep(_));
                        let field = |&pass| {
                            if keep {
                                Step::Keep(pass)
                            } else {
                                Step::Drop(pass)
                            }
                        };
                        Some(fields.iter().map(field).collect())
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        match nested {
            Some(inner) if levels > 0 => {
                for step in inner {
                    self.push_step(steps, step, levels - 1);
                }
            }
            _ => merge_step(steps, step),
        }
    }

    /// How to pass over a `writer` value: by its width where it has a simple one, so that a
    /// record's step or field passes over it without a skip of its own, else by its skip.
    fn pass(&mut self, writer: &Schema) -> Pass {
        let skip = self.skip(writer);
        match self.program.skips[skip] {
            Skip::Varint => Pass::Varint,
            Skip::Bytes => Pass::Bytes,
            Skip::Fixed(size) => Pass::Fixed(size),
            _ => Pass::Value(skip),
        }
    }

    fn reordered(
        &mut self,
        reader_fields: &[Field],
        writer_fields: &[Field],
        sources: &[Option<usize>],
    ) -> Result<RecordOp, String> {
        let mut fields = Vec::with_capacity(writer_fields.len());
        for (i, writer) in writer_fields.iter().enumerate() {
            let field = match sources.iter().position(|s| *s == Some(i)) {
                Some(reader_index) => WriterField::Read {
                    reader_index,
                    op: self.op(&reader_fields[reader_index].schema, &writer.schema)?,
                },
                None => WriterField::Skip(self.skip(&writer.schema)),
            };
            fields.push(field);
        }
        let defaults = reader_fields
            .iter()
            .zip(sources)
            .map(|(field, source)| match source {
                Some(_) => Ok(None),
                None => self.default_of(field).map(Some),
            })
            .collect::<Result<_, _>>()?;
        Ok(RecordOp::Reordered {
            writer_fields: fields,
            reader_defaults: defaults,
        })
    }

    fn skip(&mut self, writer: &Schema) -> SkipId {
        let skip = match &writer.kind {
            SchemaKind::Null => Skip::Fixed(0),
            SchemaKind::Boolean => Skip::Boolean,
            SchemaKind::Int | SchemaKind::Long => Skip::Varint,
            SchemaKind::Float => Skip::Fixed(4),
            SchemaKind::Double => Skip::Fixed(8),
            SchemaKind::Bytes | SchemaKind::String => Skip::Bytes,
            SchemaKind::Array(items) => Skip::Array(self.skip(items)),
            SchemaKind::Map(values) => Skip::Map(self.skip(values)),
            SchemaKind::Union(branches) => {
                Skip::Union(branches.iter().map(|b| self.pass(b)).collect())
            }
            SchemaKind::Named(name) => return self.named_skip(&name.full_name()),
        };
        self.push_skip(skip)
    }

    fn named_skip(&mut self, full_name: &str) -> SkipId {
        if let Some(&id) = self.named_skips.get(full_name) {
            return id;
        }
        let id = self.push_skip(Skip::Pending);
        self.named_skips.insert(full_name.to_owned(), id);
        let writer = self.writer;
        let skip = match writer.get(full_name).map(|n| &n.kind) {
            Some(NamedKind::Record { fields, .. }) => {
                Skip::Record(fields.iter().map(|f| self.pass(&f.schema)).collect())
            }
            Some(NamedKind::Enum { .. }) => Skip::Varint,
            Some(NamedKind::Fixed { size }) => Skip::Fixed(*size),
            // The parser only lets registered names be referenced.
            None => Skip::Fixed(0),
        };
        self.program.skips[id] = skip;
        id
    }
}

/// How many levels of nested records [`Compiler::push_step`] replaces by their fields' steps
/// (a bound, since a record may hold itself).
const FLATTENED_LEVELS: usize = 8;

/// Whether a compiled record or enum step writes exactly the bytes it reads: a record that is
/// one copied run, an enum whose indexes all stay.
fn same_bytes(op: &Op) -> bool {
    match op {
        Op::Record(RecordOp::InOrder(steps)) => {
            steps.iter().all(|step| matches!(step, Step::Keep(_)))
        }
        Op::Enum(map) => map
            .iter()
            .enumerate()
            .all(|(i, &index)| index as usize == i),
        _ => false,
    }
}

/// Adds `step` to the end of `steps`, merged into the last step where they add up: fixed
/// widths passed over the same way, defaults in a row; a value that takes no bytes needs no
/// step.
fn merge_step(steps: &mut Vec<Step>, step: Step) {
    match (steps.last_mut(), step) {
        (_, Step::Keep(Pass::Fixed(0)) | Step::Drop(Pass::Fixed(0))) => {}
        (Some(Step::Keep(Pass::Fixed(a))), Step::Keep(Pass::Fixed(b)))
        | (Some(Step::Drop(Pass::Fixed(a))), Step::Drop(Pass::Fixed(b))) => *a += b,
        (Some(Step::Default(a)), Step::Default(b)) => a.extend_from_slice(&b),
        (_, step) => steps.push(step),
    }
}
