//! The registry client's reading of reply bodies: every API call's parser on the same
//! bytes, the schema text of replies that carry one through the schema model (as the
//! deserializer does with it), and the `Retry-After` header.
#![no_main]

use avdl2rs::schema::SchemaSet;
use avdl2rs_registry::api::{self, Call};
use avdl2rs_registry::{CompatLevel, SchemaType};
use libfuzzer_sys::fuzz_target;

/// Parses the body with `call`'s parser.
fn parse<T>(call: Call<T>, body: &[u8]) -> Option<T> {
    call.parse(body).ok()
}

/// Parses an Avro schema of a reply, as the deserializer does before resolving it.
fn read_schema(schema: &avdl2rs_registry::Schema) {
    if schema.schema_type == SchemaType::Avro {
        drop(SchemaSet::new().parse_str(&schema.schema));
    }
}

fuzz_target!(|body: &[u8]| {
    let schema = avdl2rs_registry::Schema::avro(r#""long""#);
    let latest = avdl2rs_registry::Version::Latest;
    parse(api::register("s", &schema, false), body);
    if let Some(version) = parse(api::lookup("s", &schema, true), body) {
        read_schema(&version.schema);
    }
    if let Some(schema) = parse(api::schema_by_id(1), body) {
        read_schema(&schema);
    }
    if let Some(version) = parse(api::subject_version("s", latest), body) {
        read_schema(&version.schema);
    }
    parse(api::subjects(), body);
    parse(api::versions("s"), body);
    parse(api::delete_subject("s", true), body);
    parse(api::test_compatibility("s", latest, &schema), body);
    parse(api::get_config(None), body);
    parse(api::set_config(Some("s"), CompatLevel::Full), body);
    if let Ok(header) = std::str::from_utf8(body) {
        #[allow(deprecated)]
        avdl2rs_registry::parse_retry_after(header);
    }
});
