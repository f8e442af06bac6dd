//! The runtime's `OneOf` and `Resolvable` impls of an enum of newtype variants, each holding
//! a type with a schema: what `#[derive(AvroOneOf)]` expands to and what the code generator
//! writes for the enums its options (or a top-level union of named types) ask for, so that
//! both read and write such an enum alike.
//!
//! The variants' full names are the types' own, which only the compiler knows for a derived
//! enum: that no two are the same is checked by constants the compiler evaluates.

use proc_macro2::{Literal, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

/// A variant holding a value of a type with a schema: `ident(ty)`.
pub struct OneOfVariant<T> {
    /// The variant's name.
    pub ident: syn::Ident,
    /// The type it holds, as written where the impls go (the error of two variants of one
    /// full name points at the second one's type).
    pub ty: T,
}

/// The enum's name, its typed variants in order and the catch-all variant, if any: the
/// variant `other(GenericRecord)` that takes records of any other writer type.
pub struct OneOfEnum<'a, T> {
    /// The enum's name.
    pub ident: &'a syn::Ident,
    /// The variants holding a type with a schema, in the order of `OneOf::VARIANTS`.
    pub typed: &'a [OneOfVariant<T>],
    /// The catch-all variant's name.
    pub other: Option<&'a syn::Ident>,
    /// Whether the compiler checks that no two variants' types have one full name: needed
    /// where the names are known only to the compiler (a derived enum), not where the caller
    /// has checked them (the generator, whose checks would grow with the square of the
    /// variants).
    pub check_names: bool,
}

/// The `OneOf` and `Resolvable` impls of `one_of` and (if asked) the check of distinct full
/// names, in one `const _: () = { ... };` block; `rt` is the runtime's path.
pub fn one_of_impls<T: ToTokens>(one_of: &OneOfEnum<'_, T>, rt: &syn::Path) -> TokenStream {
    let ident = one_of.ident;
    let names = one_of.typed.iter().map(|v| {
        let ty = &v.ty;
        quote!(<#ty as #rt::AvroSchema>::FULL_NAME)
    });
    // Unsuffixed, as a person writes them: `0 =>`, not `0usize =>`.
    let index = |i: usize| Literal::usize_unsuffixed(i);
    let visit_types = one_of.typed.iter().enumerate().map(|(i, v)| {
        let (variant, ty, index) = (&v.ident, &v.ty, index(i));
        quote!(#index => ::core::option::Option::Some(visitor.visit::<#ty>(#ident::#variant)))
    });
    let visit_values = one_of.typed.iter().map(|v| {
        let variant = &v.ident;
        quote!(#ident::#variant(value) => ::core::option::Option::Some(visitor.visit(value)))
    });
    let indices = one_of.typed.iter().enumerate().map(|(i, v)| {
        let (variant, index) = (&v.ident, index(i));
        quote!(#ident::#variant(_) => ::core::option::Option::Some(#index))
    });
    let catch_all = one_of.other.is_some();
    let (other_arm, other_value) = match one_of.other {
        Some(other) => (
            quote!(#ident::#other(_) => ::core::option::Option::None,),
            quote!(::core::option::Option::Some(#ident::#other(record))),
        ),
        None => (
            quote!(),
            quote!({
                let _ = record;
                ::core::option::Option::None
            }),
        ),
    };
    let distinct = one_of
        .check_names
        .then(|| distinct_names(ident, one_of.typed, rt));
    quote! {
        const _: () = {
            #distinct

            #[automatically_derived]
            impl #rt::OneOf for #ident {
                const VARIANTS: &'static [&'static str] = &[#(#names),*];
                const CATCH_ALL: bool = #catch_all;

                // Inlined into the reader's dispatch: a call of its own costs the one-of
                // read some 20 instructions per message.
                #[inline]
                fn visit_variant<V: #rt::one_of::VisitVariant<Self>>(
                    index: usize,
                    visitor: V,
                ) -> ::core::option::Option<V::Output> {
                    match index {
                        #(#visit_types,)*
                        _ => ::core::option::Option::None,
                    }
                }

                fn visit_value<V: #rt::one_of::VisitValue>(
                    &self,
                    visitor: V,
                ) -> ::core::option::Option<V::Output> {
                    match self {
                        #(#visit_values,)*
                        #other_arm
                    }
                }

                fn variant(&self) -> ::core::option::Option<usize> {
                    match self {
                        #(#indices,)*
                        #other_arm
                    }
                }

                fn other(record: #rt::generic::GenericRecord) -> ::core::option::Option<Self> {
                    #other_value
                }
            }

            #[automatically_derived]
            impl #rt::resolve::Resolvable for #ident {
                #[inline]
                fn decode_written<L: #rt::resolve::SchemaLookup>(
                    consumer: &#rt::resolve::Consumer<L>,
                    id: i32,
                    body: &[u8],
                ) -> ::core::result::Result<Self, #rt::resolve::ResolveError> {
                    consumer.decode_one_of::<Self>(id, body)
                }

                fn reads_unchanged(writer: &str) -> bool {
                    <Self as #rt::OneOf>::has_variant_schema(writer)
                }
            }
        };
    }
}

/// A constant for each pair of variants that fails to compile when both types have one full
/// name: a reader could not tell their messages apart.
fn distinct_names<T: ToTokens>(
    ident: &syn::Ident,
    typed: &[OneOfVariant<T>],
    rt: &syn::Path,
) -> TokenStream {
    let mut checks = TokenStream::new();
    for (i, first) in typed.iter().enumerate() {
        for second in &typed[i + 1..] {
            let (a, b) = (&first.ty, &second.ty);
            let message = format!(
                "variants `{}` and `{}` of `{ident}` hold types of one full name: a reader could not tell their messages apart",
                first.ident, second.ident
            );
            checks.extend(quote_spanned! {b.span()=>
                const _: () = ::core::assert!(
                    !#rt::__private::str_eq(
                        <#a as #rt::AvroSchema>::FULL_NAME,
                        <#b as #rt::AvroSchema>::FULL_NAME,
                    ),
                    #message
                );
            });
        }
    }
    checks
}

#[cfg(test)]
mod tests {
    use super::{one_of_impls, OneOfEnum, OneOfVariant};
    use quote::quote;

    fn variant(name: &str, ty: proc_macro2::TokenStream) -> OneOfVariant<proc_macro2::TokenStream> {
        OneOfVariant {
            ident: syn::Ident::new(name, proc_macro2::Span::call_site()),
            ty,
        }
    }

    fn expand(other: Option<&str>) -> String {
        expand_checked(other, true)
    }

    fn expand_checked(other: Option<&str>, check_names: bool) -> String {
        let ident = syn::parse_quote!(Event);
        let typed = [
            variant("Created", quote!(shop::Created)),
            variant("Paid", quote!(Paid)),
        ];
        let other = other.map(|o| syn::Ident::new(o, proc_macro2::Span::call_site()));
        let one_of = OneOfEnum {
            ident: &ident,
            typed: &typed,
            other: other.as_ref(),
            check_names,
        };
        one_of_impls(&one_of, &syn::parse_quote!(::rt)).to_string()
    }

    #[test]
    fn variants_are_listed_and_visited_in_order() {
        let text = expand(None);
        assert!(text.contains(
            "const VARIANTS : & 'static [& 'static str] = & [< shop :: Created as :: rt :: AvroSchema > :: FULL_NAME , < Paid as :: rt :: AvroSchema > :: FULL_NAME]"
        ));
        assert!(text.contains("0 => :: core :: option :: Option :: Some (visitor . visit :: < shop :: Created > (Event :: Created))"));
        assert!(text.contains("Event :: Paid (_) => :: core :: option :: Option :: Some (1)"));
        assert!(text.contains("const CATCH_ALL : bool = false"));
        assert!(text.contains("consumer . decode_one_of :: < Self > (id , body)"));
    }

    #[test]
    fn a_catch_all_takes_other_records_and_has_no_index() {
        let text = expand(Some("Other"));
        assert!(text.contains("const CATCH_ALL : bool = true"));
        assert!(text.contains("Event :: Other (_) => :: core :: option :: Option :: None"));
        assert!(text.contains("Some (Event :: Other (record))"));
    }

    #[test]
    fn each_pair_of_variants_is_checked_for_one_full_name() {
        let text = expand(None);
        assert_eq!(text.matches(":: __private :: str_eq").count(), 1);
        assert!(
            text.contains("variants `Created` and `Paid` of `Event` hold types of one full name")
        );
    }
}
