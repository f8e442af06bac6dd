//! A hand-written type with the impls generated code gives a record, for the tests of the
//! framings and of the `Avro` conveniences.

// Each test crate that includes this module uses only part of it.
#![allow(dead_code)]

use avdl2rs::codec::{self, Reader};
use avdl2rs::fingerprint::rabin_fingerprint;
use avdl2rs::{AvroDecode, AvroEncode, AvroSchema, DecodeError, EncodeError};

/// `record shop.Ping { long id; string name; }`
#[derive(Debug, Clone, PartialEq)]
pub struct Ping {
    pub id: i64,
    pub name: String,
}

/// The schema JSON, which is also its Parsing Canonical Form.
pub const PING_SCHEMA: &str = r#"{"name":"shop.Ping","type":"record","fields":[{"name":"id","type":"long"},{"name":"name","type":"string"}]}"#;

impl AvroSchema for Ping {
    const SCHEMA_JSON: &'static str = PING_SCHEMA;
    const CANONICAL_FORM: &'static str = PING_SCHEMA;
    const FINGERPRINT: u64 = rabin_fingerprint(PING_SCHEMA.as_bytes());
    const FULL_NAME: &'static str = "shop.Ping";
}

impl AvroEncode for Ping {
    fn encode(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        codec::write_long(out, self.id);
        codec::write_string(out, &self.name);
        Ok(())
    }
}

impl AvroDecode for Ping {
    fn decode(reader: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let id = reader
            .read_long()
            .map_err(|e| e.in_field("id").in_type("shop.Ping"))?;
        let name = reader
            .read_string()
            .map_err(|e| e.in_field("name").in_type("shop.Ping"))?
            .to_owned();
        Ok(Self { id, name })
    }
}

/// `Ping { id: 21, name: "foo" }`: `2a 06 66 6f 6f` (21 zig-zags to 42).
pub fn ping() -> Ping {
    Ping {
        id: 21,
        name: "foo".to_owned(),
    }
}

/// The Avro body of [`ping`], from the specification's rules by hand.
pub const PING_BODY: [u8; 5] = [0x2a, 0x06, b'f', b'o', b'o'];
