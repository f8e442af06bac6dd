//! The file, its declarations, fields, messages, annotations and JSON values.

use super::support::{
    ast_nodes, child, children, name_after_first, token, tokens, AstNode, Documented,
    HasAnnotations, Name,
};
use super::types::Type;
use crate::syntax::{SyntaxKind, SyntaxNode, SyntaxToken};

ast_nodes! {
    /// The whole file: a protocol, or a schema file's declarations.
    SourceFile,
    /// `protocol P { … }`
    Protocol,
    /// The braces of a protocol and its imports, declarations and messages.
    ProtocolBody,
    /// `namespace a.b;` of a schema file.
    NamespaceDecl,
    /// `schema T;` of a schema file: its main schema.
    SchemaDecl,
    /// `import idl|protocol|schema "path";`
    Import,
    /// `record R { … }` or `error E { … }`.
    Record,
    /// `enum E { A, B } = A;`
    Enum,
    /// One symbol of an enum.
    EnumSymbol,
    /// `fixed F(16);`
    Fixed,
    /// A field of a record: a type and the names it declares.
    Field,
    /// One name declared by a field or a parameter, with its default.
    Variable,
    /// A message of a protocol.
    Message,
    /// One parameter of a message.
    Param,
    /// `@name(value)`
    Annotation,
    /// A JSON value: a default, or the value of an annotation.
    JsonValue,
    /// `"key": value` in a JSON object.
    JsonMember,
}

impl SourceFile {
    /// The typed view of a root node (the parser's root is always a `SourceFile`).
    pub(crate) fn from_root(root: SyntaxNode) -> SourceFile {
        SourceFile(root)
    }

    /// The protocol, when the file is one.
    pub fn protocol(&self) -> Option<Protocol> {
        child(&self.0)
    }

    /// A schema file's `namespace` declaration.
    pub fn namespace(&self) -> Option<NamespaceDecl> {
        child(&self.0)
    }

    /// A schema file's `schema` declaration.
    pub fn schema(&self) -> Option<SchemaDecl> {
        child(&self.0)
    }

    /// A schema file's imports.
    pub fn imports(&self) -> impl Iterator<Item = Import> {
        children(&self.0)
    }

    /// A schema file's named types (a protocol's are in its [`ProtocolBody`]).
    pub fn declarations(&self) -> impl Iterator<Item = NamedDecl> {
        children(&self.0)
    }
}

impl Protocol {
    /// The protocol's name.
    pub fn name(&self) -> Option<Name> {
        name_after_first(&self.0)
    }

    /// Its braces and what they hold.
    pub fn body(&self) -> Option<ProtocolBody> {
        child(&self.0)
    }
}

impl ProtocolBody {
    /// The imports, in the order written.
    pub fn imports(&self) -> impl Iterator<Item = Import> {
        children(&self.0)
    }

    /// The named types declared, in the order written.
    pub fn declarations(&self) -> impl Iterator<Item = NamedDecl> {
        children(&self.0)
    }

    /// The messages, in the order written.
    pub fn messages(&self) -> impl Iterator<Item = Message> {
        children(&self.0)
    }
}

impl NamespaceDecl {
    /// The namespace.
    pub fn name(&self) -> Option<Name> {
        name_after_first(&self.0)
    }
}

impl SchemaDecl {
    /// The main schema.
    pub fn ty(&self) -> Option<Type> {
        child(&self.0)
    }
}

/// What an import reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImportKind {
    /// `import idl`: another IDL file.
    Idl,
    /// `import protocol`: a `.avpr` file.
    Protocol,
    /// `import schema`: a `.avsc` file.
    Schema,
}

impl Import {
    /// What the import reads.
    pub fn kind(&self) -> Option<ImportKind> {
        match tokens(&self.0).nth(1)?.kind() {
            SyntaxKind::IdlKw => Some(ImportKind::Idl),
            SyntaxKind::ProtocolKw => Some(ImportKind::Protocol),
            SyntaxKind::SchemaKw => Some(ImportKind::Schema),
            _ => None,
        }
    }

    /// The string literal of the imported path, as written.
    pub fn path(&self) -> Option<SyntaxToken> {
        token(&self.0, SyntaxKind::String)
    }

    /// The imported path, escapes resolved; `None` when missing or not a valid string.
    pub fn path_value(&self) -> Option<String> {
        crate::literal::unescape(self.path()?.text()).ok()
    }
}

/// A named type declaration: record (or error), enum or fixed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NamedDecl {
    /// `record R { … }` or `error E { … }`
    Record(Record),
    /// `enum E { … }`
    Enum(Enum),
    /// `fixed F(n);`
    Fixed(Fixed),
}

impl AstNode for NamedDecl {
    fn can_cast(kind: SyntaxKind) -> bool {
        Record::can_cast(kind) || Enum::can_cast(kind) || Fixed::can_cast(kind)
    }

    fn cast(node: SyntaxNode) -> Option<Self> {
        Some(match node.kind() {
            SyntaxKind::Record => NamedDecl::Record(Record(node)),
            SyntaxKind::Enum => NamedDecl::Enum(Enum(node)),
            SyntaxKind::Fixed => NamedDecl::Fixed(Fixed(node)),
            _ => return None,
        })
    }

    fn syntax(&self) -> &SyntaxNode {
        match self {
            NamedDecl::Record(n) => &n.0,
            NamedDecl::Enum(n) => &n.0,
            NamedDecl::Fixed(n) => &n.0,
        }
    }
}

impl NamedDecl {
    /// The declared name, as written (it may be dotted: `a.b.C`).
    pub fn name(&self) -> Option<Name> {
        name_after_first(self.syntax())
    }
}

impl Record {
    /// The record's name.
    pub fn name(&self) -> Option<Name> {
        name_after_first(&self.0)
    }

    /// Whether it is declared with `error` (an error type of a protocol).
    pub fn is_error(&self) -> bool {
        tokens(&self.0)
            .next()
            .is_some_and(|t| t.kind() == SyntaxKind::ErrorKw)
    }

    /// The fields, in the order written.
    pub fn fields(&self) -> impl Iterator<Item = Field> {
        children(&self.0)
    }
}

impl Enum {
    /// The enum's name.
    pub fn name(&self) -> Option<Name> {
        name_after_first(&self.0)
    }

    /// The symbols, in the order written.
    pub fn symbols(&self) -> impl Iterator<Item = EnumSymbol> {
        self.0
            .children()
            .filter(|n| n.kind() == SyntaxKind::EnumSymbols)
            .flat_map(|n| children(&n).collect::<Vec<_>>())
    }

    /// The default symbol (`= A;` after the braces).
    pub fn default(&self) -> Option<Name> {
        let default = self
            .0
            .children()
            .find(|n| n.kind() == SyntaxKind::EnumDefault)?;
        name_after_first(&default)
    }
}

impl EnumSymbol {
    /// The symbol.
    pub fn name(&self) -> Option<Name> {
        tokens(&self.0).next().and_then(Name::cast)
    }
}

impl Fixed {
    /// The fixed type's name.
    pub fn name(&self) -> Option<Name> {
        name_after_first(&self.0)
    }

    /// The size literal (in bytes).
    pub fn size(&self) -> Option<SyntaxToken> {
        token(&self.0, SyntaxKind::Int)
    }
}

impl Field {
    /// The field's type.
    pub fn ty(&self) -> Option<Type> {
        child(&self.0)
    }

    /// The names the field declares (`int a, b;` declares two), each with its default.
    pub fn variables(&self) -> impl Iterator<Item = Variable> {
        children(&self.0)
    }
}

impl Variable {
    /// The declared name.
    pub fn name(&self) -> Option<Name> {
        tokens(&self.0).next().and_then(Name::cast)
    }

    /// The default value (after `=`).
    pub fn default(&self) -> Option<JsonValue> {
        child(&self.0)
    }
}

impl Message {
    /// The result type (`void` is a [`PrimitiveType`](super::PrimitiveType)).
    pub fn result(&self) -> Option<Type> {
        child(&self.0)
    }

    /// The message's name.
    pub fn name(&self) -> Option<Name> {
        tokens(&self.0).next().and_then(Name::cast)
    }

    /// The parameters, in the order written.
    pub fn params(&self) -> impl Iterator<Item = Param> {
        self.0
            .children()
            .filter(|n| n.kind() == SyntaxKind::ParamList)
            .flat_map(|n| children(&n).collect::<Vec<_>>())
    }

    /// The error types after `throws`.
    pub fn throws(&self) -> Vec<Name> {
        self.0
            .children()
            .filter(|n| n.kind() == SyntaxKind::Throws)
            .flat_map(|n| {
                tokens(&n)
                    .skip(1)
                    .filter_map(Name::cast)
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Whether the message is `oneway`.
    pub fn is_oneway(&self) -> bool {
        token(&self.0, SyntaxKind::OnewayKw).is_some()
    }
}

impl Param {
    /// The parameter's type.
    pub fn ty(&self) -> Option<Type> {
        child(&self.0)
    }

    /// Its name and default.
    pub fn variable(&self) -> Option<Variable> {
        child(&self.0)
    }
}

impl Annotation {
    /// The annotation's name (`namespace` in `@namespace("a.b")`).
    pub fn name(&self) -> Option<Name> {
        name_after_first(&self.0)
    }

    /// Its value.
    pub fn value(&self) -> Option<JsonValue> {
        child(&self.0)
    }
}

impl JsonValue {
    /// The literal (string, number, `true`, `false`, `null`), when the value is one.
    pub fn literal(&self) -> Option<SyntaxToken> {
        tokens(&self.0).next()
    }

    /// The members of an object value, in the order written.
    pub fn members(&self) -> impl Iterator<Item = JsonMember> {
        self.0
            .children()
            .filter(|n| n.kind() == SyntaxKind::JsonObject)
            .flat_map(|n| children(&n).collect::<Vec<_>>())
    }

    /// The items of an array value, in the order written.
    pub fn items(&self) -> impl Iterator<Item = JsonValue> {
        self.0
            .children()
            .filter(|n| n.kind() == SyntaxKind::JsonArray)
            .flat_map(|n| children(&n).collect::<Vec<_>>())
    }

    /// Whether the value is an object.
    pub fn is_object(&self) -> bool {
        self.0
            .children()
            .any(|n| n.kind() == SyntaxKind::JsonObject)
    }

    /// Whether the value is an array.
    pub fn is_array(&self) -> bool {
        self.0.children().any(|n| n.kind() == SyntaxKind::JsonArray)
    }
}

impl JsonMember {
    /// The key's string literal, as written.
    pub fn key(&self) -> Option<SyntaxToken> {
        token(&self.0, SyntaxKind::String)
    }

    /// The value.
    pub fn value(&self) -> Option<JsonValue> {
        child(&self.0)
    }
}

impl Documented for Protocol {}
impl Documented for NamedDecl {}
impl Documented for Record {}
impl Documented for Enum {}
impl Documented for Fixed {}
impl Documented for EnumSymbol {}
impl Documented for Field {}
impl Documented for Variable {}
impl Documented for Message {}
impl HasAnnotations for Protocol {}
impl HasAnnotations for NamedDecl {}
impl HasAnnotations for Record {}
impl HasAnnotations for Enum {}
impl HasAnnotations for Fixed {}
impl HasAnnotations for EnumSymbol {}
impl HasAnnotations for Variable {}
impl HasAnnotations for Message {}
