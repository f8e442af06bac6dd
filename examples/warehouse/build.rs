//! Generates `schemas/warehouse.avdl` and everything it imports, one file per namespace
//! module under `OUT_DIR/warehouse/`, with `BTreeMap` for Avro maps.

use avdl2rs_codegen::{Builder, MapType, Options};

fn main() {
    Builder::new("warehouse")
        .input("schemas/warehouse.avdl")
        .include_dir("schemas/shared")
        .options(Options::default().map_type(MapType::BTreeMap))
        .module_tree(true)
        .build()
        .unwrap();
}
