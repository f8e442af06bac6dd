//! The example against the real registry: what it consumes is what it produced, framed with
//! the id the registry gave the schema.

use avdl2rs::Avro;
use avdl2rs_registry::ClientConfig;
use registry_example::{orders, produce_and_consume};

#[test]
#[ignore = "needs a Schema Registry (.ci/registry-server)"]
fn produces_and_consumes_through_the_registry() {
    let url = avdl2rs_tests::schema_registry();
    let topic = avdl2rs_tests::fresh_name("example-orders");
    let run = produce_and_consume(ClientConfig::new(&url), &topic).unwrap();
    assert_eq!(run.consumed, orders());
    for (frame, order) in run.frames.iter().zip(orders()) {
        assert_eq!(frame, &order.to_confluent(run.schema_id).unwrap());
    }
}
