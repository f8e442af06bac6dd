//! The [`OneOfSerializer`]: values of a [`OneOf`] enum, several record types in one topic.
//!
//! Under RecordNameStrategy or TopicRecordNameStrategy each variant's type is written under
//! its own subject, in its own encoding, by a [`Serializer`] of that type: one per variant,
//! built through [`OneOf::visit_variant`] and found again by its `TypeId`, so registering,
//! looking up, the latest version, references and write rules are the single-type
//! serializer's own steps, and each (topic, variant) id is found once and kept as it keeps
//! it.
//!
//! Under TopicNameStrategy the one subject `<topic>-value` holds a union of the variants'
//! types, as Confluent documents for several event types in one topic: a
//! [`GenericSerializer`] of that union finds its id (with
//! [`SchemaReferences::Registered`](super::SchemaReferences::Registered), each variant's type
//! registered under its full name and the union naming them through references, Confluent's
//! form; inline, the union defining them), and each value is written as the union's branch:
//! the variant's index, then its body.

use std::any::Any;
use std::marker::PhantomData;
use std::sync::Arc;

use avdl2rs::one_of::{catch_all_not_written, VisitValue, VisitVariant};
use avdl2rs::schema::{SchemaError, SchemaSet};
use avdl2rs::{codec, AvroDecode, AvroEncode, AvroSchema, EncodeError, OneOf, SubjectNameStrategy};

use super::target::Target;
use super::{write_frame, GenericSerializer, SerdeError, Serializer, SerializerConfig};

/// A variant type's [`Serializer`], its type erased to keep the serializers of all variants in
/// one list.
type Erased = Box<dyn Any + Send + Sync>;

/// Frames values of the [`OneOf`] enum `E` for Kafka, asking the registry through the client
/// `C` (`blocking::Client` or `nonblocking::Client`): a topic carrying several record types.
///
/// With RecordNameStrategy or TopicRecordNameStrategy each value is written in its variant
/// type's own encoding, under the schema id of that type's subject: `<full name>` or
/// `<topic>-<full name>`, and the settings of [`SerializerConfig`] apply to each variant as to
/// a single type. With TopicNameStrategy (the default) `<topic>-value` holds the union of the
/// variants' types, in the order of [`OneOf::VARIANTS`], and each value is written as its
/// branch; with [`SchemaReferences::Registered`](super::SchemaReferences::Registered) the union
/// names the types, each registered under its full name, through schema references, else it
/// defines them. (Either way the union is built from the variants' schemas, so two variants
/// cannot hold different definitions of one named type: writing is then a
/// [`SerdeError::Schema`].) The deserializers of this crate and of Confluent's clients read
/// both shapes.
///
/// The catch-all variant (`#[avro(other)]`) is read, never written: writing it is an error.
/// Share it between threads.
pub struct OneOfSerializer<E, C> {
    shape: Shape<C>,
    _enum: PhantomData<fn(&E)>,
}

/// How the values of a [`OneOfSerializer`] reach the registry.
enum Shape<C> {
    /// `Serializer<T, C>` of each variant type `T`, in the order of [`OneOf::VARIANTS`].
    Variants(Vec<Erased>),
    /// The serializer of the union of the variants' types, or why there is none (boxed: one
    /// per serializer, far larger than the list).
    Union(Result<Box<GenericSerializer<C>>, String>),
}

impl<E: OneOf, C: Send + Sync + 'static> OneOfSerializer<E, C> {
    /// A serializer asking `client` for each variant's id as `config` says.
    pub fn new(client: Arc<C>, config: SerializerConfig) -> Self {
        let shape = match config.subject_strategy {
            SubjectNameStrategy::TopicName => Shape::Union(union_of::<E, C>(client, config)),
            _ => Shape::Variants(variants_of::<E, C>(&client, &config)),
        };
        OneOfSerializer {
            shape,
            _enum: PhantomData,
        }
    }

    /// The subject the values of the variant at `variant` (an index in [`OneOf::VARIANTS`])
    /// are registered under on `topic`; `None` when there is no such variant.
    pub fn subject(&self, topic: &str, variant: usize) -> Option<String> {
        match &self.shape {
            Shape::Variants(variants) => {
                let subject = Subject::<C> {
                    erased: variants.get(variant)?,
                    topic,
                    _client: PhantomData,
                };
                E::visit_variant(variant, subject).flatten()
            }
            Shape::Union(union) => {
                let union = union.as_ref().ok().filter(|_| variant < E::VARIANTS.len());
                union.map(|union| union.subject(topic))
            }
        }
    }

    /// The index of the variant `value` holds; the catch-all variant is an error.
    pub(crate) fn index_of(value: &E) -> Result<usize, SerdeError> {
        Ok(value.variant().ok_or_else(catch_all_not_written)?)
    }

    /// The type-erased serializer of the variant at `index`, or the union's serializer.
    pub(crate) fn writer_at(&self, index: usize) -> Result<Writer<'_, C>, SerdeError> {
        match &self.shape {
            Shape::Variants(variants) => match variants.get(index) {
                Some(erased) => Ok(Writer::Variant(erased)),
                None => Err(EncodeError::custom(format!("no variant {index}")).into()),
            },
            Shape::Union(_) if index >= E::VARIANTS.len() => {
                Err(EncodeError::custom(format!("no variant {index}")).into())
            }
            Shape::Union(Ok(union)) => Ok(Writer::Union(union.as_ref())),
            Shape::Union(Err(message)) => Err(SerdeError::Schema {
                type_name: std::any::type_name::<E>(),
                message: message.clone(),
            }),
        }
    }
}

/// What writes the values of one variant.
pub(crate) enum Writer<'a, C> {
    /// The variant type's own serializer.
    Variant(&'a Erased),
    /// The union's serializer.
    Union(&'a GenericSerializer<C>),
}

/// The serializer of each variant type of `E`.
fn variants_of<E: OneOf, C: Send + Sync + 'static>(
    client: &Arc<C>,
    config: &SerializerConfig,
) -> Vec<Erased> {
    let build = |index| E::visit_variant(index, Build { client, config });
    (0..E::VARIANTS.len()).filter_map(build).collect()
}

/// The serializer of the union of `E`'s variant types, or why it cannot be made (two
/// variants holding different definitions of one named type).
fn union_of<E: OneOf, C>(
    client: Arc<C>,
    config: SerializerConfig,
) -> Result<Box<GenericSerializer<C>>, String> {
    let texts = (0..E::VARIANTS.len()).filter_map(|index| E::visit_variant(index, SchemaText));
    let union = format!("[{}]", texts.collect::<Vec<_>>().join(","));
    // Written back by the schema model, a named type two variants hold is defined once.
    let mut set = SchemaSet::new();
    let refused = |e: SchemaError| format!("the union of the variants' types: {e}");
    let root = set.parse_str(&union).map_err(refused)?;
    let union = set.to_json(&root).to_string();
    GenericSerializer::new(client, &union, config)
        .map_err(refused)
        .map(Box::new)
}

/// The schema text of one variant type.
struct SchemaText;

impl<E> VisitVariant<E> for SchemaText {
    type Output = &'static str;
    fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(
        self,
        _: fn(T) -> E,
    ) -> Self::Output {
        T::SCHEMA_JSON
    }
}

/// A value written as the branch of the union of its enum's variant types: the variant's
/// index, then the value in its type's encoding.
pub(crate) struct Branch<'a, E> {
    pub(crate) index: usize,
    pub(crate) value: &'a E,
}

impl<E: OneOf> AvroEncode for Branch<'_, E> {
    fn encode(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        codec::write_long(out, self.index as i64);
        self.value.encode_variant(out)
    }
}

/// The serializer of `T`, when `erased` is one.
pub(crate) fn downcast<T: 'static, C: 'static>(
    erased: &Erased,
) -> Result<&Serializer<T, C>, SerdeError> {
    let serializer = erased.downcast_ref::<Serializer<T, C>>();
    serializer.ok_or_else(|| EncodeError::custom("a variant's serializer of another type").into())
}

/// Builds the serializer of one variant type.
struct Build<'a, C> {
    client: &'a Arc<C>,
    config: &'a SerializerConfig,
}

impl<E, C: Send + Sync + 'static> VisitVariant<E> for Build<'_, C> {
    type Output = Erased;
    fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(self, _: fn(T) -> E) -> Erased {
        let client = Arc::clone(self.client);
        Box::new(Serializer::<T, C>::new(client, self.config.clone()))
    }
}

/// The subject of one variant type on a topic.
struct Subject<'a, C> {
    erased: &'a Erased,
    topic: &'a str,
    _client: PhantomData<C>,
}

impl<E, C: 'static> VisitVariant<E> for Subject<'_, C> {
    type Output = Option<String>;
    fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(
        self,
        _: fn(T) -> E,
    ) -> Self::Output {
        let serializer = downcast::<T, C>(self.erased).ok();
        serializer.map(|s| s.subject(self.topic))
    }
}

/// Writes a value with the target its variant's serializer already knows for the topic,
/// asking the registry nothing: `None` when it knows none yet.
pub(crate) struct Warm<'a, C> {
    pub(crate) erased: &'a Erased,
    pub(crate) topic: &'a str,
    pub(crate) out: &'a mut Vec<u8>,
    pub(crate) _client: PhantomData<C>,
}

impl<C: 'static> VisitValue for Warm<'_, C> {
    type Output = Option<Result<(), SerdeError>>;
    #[inline]
    fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(self, value: &T) -> Self::Output {
        let serializer = downcast::<T, C>(self.erased).ok()?;
        serializer.write_known(self.topic, value, self.out)
    }
}

/// Writes a value with a target just found.
pub(crate) struct Framed<'a> {
    pub(crate) target: &'a Target,
    pub(crate) out: &'a mut Vec<u8>,
}

impl VisitValue for Framed<'_> {
    type Output = Result<(), SerdeError>;
    fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(self, value: &T) -> Self::Output {
        write_frame(self.target, value, self.out)
    }
}

/// The steps of a [`OneOfSerializer`] that may ask the registry, for both transports:
/// `$resolve` is the transport's visitor finding a variant's target (a future for the async
/// one), `$client` its client.
macro_rules! one_of_serializer_methods {
    ($resolve:ident, $client:ty; $($async:ident)?; $($await:tt)*) => {
        /// Writes the frame of `value` on `topic` to `out`, which is cleared first and can be
        /// reused between messages: the variant's type under its own subject's schema id, or
        /// the union's branch under the union's.
        #[inline]
        pub $($async)? fn serialize_into(&self, topic: &str, value: &E, out: &mut Vec<u8>) -> Result<(), SerdeError> {
            let index = Self::index_of(value)?;
            let erased = match self.writer_at(index)? {
                Writer::Variant(erased) => erased,
                Writer::Union(union) => {
                    let target = union.target(topic) $($await)*?;
                    return write_frame(&target, &Branch { index, value }, out);
                }
            };
            let warm = Warm::<$client> { erased, topic, out, _client: PhantomData };
            if let Some(written) = value.visit_value(warm).flatten() {
                return written;
            }
            let target = self.variant_target(index, topic) $($await)*?;
            let written = value.visit_value(Framed { target: &target, out });
            written.unwrap_or_else(|| Err(catch_all_not_written().into()))
        }

        /// The frame of `value` on `topic`.
        pub $($async)? fn serialize(&self, topic: &str, value: &E) -> Result<Vec<u8>, SerdeError> {
            let mut out = Vec::new();
            self.serialize_into(topic, value, &mut out) $($await)*?;
            Ok(out)
        }

        /// The schema id the values of the variant at `variant` (an index in
        /// [`OneOf::VARIANTS`]) are written under on `topic`.
        pub $($async)? fn schema_id(&self, topic: &str, variant: usize) -> Result<i32, SerdeError> {
            self.variant_target(variant, topic) $($await)* .map(|t| t.id)
        }

        /// The target of the variant at `index` on `topic`, from its serializer.
        $($async)? fn variant_target(&self, index: usize, topic: &str) -> Result<Target, SerdeError> {
            let erased = match self.writer_at(index)? {
                Writer::Variant(erased) => erased,
                Writer::Union(union) => return union.target(topic) $($await)*,
            };
            let resolve = E::visit_variant(index, $resolve { erased, topic });
            let resolve = resolve.ok_or_else(|| EncodeError::custom(format!("no variant {index}")))?;
            resolve $($await)*
        }
    };
}

#[cfg(feature = "blocking")]
mod blocking {
    use super::*;
    use crate::blocking::Client;

    /// Finds a variant's target through its blocking serializer.
    pub(super) struct Resolve<'a> {
        pub(super) erased: &'a Erased,
        pub(super) topic: &'a str,
    }

    impl<E> VisitVariant<E> for Resolve<'_> {
        type Output = Result<Target, SerdeError>;
        fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(
            self,
            _: fn(T) -> E,
        ) -> Self::Output {
            downcast::<T, Client>(self.erased)?.target(self.topic)
        }
    }

    impl<E: OneOf> OneOfSerializer<E, Client> {
        one_of_serializer_methods!(Resolve, Client; ;);
    }
}

#[cfg(feature = "nonblocking")]
mod nonblocking {
    use std::future::Future;
    use std::pin::Pin;

    use super::*;
    use crate::nonblocking::Client;

    /// Finds a variant's target through its async serializer.
    pub(super) struct Resolve<'a> {
        pub(super) erased: &'a Erased,
        pub(super) topic: &'a str,
    }

    /// The future of a variant's target, its type erased with the variant's.
    type Resolving<'a> = Pin<Box<dyn Future<Output = Result<Target, SerdeError>> + Send + 'a>>;

    impl<'a, E> VisitVariant<E> for Resolve<'a> {
        type Output = Resolving<'a>;
        fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(
            self,
            _: fn(T) -> E,
        ) -> Self::Output {
            Box::pin(async move { downcast::<T, Client>(self.erased)?.target(self.topic).await })
        }
    }

    impl<E: OneOf> OneOfSerializer<E, Client> {
        one_of_serializer_methods!(Resolve, Client; async; .await);
    }
}
