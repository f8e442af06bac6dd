//! The human-readable serde form of the date and time types: ISO 8601 dates, times and
//! local date-times, RFC 3339 timestamps. Formats that say they are human-readable (JSON)
//! get this text; the others (apache-avro's `to_value`/`from_value`) get the Avro count.

use std::borrow::Cow;
use std::fmt;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

/// A date or time type's text form.
pub(crate) trait TextForm: Sized {
    /// Writes the value as text.
    fn write_text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;

    /// Reads the value from text, or `None` when it is not in the form.
    fn from_text(text: &str) -> Option<Self>;
}

/// Shows a value in its text form, for `Serializer::collect_str`.
pub(crate) struct Shown<'a, T>(pub &'a T);

impl<T: TextForm> fmt::Display for Shown<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_text(f)
    }
}

/// Deserializes a value from its text form; `logical` names the Avro type in the error.
pub(crate) fn deserialize<'de, T: TextForm, D: Deserializer<'de>>(
    deserializer: D,
    logical: &str,
) -> Result<T, D::Error> {
    let text = <Cow<'de, str>>::deserialize(deserializer)?;
    T::from_text(&text).ok_or_else(|| D::Error::custom(format!("{text:?} is not a {logical}")))
}
