//! How a plan decodes a message: chosen once, when the plan is made, from its top-level step.

use super::flat::Flat;
use super::program::{Op, Pass, Program, RecordOp, Step};

/// How a plan decodes a message into the reader's type: the cheapest way the top-level step
/// allows, decided when the plan is compiled rather than per message.
#[derive(Debug)]
pub(crate) enum Strategy {
    /// The reader's encoding of a value is the first bytes of the writer's (the top-level
    /// record's fields are kept, then only dropped): the reader type decodes the writer's
    /// bytes in place, and then passes over these writer values, which it lacks.
    InPlace(Vec<Pass>),
    /// The top-level value is a record whose steps need no nested translation: it is
    /// translated by [`Flat::translate`] into room sized up front, then decoded.
    Flat(Flat),
    /// Anything else: the whole value is translated into a buffer, then decoded.
    Translate,
}

impl Strategy {
    /// How `program` decodes: in place when its top-level step allows, else a flat record's
    /// translation when it is one, else the general translation.
    pub(crate) fn of(program: &Program) -> Strategy {
        let root = &program.ops[program.root];
        if let Some(rest) = in_place(root) {
            return Strategy::InPlace(rest);
        }
        match root {
            Op::Record(RecordOp::InOrder(steps)) => {
                Flat::new(steps).map_or(Strategy::Translate, Strategy::Flat)
            }
            _ => Strategy::Translate,
        }
    }
}

/// The writer values to pass over after decoding the writer's bytes in place, when the
/// top-level step allows it ([`Strategy::InPlace`]): a value encoded alike, or a record whose
/// steps keep fields and then only drop some.
fn in_place(root: &Op) -> Option<Vec<Pass>> {
    match root {
        Op::Verbatim(_) => Some(Vec::new()),
        Op::Record(RecordOp::InOrder(steps)) => {
            let kept = steps
                .iter()
                .take_while(|step| matches!(step, Step::Keep(_)))
                .count();
            steps[kept..]
                .iter()
                .map(|step| match step {
                    Step::Drop(pass) => Some(*pass),
                    _ => None,
                })
                .collect()
        }
        _ => None,
    }
}
