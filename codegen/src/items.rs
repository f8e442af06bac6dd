//! The type definitions: a struct for each record and fixed, an enum for each Avro enum and
//! union, with docs, derives and serde attributes, and a record's constructor and defaults.

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::{ident, Context};
use crate::docs::doc_attrs;
use crate::rust_types::rust_type;
use crate::space::{DefKind, FieldDef, TypeDef, TypeRef};
use crate::Error;
use avdl2rs_emit::{Logical, RenameRule};

/// The definition of `def`, followed for a record by its constructor and defaults; or the
/// error of every default that does not fit.
pub(crate) fn type_item(cx: &Context<'_>, def: &TypeDef) -> Result<TokenStream, Vec<Error>> {
    let docs = doc_attrs(def.doc.as_deref());
    let derives = derives(cx, def);
    let name = ident(&def.ident);
    let serde_crate = format!("{}::__private::serde", cx.options.runtime_path.trim());
    let item = match &def.kind {
        DefKind::Record { named, fields } => {
            // Type aliases stay in SCHEMA_JSON only: serde has no aliases for a container.
            let rename = rename_attr(&def.ident, &named.name.name);
            let fields_tokens = fields.iter().map(|f| field(cx, def, f, fields));
            let defaults = crate::defaults::record_defaults(cx, def)?;
            quote! {
                #docs
                #derives
                #[serde(crate = #serde_crate)]
                #rename
                pub struct #name { #(#fields_tokens)* }
                #defaults
            }
        }
        DefKind::Enum {
            named,
            symbols,
            default,
        } => {
            let rename = rename_attr(&def.ident, &named.name.name);
            let rename_all = variant_case(symbols);
            let variants = symbols.iter().enumerate().map(|(i, (avro, rust))| {
                let v = ident(rust);
                let rename = rename_all.is_none().then(|| rename_attr(rust, avro));
                let default = (Some(i) == *default).then(|| quote!(#[default]));
                quote!(#rename #default #v,)
            });
            let rename_all = rename_all.map(|case| quote!(, rename_all = #case));
            quote! {
                #docs
                #derives
                #[serde(crate = #serde_crate #rename_all)]
                #rename
                pub enum #name { #(#variants)* }
            }
        }
        DefKind::Fixed { size, .. } => {
            let size = proc_macro2::Literal::usize_unsuffixed(*size);
            let serde_fixed = format!("{serde_crate}_fixed");
            quote! {
                #docs
                #derives
                #[serde(crate = #serde_crate, transparent)]
                pub struct #name(#[serde(with = #serde_fixed)] pub [u8; #size]);
            }
        }
        DefKind::Union { variants, .. } => {
            let variants = variants.iter().map(|v| {
                let variant = ident(&v.ident);
                let ty = rust_type(cx, &v.ty, &def.module);
                quote!(#variant(#ty),)
            });
            quote! {
                #docs
                #derives
                #[serde(crate = #serde_crate, untagged)]
                pub enum #name { #(#variants)* }
            }
        }
    };
    Ok(item)
}

fn field(cx: &Context<'_>, def: &TypeDef, field: &FieldDef, all: &[FieldDef]) -> TokenStream {
    let docs = doc_attrs(field.doc.as_deref());
    let name = ident(&field.ident);
    let ty = rust_type(cx, &field.ty, &def.module);
    let rename = rename_attr(crate::naming::unraw(&field.ident), &field.avro_name);
    // An alias that is another field's name (or an earlier field's alias) could never
    // match for this field under serde, so it is left out rather than shadowed.
    let earlier = &all[..all.iter().position(|f| std::ptr::eq(f, field)).unwrap_or(0)];
    let aliases = field
        .aliases
        .iter()
        .filter(|a| !all.iter().any(|f| &f.avro_name == *a))
        .filter(|a| !earlier.iter().any(|f| f.aliases.contains(a)))
        .map(|a| quote!(#[serde(alias = #a)]));
    let default = field.default.as_ref().map(|_| {
        if crate::defaults::is_type_default(field) {
            return quote!(#[serde(default)]);
        }
        let path = format!("{}::{}", def.ident, crate::defaults::default_fn_name(field));
        quote!(#[serde(default = #path)])
    });
    let with = serde_with(&field.ty, &cx.options.runtime_path);
    quote! {
        #docs
        #rename
        #(#aliases)*
        #default
        #with
        pub #name: #ty,
    }
}

/// The derives of `def`. Derive macros live in the macro namespace, which generated types
/// do not enter, so they are named short everywhere.
fn derives(cx: &Context<'_>, def: &TypeDef) -> TokenStream {
    let rt = &cx.runtime;
    let mut derives = vec![quote!(Debug), quote!(Clone)];
    if matches!(def.kind, DefKind::Enum { .. } | DefKind::Fixed { .. }) {
        derives.push(quote!(Copy));
    }
    derives.push(quote!(PartialEq));
    if def.eq {
        derives.push(quote!(Eq));
        derives.push(quote!(Hash));
    }
    if let DefKind::Enum {
        default: Some(_), ..
    } = def.kind
    {
        derives.push(quote!(Default));
    }
    derives.push(quote!(#rt::__private::serde::Serialize));
    derives.push(quote!(#rt::__private::serde::Deserialize));
    let extra = &cx.extra_derives;
    quote!(#[derive(#(#derives,)* #(#extra,)*)])
}

/// The serde helper a field needs: to human-readable formats (JSON) the natural text of
/// dates, times, timestamps, decimals and uuids; to the others the Avro shape that
/// `apache_avro::to_value`/`from_value` expect — bytes as one byte string (not a sequence of
/// numbers), dates and times as their Avro counts, decimals with the schema's scale, a uuid
/// on `string` as its text (the uuid crate writes bytes there). Plain and optional fields.
fn serde_with(ty: &TypeRef, runtime_path: &str) -> Option<TokenStream> {
    let (inner, option) = match ty {
        TypeRef::Optional { some, .. } => (&**some, "::option"),
        other => (other, ""),
    };
    let rt = runtime_path.trim();
    let module = match inner {
        TypeRef::Bytes => format!("{rt}::__private::serde_bytes{option}"),
        TypeRef::Logical(Logical::Time { time_crate, kind }) => {
            let crate_module = time_crate.runtime_module();
            let kind = kind.helper_suffix();
            format!("{rt}::__private::{crate_module}::serde_{kind}{option}")
        }
        TypeRef::Logical(Logical::UuidString) => {
            format!("{rt}::__private::serde_uuid_string{option}")
        }
        TypeRef::Logical(
            Logical::DecimalBytes { precision, scale }
            | Logical::DecimalFixed {
                precision, scale, ..
            },
        ) => {
            let module = format!("{rt}::__private::serde_decimal{option}");
            let serialize = format!("{module}::serialize::<_, {precision}, {scale}>");
            let deserialize = format!("{module}::deserialize::<_, {precision}, {scale}>");
            return Some(
                quote!(#[serde(serialize_with = #serialize, deserialize_with = #deserialize)]),
            );
        }
        _ => return None,
    };
    Some(quote!(#[serde(with = #module)]))
}

/// The case convention serde's `rename_all` names that turns every variant (Avro symbol,
/// Rust name) into its symbol, when some symbol differs from its variant's name: one
/// attribute on the enum instead of a `rename` on each variant.
fn variant_case(symbols: &[(String, String)]) -> Option<&'static str> {
    let variants: Vec<(&str, &str)> = symbols
        .iter()
        .map(|(avro, rust)| (avro.as_str(), crate::naming::unraw(rust)))
        .collect();
    if variants.iter().all(|(avro, rust)| avro == rust) {
        return None;
    }
    RenameRule::ALL
        .into_iter()
        .find(|rule| {
            variants
                .iter()
                .all(|(avro, rust)| rule.apply_to_variant(rust) == *avro)
        })
        .map(RenameRule::name)
}

/// `#[serde(rename = "...")]` when the Rust name differs from the Avro name.
fn rename_attr(rust: &str, avro: &str) -> Option<TokenStream> {
    (crate::naming::unraw(rust) != avro).then(|| quote!(#[serde(rename = #avro)]))
}

#[cfg(test)]
mod tests {
    use super::variant_case;

    fn symbols(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(avro, rust)| ((*avro).to_owned(), (*rust).to_owned()))
            .collect()
    }

    /// The expected names follow serde's documented `rename_all` conventions.
    #[test]
    fn one_case_convention_replaces_the_renames() {
        let case = |pairs: &[(&str, &str)]| variant_case(&symbols(pairs));
        assert_eq!(case(&[("Red", "Red")]), None);
        assert_eq!(
            case(&[("RED", "Red"), ("DARK_BLUE", "DarkBlue")]),
            Some("SCREAMING_SNAKE_CASE")
        );
        assert_eq!(
            case(&[("RED", "Red"), ("GREEN", "Green")]),
            Some("UPPERCASE")
        );
        assert_eq!(
            case(&[("red", "Red"), ("dark_blue", "DarkBlue")]),
            Some("snake_case")
        );
        assert_eq!(
            case(&[("red", "Red"), ("darkBlue", "DarkBlue")]),
            Some("camelCase")
        );
        assert_eq!(case(&[("dark-blue", "DarkBlue")]), Some("kebab-case"));
        // Two conventions in one enum: each variant keeps its own rename.
        assert_eq!(case(&[("RED", "Red"), ("blue", "Blue")]), None);
    }
}
