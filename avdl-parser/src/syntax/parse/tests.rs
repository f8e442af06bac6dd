use super::*;

/// The tree of `text` as an indented outline: node kinds, and significant tokens with their
/// text (trivia left out, to keep the outlines short).
fn outline(text: &str) -> std::string::String {
    let parse = parse(text);
    assert_eq!(parse.syntax().to_string(), text, "prints back");
    let mut out = std::string::String::new();
    let mut depth = 0usize;
    for event in parse.syntax().preorder_with_tokens() {
        match event {
            rowan::WalkEvent::Enter(rowan::NodeOrToken::Node(n)) => {
                out += &format!("{}{:?}\n", "  ".repeat(depth), n.kind());
                depth += 1;
            }
            rowan::WalkEvent::Leave(rowan::NodeOrToken::Node(_)) => depth -= 1,
            rowan::WalkEvent::Enter(rowan::NodeOrToken::Token(t)) if !t.kind().is_trivia() => {
                out += &format!("{}{:?} {}\n", "  ".repeat(depth), t.kind(), t.text());
            }
            _ => {}
        }
    }
    out
}

fn messages(text: &str) -> Vec<std::string::String> {
    parse(text)
        .errors()
        .iter()
        .map(|e| {
            format!(
                "{}..{}: {}",
                u32::from(e.range.start()),
                u32::from(e.range.end()),
                e.message
            )
        })
        .collect()
}

#[test]
fn a_record_with_annotations_fields_and_defaults() {
    let text =
        "@namespace(\"a\") protocol P { record R { @x([1, {\"k\": null}]) int? a = null, `b`; } }";
    assert!(messages(text).is_empty(), "{:?}", messages(text));
    assert_eq!(
        outline(text),
        "SourceFile
  Protocol
    Annotation
      At @
      NamespaceKw namespace
      LParen (
      JsonValue
        String \"a\"
      RParen )
    ProtocolKw protocol
    Ident P
    ProtocolBody
      LBrace {
      Record
        RecordKw record
        Ident R
        LBrace {
        Field
          NullableType
            PrimitiveType
              Annotation
                At @
                Ident x
                LParen (
                JsonValue
                  JsonArray
                    LBracket [
                    JsonValue
                      Int 1
                    Comma ,
                    JsonValue
                      JsonObject
                        LBrace {
                        JsonMember
                          String \"k\"
                          Colon :
                          JsonValue
                            NullKw null
                        RBrace }
                    RBracket ]
                RParen )
              IntKw int
            Question ?
          Variable
            Ident a
            Eq =
            JsonValue
              NullKw null
          Comma ,
          Variable
            QuotedIdent `b`
          Semicolon ;
        RBrace }
      RBrace }
"
    );
}

#[test]
fn messages_and_keywords_as_names() {
    let text = "protocol P {
  void `error`() oneway;
  record r(int record = 1) throws E, F;
  fixed f(string s);
  fixed F(16);
  error E { array<map<union { null, decimal(9, 2)? }>> error; }
}";
    assert!(messages(text).is_empty(), "{:?}", messages(text));
    // The outline on one line, `/` between lines, indentation left out.
    let tree = outline(text);
    let tree = tree.lines().map(str::trim).collect::<Vec<_>>().join("/");
    for expected in [
        "Message/PrimitiveType/VoidKw void/QuotedIdent `error`/ParamList",
        "Message/TypeRef/RecordKw record/Ident r/ParamList",
        "Throws/ThrowsKw throws/Ident E/Comma ,/Ident F/Semicolon ;",
        "Message/TypeRef/FixedKw fixed/Ident f/ParamList",
        "Fixed/FixedKw fixed/Ident F/LParen (/Int 16",
        "Record/ErrorKw error/Ident E",
        "Comma ,/NullableType/DecimalType/DecimalKw decimal",
        "Variable/ErrorKw error/Semicolon ;",
    ] {
        assert!(tree.contains(expected), "{expected} not in {tree}");
    }
}

#[test]
fn schema_files_and_their_order() {
    let text =
        "namespace a.b; schema array<R>; import idl \"x.avdl\"; enum E { A, B } = A; record R {}";
    assert!(messages(text).is_empty(), "{:?}", messages(text));
    assert_eq!(
        messages("record R {} namespace a; schema int;"),
        [
            "12..21: the namespace must be the first declaration of the file",
            "25..31: the `schema` declaration must come before the other declarations"
        ]
    );
    assert_eq!(messages("schema int; schema long;").len(), 1);
}

#[test]
fn errors_name_what_was_expected() {
    assert_eq!(
        messages("protocol P { record R { int x } }"),
        ["30..31: expected `;`, found `}`"]
    );
    assert_eq!(
        messages("protocol P {"),
        ["12..12: expected `}`, found the end of the file"]
    );
    assert_eq!(
        messages("protocol P {} x"),
        ["14..15: unexpected text after the protocol"]
    );
    assert_eq!(
        messages("enum E { A, }"),
        ["12..13: expected an enum symbol, found `}`"]
    );
    assert_eq!(
        messages("record R { union {} u; }"),
        ["18..19: expected a type, found `}`"]
    );
    assert_eq!(
        messages("record R { string s = \"\\q\"; }"),
        ["22..26: invalid escape sequence in string"]
    );
}

#[test]
fn leading_comments_go_inside_the_declaration_and_trailing_ones_stay_out() {
    let text = "protocol P {\n  int a(); // after a\n\n  // about b\n  /** b */\n  int b();\n}";
    let parse = parse(text);
    let body = parse
        .syntax()
        .descendants()
        .find(|n| n.kind() == ProtocolBody)
        .unwrap();
    let messages: Vec<_> = body.children().filter(|n| n.kind() == Message).collect();
    assert_eq!(messages[0].text(), "int a();");
    assert_eq!(messages[1].text(), "// about b\n  /** b */\n  int b();");
}

#[test]
fn deep_nesting_is_bounded_and_reported_once() {
    for open in ["[", "array<", "union {", "{\"a\":"] {
        let text = format!("record R {{ int x = {}; }}", open.repeat(100_000));
        let parse = parse(&text);
        assert_eq!(parse.syntax().to_string(), text);
        let deep = parse
            .errors()
            .iter()
            .filter(|e| e.message.contains("nested"))
            .count();
        assert_eq!(deep, 1, "{open}");
    }
}

#[test]
fn every_loop_consumes_input() {
    // Each of these once looped or could: a token no rule starts with, at every level.
    for text in [
        "}",
        ")",
        "protocol P { ) }",
        "record R { ; = }",
        "enum E { ; }",
        "@",
        "@a(",
        "protocol P { @a(1) }",
    ] {
        let parse = parse(text);
        assert_eq!(parse.syntax().to_string(), text);
        assert!(!parse.errors().is_empty(), "{text}");
    }
}
