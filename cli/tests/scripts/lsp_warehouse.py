"""`avdl2rs lsp` driven by a real LSP client (pytest-lsp, on pygls and lsprotocol), on the
warehouse example's contracts, whose imports cross folders (one beside the file, one in the
include directory), on a broken copy of them, and on a copy committed to a git repository
whose `avdl2rs.toml` asks for the compatibility check against HEAD (and names the include
directory, so that server is started without `-I`).

Run by `cli/tests/it/cli_lsp.rs` as `python -m pytest lsp_warehouse.py`, with AVDL2RS_BIN
(the `avdl2rs` binary) and AVDL2RS_WAREHOUSE (the example's `schemas` folder) set.
"""

import atexit
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

BIN = os.environ["AVDL2RS_BIN"]
SCHEMAS = pathlib.Path(os.environ["AVDL2RS_WAREHOUSE"])

# The broken copy: a misspelt type in the protocol, a syntax error in an imported file.
_copy_root = tempfile.mkdtemp()
atexit.register(shutil.rmtree, _copy_root, ignore_errors=True)
BROKEN = pathlib.Path(_copy_root) / "schemas"
shutil.copytree(SCHEMAS, BROKEN)
_main = BROKEN / "warehouse.avdl"
_main.write_text(
    _main.read_text().replace("com.example.reference.Location from;", "com.example.reference.Locaton from;")
)
_locations = BROKEN / "reference" / "locations.avdl"
_locations.write_text(_locations.read_text().replace("record Location", "recrod Location"))


# The committed copy: a git repository of its own, the schemas as they are, and settings
# that check each file against HEAD at BACKWARD and find `shared/` through `[lsp] include`.
COMMITTED = pathlib.Path(_copy_root) / "committed"
shutil.copytree(SCHEMAS, COMMITTED)
(COMMITTED / "avdl2rs.toml").write_text(
    '[lsp]\ninclude = ["shared"]\ncompat = { level = "BACKWARD", against = "HEAD" }\n'
)
for _command in (
    ["init", "-q"],
    ["add", "."],
    ["-c", "user.name=avdl2rs", "-c", "user.email=avdl2rs@localhost", "commit", "-q", "-m", "schemas"],
):
    subprocess.run(["git", *_command], cwd=COMMITTED, check=True, capture_output=True)


def server(schemas):
    return ClientServerConfig(server_command=[BIN, "lsp", "-I", str(schemas / "shared")])


def position(text, offset):
    """The LSP position (UTF-16 columns) of character `offset` of `text`."""
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return types.Position(line=line, character=len(text[start:offset].encode("utf-16-le")) // 2)


def apply(text, edits):
    """`text` with `edits` applied."""
    lines = text.splitlines(keepends=True)

    def offset(at):
        before = sum(len(line) for line in lines[: at.line])
        line = lines[at.line] if at.line < len(lines) else ""
        units = 0
        for i, c in enumerate(line):
            if units >= at.character or c == "\n":
                return before + i
            units += len(c.encode("utf-16-le")) // 2
        return before + len(line)

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


async def initialize(client, schemas):
    params = types.InitializeParams(
        capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
        workspace_folders=[types.WorkspaceFolder(uri=schemas.as_uri(), name="schemas")],
    )
    return await client.initialize_session(params)


async def open_and_wait(client, path):
    """Opens `path` and waits for its diagnostics."""
    uri = path.resolve().as_uri()
    item = types.TextDocumentItem(uri=uri, language_id="avro-idl", version=1, text=path.read_text())
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    while uri not in client.diagnostics:
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri, client.diagnostics[uri]


@pytest_lsp.fixture(config=server(SCHEMAS))
async def client(lsp_client: LanguageClient):
    lsp_client.initialize_result = await initialize(lsp_client, SCHEMAS)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=server(BROKEN))
async def broken(lsp_client: LanguageClient):
    await initialize(lsp_client, BROKEN)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BIN, "lsp"]))
async def committed(lsp_client: LanguageClient):
    await initialize(lsp_client, COMMITTED)
    yield
    await lsp_client.shutdown_session()


async def change_and_wait(client, uri, version, text):
    """Sends `text` as the whole document and waits for its diagnostics."""
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    while uri not in client.diagnostics:
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return client.diagnostics[uri]


def compat(diagnostics):
    return [d for d in diagnostics if d.source == "avdl2rs-compat"]


@pytest.mark.asyncio
async def test_a_backward_incompatible_edit_is_reported_on_its_field(committed: LanguageClient):
    main = COMMITTED / "warehouse.avdl"
    text = main.read_text()
    uri, diagnostics = await open_and_wait(committed, main)
    # As committed: compatible with itself, and the include folder of the settings finds
    # the shared envelope (no error).
    assert compat(diagnostics) == []
    assert [d for d in diagnostics if d.severity == types.DiagnosticSeverity.Error] == []

    # A field without a default: the new reader cannot read data written before it.
    labels = "map<string> labels = {};"
    broken = text.replace(labels, labels + "\n    string batch;")
    found = compat(await change_and_wait(committed, uri, 2, broken))
    assert len(found) == 1, found
    assert found[0].code == "READER_FIELD_MISSING_DEFAULT"
    assert found[0].severity == types.DiagnosticSeverity.Warning
    batch = broken.index("string batch") + len("string ")
    assert found[0].range.start == position(broken, batch)
    assert found[0].range.end == position(broken, batch + len("batch"))

    # With a default it reads the old data again: the diagnostic is gone.
    fixed = text.replace(labels, labels + '\n    string batch = "";')
    assert compat(await change_and_wait(committed, uri, 3, fixed)) == []


@pytest.mark.asyncio
async def test_warehouse_diagnostics_outline_and_formatting(client: LanguageClient):
    uri, diagnostics = await open_and_wait(client, SCHEMAS / "warehouse.avdl")
    # Both imports found (beside the file and in the include directory): no error, only
    # lint warnings, each with its rule as code.
    assert [d for d in diagnostics if d.severity == types.DiagnosticSeverity.Error] == []
    assert diagnostics and all(d.source == "avdl2rs-lint" and d.code for d in diagnostics)

    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert [s.name for s in symbols] == ["Warehouse"]
    assert [s.name for s in symbols[0].children] == ["MovementLine", "StockMoved"]
    moved = symbols[0].children[1]
    assert [f.name for f in moved.children] == ["event", "from", "to", "lines", "labels"]

    # Semantic tokens, decoded with the legend the server announced.
    legend = client.initialize_result.capabilities.semantic_tokens_provider.legend
    tokens = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    text = (SCHEMAS / "warehouse.avdl").read_text()
    line, start, decoded = 0, 0, {}
    data = tokens.data
    for i in range(0, len(data), 5):
        line += data[i]
        start = start + data[i + 1] if data[i] == 0 else data[i + 1]
        decoded[(line, start)] = (data[i + 2], legend.token_types[data[i + 3]])
    moved = text.index("StockMoved")
    at = position(text, moved)
    assert decoded[(at.line, at.character)] == (len("StockMoved"), "struct")
    keyword = position(text, moved - len("record "))
    assert decoded[(keyword.line, keyword.character)] == (len("record"), "keyword")
    sku = position(text, text.index("com.example.reference.Sku"))
    assert decoded[(sku.line, sku.character)] == (len("com.example.reference.Sku"), "type")
    assert decoded[(0, 0)] == (3, "comment")  # "/**", the first line of the doc comment

    # The imported file in the include directory, formatted as `avdl2rs fmt` formats it.
    shared = SCHEMAS / "shared" / "business_event.avdl"
    shared_uri, _ = await open_and_wait(client, shared)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=shared_uri),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    text = shared.read_text()
    expected = subprocess.run([BIN, "fmt", "-"], input=text, capture_output=True, text=True, check=True).stdout
    assert expected != text
    assert apply(text, edits) == expected


@pytest.mark.asyncio
async def test_broken_copy_reports_errors_at_their_places(broken: LanguageClient):
    text = (BROKEN / "warehouse.avdl").read_text()
    uri, diagnostics = await open_and_wait(broken, BROKEN / "warehouse.avdl")
    errors = [d for d in diagnostics if d.severity == types.DiagnosticSeverity.Error]
    # The compiler stops at the broken import: reported at the import, naming the place.
    assert len(errors) == 1, errors
    import_at = text.index('import idl "reference/locations.avdl"')
    assert errors[0].range.start == position(text, import_at)
    assert "locations.avdl:9:3: unknown keyword `recrod`" in errors[0].message

    locations = BROKEN / "reference" / "locations.avdl"
    loc_uri, diagnostics = await open_and_wait(broken, locations)
    loc_text = locations.read_text()
    # The compiler's word on the misspelt keyword, then the tree's on what follows it.
    assert all(d.severity == types.DiagnosticSeverity.Error for d in diagnostics)
    assert diagnostics[0].range.start == position(loc_text, loc_text.index("recrod"))
    assert diagnostics[0].message == "unknown keyword `recrod`; did you mean `record`?"
    # A file that does not parse is not formatted.
    with pytest.raises(Exception, match="recrod"):
        await broken.text_document_formatting_async(
            types.DocumentFormattingParams(
                text_document=types.TextDocumentIdentifier(uri=loc_uri),
                options=types.FormattingOptions(tab_size=2, insert_spaces=True),
            )
        )

    # Fixed in the editor (unsaved): the importer is checked again and reaches its own error.
    del broken.diagnostics[uri]
    fixed = loc_text.replace("recrod Location", "record Location")
    broken.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=loc_uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    while uri not in broken.diagnostics:
        await broken.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    errors = [d for d in broken.diagnostics[uri] if d.severity == types.DiagnosticSeverity.Error]
    assert len(errors) == 1, errors
    assert errors[0].message.startswith("Undefined schema: com.example.reference.Locaton")
    assert errors[0].range.start == position(text, text.index("com.example.reference.Locaton"))


@pytest.mark.asyncio
async def test_navigation_hover_completion_and_rename(client: LanguageClient):
    main = SCHEMAS / "warehouse.avdl"
    text = main.read_text()
    uri, _ = await open_and_wait(client, main)
    doc = types.TextDocumentIdentifier(uri=uri)

    # Definition: across folders, into the file beside (reference/) and the include directory.
    sku = text.index("com.example.reference.Sku") + len("com.example.reference.")
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=position(text, sku + 1))
    )
    locations = SCHEMAS / "reference" / "locations.avdl"
    loc_text = locations.read_text()
    assert found.uri == locations.resolve().as_uri()
    assert found.range.start == position(loc_text, loc_text.index("record Sku") + len("record "))
    event = text.index("com.example.shared.BusinessEvent") + len("com.example.shared.")
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=position(text, event))
    )
    assert found.uri == (SCHEMAS / "shared" / "business_event.avdl").resolve().as_uri()

    # Hover: the referenced type's full name, doc and fingerprint, which `avdl2rs fingerprint`
    # computes the same from the type's own schema.
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc, position=position(text, sku + 1))
    )
    fingerprint = subprocess.run(
        [BIN, "fingerprint", "--type", "com.example.reference.Sku", "--format", "0x", str(locations)],
        capture_output=True, text=True, check=True,
    ).stdout.split()[0]
    assert "record com.example.reference.Sku" in hover.contents.value
    assert f"Fingerprint (CRC-64-AVRO): `{fingerprint}`" in hover.contents.value

    # Completion: the types in scope, simple in the protocol's namespace, full outside it.
    at = text.index("int quantity") + 1
    items = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc, position=position(text, at))
    )
    labels = [item.label for item in items]
    assert "MovementLine" in labels and "com.example.shared.Actor" in labels
    assert "timestamp_ms" in labels

    # Rename: every file that names the type, the old name kept as an alias.
    location = text.index("com.example.reference.Location from") + len("com.example.reference.")
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc, position=position(text, location), new_name="Place")
    )
    by_file = {change.text_document.uri: change.edits for change in edit.document_changes}
    assert len(by_file[uri]) == 2
    renamed = apply(loc_text, by_file[locations.resolve().as_uri()])
    assert '@aliases(["com.example.reference.Location"]) record Place {' in renamed
