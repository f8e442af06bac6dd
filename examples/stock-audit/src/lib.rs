//! Stock audit events. Their envelope, `com.example.shared.BusinessEvent`, is not generated
//! here: `build.rs` maps the namespace to the warehouse crate's generated module, so an
//! envelope moves between the two services' types without conversion, and the build fails
//! if the two crates' schemas of it ever differ.

/// The generated types: `com::example::audit`.
pub mod schema {
    avdl2rs::include_generated!("audit");
}

pub use schema::com::example::audit::CountDiffered;
