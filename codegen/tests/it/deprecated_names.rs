//! The builder's option setters deprecated in favour of `Options` still compile and still
//! set the option, so users move at their pace.
#![allow(deprecated)]

use avdl2rs_codegen::{Builder, MapType, Options, TimeCrate};

#[test]
fn builder_option_setters_still_set_the_options() {
    let mut builder = Builder::new("old");
    builder
        .map_type(MapType::BTreeMap)
        .time_crate(TimeCrate::Time)
        .flat_modules(true)
        .extra_derive("Eq")
        .apache_avro_schema(true)
        .runtime_path("crate::rt")
        .extern_path("com.example.shared", "::shared");
    let mut through_options = Builder::new("old");
    through_options.options(
        Options::default()
            .map_type(MapType::BTreeMap)
            .time_crate(TimeCrate::Time)
            .flat_modules(true)
            .extra_derive("Eq")
            .apache_avro_schema(true)
            .runtime_path("crate::rt")
            .extern_path("com.example.shared", "::shared"),
    );
    assert_eq!(format!("{builder:?}"), format!("{through_options:?}"));
    assert_ne!(format!("{builder:?}"), format!("{:?}", Builder::new("old")));
}
