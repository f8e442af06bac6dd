//! Generated decoders, recursive types included: `from_avro_bytes` of arbitrary bytes.
#![no_main]

use avdl2rs_fuzz::decode_and_drop;
use avdl2rs_fuzz::generated::{Expr, LinkedList, Ping, Shapes, Tree};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    decode_and_drop::<LinkedList>(bytes);
    decode_and_drop::<Tree>(bytes);
    decode_and_drop::<Ping>(bytes);
    decode_and_drop::<Expr>(bytes);
    decode_and_drop::<Shapes>(bytes);
});
