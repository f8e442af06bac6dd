//! The client methods, written once for both transports: `client_methods!(async; .await)`
//! expands them as async functions, `client_methods!(;)` as blocking ones. Each transport
//! provides `execute` (send a call with retries) and `cached` (single-flight cache fill).

use crate::types::Schema;

/// Whether two Avro schema texts describe the same schema: equal text, or the same Parsing
/// Canonical Form (registries re-serialize what they store: whitespace, key order, extra
/// properties).
pub(crate) fn same_schema(a: &Schema, b: &Schema) -> bool {
    if a.schema_type != b.schema_type || a.references != b.references {
        return false;
    }
    a.schema == b.schema || canonical(&a.schema).is_some_and(|c| Some(c) == canonical(&b.schema))
}

fn canonical(json: &str) -> Option<String> {
    let mut set = avdl2rs::schema::SchemaSet::new();
    let schema = set.parse_str(json).ok()?;
    Some(set.canonical_form(&schema))
}

/// Whether a failed lookup should be answered by scanning the subject's versions: the
/// registry found no schema of that exact text, or has no lookup endpoint at all.
pub(crate) fn lookup_unanswered(error: &crate::RegistryError) -> bool {
    error
        .api()
        .is_some_and(|e| e.status == 405 || (e.status == 404 && e.error_code != Some(40401)))
}

macro_rules! client_methods {
    ($($async:ident)?; $($await:tt)*) => {
        /// The schema registered under `id` (deleted ones too), cached forever.
        pub $($async)? fn schema_by_id(&self, id: i32) -> Result<Arc<Schema>> {
            let cache = &self.core.caches.by_id;
            self.cached(cache, id, || self.fetch_schema(id)) $($await)*
        }

        $($async)? fn fetch_schema(&self, id: i32) -> Result<Arc<Schema>> {
            self.execute(api::schema_by_id(id)) $($await)* .map(Arc::new)
        }

        /// Registers `schema` under `subject` (a schema already registered keeps its id) and
        /// answers its id, cached; `normalize` asks the registry to normalize it first. The
        /// subject's cached latest version is forgotten.
        pub $($async)? fn register(&self, subject: &str, schema: &Schema, normalize: bool) -> Result<i32> {
            let key = (subject.to_owned(), schema.clone());
            let cache = &self.core.caches.ids;
            let id = self.cached(cache, key, || self.send_register(subject, schema, normalize)) $($await)*?;
            Ok(id)
        }

        $($async)? fn send_register(&self, subject: &str, schema: &Schema, normalize: bool) -> Result<i32> {
            let id = self.execute(api::register(subject, schema, normalize)) $($await)*?;
            self.core.caches.latest.remove(&subject.to_owned());
            Ok(id)
        }

        /// The version `schema` is registered as under `subject`, without registering it
        /// (uncached; see [`Self::id_of`]).
        pub $($async)? fn lookup(&self, subject: &str, schema: &Schema, normalize: bool) -> Result<SubjectVersion> {
            self.execute(api::lookup(subject, schema, normalize)) $($await)*
        }

        /// The id `schema` is registered with under `subject`, without registering it, cached.
        /// When the registry's lookup finds no schema of that text (or it has no lookup), the
        /// subject's versions are compared by canonical form, so a schema the registry stored
        /// re-serialized is still found.
        pub $($async)? fn id_of(&self, subject: &str, schema: &Schema, normalize: bool) -> Result<i32> {
            let key = (subject.to_owned(), schema.clone());
            let cache = &self.core.caches.ids;
            self.cached(cache, key, || self.find_id(subject, schema, normalize)) $($await)*
        }

        $($async)? fn find_id(&self, subject: &str, schema: &Schema, normalize: bool) -> Result<i32> {
            match self.lookup(subject, schema, normalize) $($await)* {
                Ok(found) => Ok(found.id),
                Err(e) if crate::client::lookup_unanswered(&e) => {
                    let mut versions = self.versions(subject) $($await)*?;
                    versions.sort_unstable_by(|a, b| b.cmp(a));
                    for version in versions {
                        let stored = self.subject_version(subject, Version::Number(version)) $($await)*?;
                        if crate::client::same_schema(&stored.schema, schema) {
                            return Ok(stored.id);
                        }
                    }
                    Err(e)
                }
                Err(e) => Err(e),
            }
        }

        /// One version of `subject` (uncached; see [`Self::latest`]).
        pub $($async)? fn subject_version(&self, subject: &str, version: Version) -> Result<SubjectVersion> {
            self.execute(api::subject_version(subject, version)) $($await)*
        }

        /// The latest version of `subject`, cached for the configured time to live.
        pub $($async)? fn latest(&self, subject: &str) -> Result<Arc<SubjectVersion>> {
            let cache = &self.core.caches.latest;
            self.cached(cache, subject.to_owned(), || self.fetch_latest(subject)) $($await)*
        }

        $($async)? fn fetch_latest(&self, subject: &str) -> Result<Arc<SubjectVersion>> {
            self.subject_version(subject, Version::Latest) $($await)* .map(Arc::new)
        }

        /// The self-contained JSON of `schema`: the schemas of its references (and theirs,
        /// depth first) fetched and inlined.
        pub $($async)? fn assembled(&self, schema: &Schema) -> Result<String> {
            let mut assembly = crate::references::Assembly::new(schema);
            while let Some(reference) = assembly.next()? {
                let version = Version::Number(reference.version);
                let found = self.subject_version(&reference.subject, version) $($await)*?;
                assembly.provide(found.schema);
            }
            assembly.finish()
        }

        /// The registered subjects.
        pub $($async)? fn subjects(&self) -> Result<Vec<String>> {
            self.execute(api::subjects()) $($await)*
        }

        /// The version numbers of `subject`.
        pub $($async)? fn versions(&self, subject: &str) -> Result<Vec<i32>> {
            self.execute(api::versions(subject)) $($await)*
        }

        /// Deletes `subject` (soft, or `permanent`); answers the versions deleted.
        pub $($async)? fn delete_subject(&self, subject: &str, permanent: bool) -> Result<Vec<i32>> {
            let deleted = self.execute(api::delete_subject(subject, permanent)) $($await)*?;
            self.core.caches.latest.remove(&subject.to_owned());
            Ok(deleted)
        }

        /// Tests `schema` against a version of `subject` without registering it.
        pub $($async)? fn test_compatibility(&self, subject: &str, version: Version, schema: &Schema) -> Result<CompatibilityReport> {
            self.execute(api::test_compatibility(subject, version, schema)) $($await)*
        }

        /// The compatibility level of `subject`, or the registry's default for `None`.
        pub $($async)? fn config(&self, subject: Option<&str>) -> Result<CompatLevel> {
            self.execute(api::get_config(subject)) $($await)*
        }

        /// Sets the compatibility level of `subject`, or the registry's default for `None`.
        pub $($async)? fn set_config(&self, subject: Option<&str>, level: CompatLevel) -> Result<CompatLevel> {
            self.execute(api::set_config(subject, level)) $($await)*
        }
    };
}

pub(crate) use client_methods;
