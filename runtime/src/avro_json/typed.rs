//! The Avro JSON encoding of generated and derived types ([`crate::Avro::to_avro_json`],
//! [`crate::Avro::from_avro_json`]): through the type's binary codec and the schema-driven
//! encoding of its own schema, so that the JSON is the one any schema gets, by one
//! implementation, and generated code carries nothing more for it.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use serde_json::Value;

use super::{AvroJson, JsonError};
use crate::error::EncodeError;
use crate::Avro;

/// The encoding of each type's schema, made once per type. Keyed by type rather than by
/// fingerprint: two schemas with one canonical form may differ in the defaults JSON input
/// falls back on.
static SCHEMAS: OnceLock<RwLock<HashMap<TypeId, Arc<AvroJson>>>> = OnceLock::new();

/// The encoding of `T`'s schema.
fn schema_of<T: Avro + 'static>() -> Result<Arc<AvroJson>, String> {
    let schemas = SCHEMAS.get_or_init(RwLock::default);
    let known = schemas.read().unwrap_or_else(PoisonError::into_inner);
    if let Some(json) = known.get(&TypeId::of::<T>()) {
        return Ok(Arc::clone(json));
    }
    drop(known);
    let json = AvroJson::new(T::SCHEMA_JSON)
        .map_err(|e| format!("the schema of {}: {e}", T::FULL_NAME))?;
    let json = Arc::new(json);
    let mut known = schemas.write().unwrap_or_else(PoisonError::into_inner);
    known.insert(TypeId::of::<T>(), Arc::clone(&json));
    Ok(json)
}

/// `value` in the Avro JSON encoding.
pub(crate) fn to_json<T: Avro + 'static>(value: &T) -> Result<Value, EncodeError> {
    let bytes = value.to_avro_bytes()?;
    let json = schema_of::<T>().map_err(EncodeError::custom)?;
    // The bytes are the type's own encoding of its own schema: reading them fails only if
    // the codec and the schema disagree, which is reported rather than hidden.
    json.decode(&bytes)
        .map_err(|e| EncodeError::custom(format!("{}: {e}", T::FULL_NAME)))
}

/// The `T` that `json`, in the Avro JSON encoding, stands for.
pub(crate) fn from_json<T: Avro + 'static>(json: &Value) -> Result<T, JsonError> {
    let schema = schema_of::<T>().map_err(JsonError::new)?;
    let mut bytes = Vec::new();
    schema.encode(json, &mut bytes)?;
    // A value the schema accepts that the type cannot hold (a date beyond its calendar).
    T::from_avro_bytes(&bytes).map_err(|e| JsonError::new(e.to_string()))
}
