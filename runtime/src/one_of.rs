//! A value of one of several named types ([`OneOf`]): the Rust form of a topic that carries
//! several record types (one subject per type under RecordNameStrategy or
//! TopicRecordNameStrategy), where a reader picks the type by the full name of the schema
//! that wrote each message, as Java's specific reader picks the class.
//!
//! The derive `#[derive(AvroOneOf)]` implements it for an enum of one-field tuple variants,
//! each holding a generated or derived type; one variant marked `#[avro(other)]` and holding a
//! [`GenericRecord`] takes any other writer type. [`crate::resolve::Consumer::decode_one_of`]
//! reads a message into the variant its writer's full name (or one of the variant type's
//! aliases) names, resolving each variant's versions by its own plan.
//!
//! ```
//! use avdl2rs::{Avro, AvroOneOf, OneOf};
//!
//! #[derive(Avro, Debug, PartialEq)]
//! #[avro(namespace = "shop")]
//! struct OrderCreated { id: i64 }
//!
//! #[derive(Avro, Debug, PartialEq)]
//! #[avro(namespace = "shop")]
//! struct OrderPaid { id: i64, amount: f64 }
//!
//! #[derive(AvroOneOf, Debug, PartialEq)]
//! enum OrderEvent {
//!     Created(OrderCreated),
//!     Paid(OrderPaid),
//! }
//!
//! assert_eq!(OrderEvent::VARIANTS, ["shop.OrderCreated", "shop.OrderPaid"]);
//! let paid = OrderEvent::Paid(OrderPaid { id: 7, amount: 2.5 });
//! assert_eq!(paid.variant(), Some(1));
//! // Each variant is written in its own type's encoding, not as a union branch.
//! let mut out = Vec::new();
//! paid.encode_variant(&mut out)?;
//! assert_eq!(out, OrderPaid { id: 7, amount: 2.5 }.to_avro_bytes()?);
//! # Ok::<(), avdl2rs::EncodeError>(())
//! ```

use crate::generic::GenericRecord;
use crate::{AvroDecode, AvroEncode, AvroSchema, EncodeError};

/// A value of one of several generated or derived types, told apart by their full names.
///
/// Implemented by `#[derive(AvroOneOf)]`; the methods taking visitors let code that is
/// generic over one type at a time (a resolution plan, a subject's schema id) work on the
/// variant's own type.
pub trait OneOf: Sized + 'static {
    /// The full names of the variants' types, in declaration order; the catch-all variant,
    /// which has no type of its own, is not among them.
    const VARIANTS: &'static [&'static str];

    /// Whether a catch-all variant takes the records of writer types no variant is.
    const CATCH_ALL: bool;

    /// Hands `visitor` the type of the variant at `index` in [`OneOf::VARIANTS`], with the
    /// function wrapping a value of it into `Self`; `None` when there is no such variant.
    fn visit_variant<V: VisitVariant<Self>>(index: usize, visitor: V) -> Option<V::Output>;

    /// Hands `visitor` the value this holds; `None` for the catch-all variant.
    fn visit_value<V: VisitValue>(&self, visitor: V) -> Option<V::Output>;

    /// The index in [`OneOf::VARIANTS`] of the variant this holds; `None` for the catch-all.
    fn variant(&self) -> Option<usize>;

    /// A record of a writer type that no variant is, in the catch-all variant; `None` when
    /// the enum has none (then such a record is an error for the reader).
    fn other(record: GenericRecord) -> Option<Self>;

    /// Appends the value in its own type's encoding (not as a union branch). The catch-all
    /// variant is not written: a generic record read from elsewhere has no subject here.
    fn encode_variant(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        struct Encode<'a>(&'a mut Vec<u8>);
        impl VisitValue for Encode<'_> {
            type Output = Result<(), EncodeError>;
            fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(
                self,
                value: &T,
            ) -> Self::Output {
                value.encode(self.0)
            }
        }
        self.visit_value(Encode(out))
            .unwrap_or_else(|| Err(catch_all_not_written()))
    }

    /// Whether the type of one variant has the schema whose Parsing Canonical Form is
    /// `canonical`: data written with it is read as written, nothing migrates.
    fn has_variant_schema(canonical: &str) -> bool {
        struct Same<'a>(&'a str);
        impl<E> VisitVariant<E> for Same<'_> {
            type Output = bool;
            fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(
                self,
                _: fn(T) -> E,
            ) -> bool {
                T::CANONICAL_FORM == self.0
            }
        }
        (0..Self::VARIANTS.len()).any(|i| Self::visit_variant(i, Same(canonical)) == Some(true))
    }
}

/// The error of writing the catch-all variant of a [`OneOf`].
pub fn catch_all_not_written() -> EncodeError {
    EncodeError::custom(
        "the catch-all variant holds a record of a type the enum does not know; it is read, not written",
    )
}

/// Code generic over the type of one variant of a [`OneOf`] `E`.
pub trait VisitVariant<E> {
    /// What the visit gives.
    type Output;

    /// Visits the variant type `T`; `wrap` makes the enum of one of its values. `T` is
    /// `'static` (it is a field of a `'static` enum), so a visitor can tell the types apart by
    /// their `TypeId` (a registry serializer keeps one serializer per variant type).
    fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(
        self,
        wrap: fn(T) -> E,
    ) -> Self::Output;
}

/// Code generic over the type of the value a [`OneOf`] holds.
pub trait VisitValue {
    /// What the visit gives.
    type Output;

    /// Visits `value`, of the variant's type `T` (`'static`, as in [`VisitVariant::visit`]).
    fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(self, value: &T) -> Self::Output;
}
