"""Parsing Canonical Form and fingerprints of a schema file's schemas by `fastavro`, for the
CLI's `canonical` and `fingerprint` tests.

    schema_forms.py FILE   one JSON line per schema: the .avsc's own (name null), or each
                           named type of an .avpr by full name, with "canonical", "crc64",
                           "md5" and "sha256" (the fingerprints' bytes in hex, as fastavro
                           gives them) and "crc64_value" (the CRC-64 as a number)

A protocol's type is made standalone by fastavro itself: it is parsed with the named types
before it expanded, each kept expanded for the types after it; a named type the expansion
defines twice is then a reference by its full name after its first definition, as a schema
must define each name once.
"""

import json
import sys

import fastavro
import fastavro.schema


def forms(name, schema):
    canonical = fastavro.schema.to_parsing_canonical_form(schema)
    # fastavro gives the CRC-64 as the hex of its 8 bytes least significant first, as
    # single-object headers carry them.
    crc = fastavro.schema.fingerprint(canonical, "CRC-64-AVRO")
    return {
        "name": name,
        "canonical": canonical,
        "crc64": crc,
        "crc64_value": int.from_bytes(bytes.fromhex(crc), "little"),
        "md5": fastavro.schema.fingerprint(canonical, "md5"),
        "sha256": fastavro.schema.fingerprint(canonical, "sha256"),
    }


def define_once(schema, defined):
    """`schema` with every named type after its first definition replaced by its name."""
    if isinstance(schema, list):
        return [define_once(branch, defined) for branch in schema]
    if not isinstance(schema, dict):
        return schema
    if schema.get("type") in ("record", "error", "enum", "fixed"):
        if schema["name"] in defined:
            return schema["name"]
        defined.add(schema["name"])
    return {key: define_once(value, defined) if key in ("type", "items", "values") else
            [dict(field, type=define_once(field["type"], defined)) for field in value]
            if key == "fields" else value
            for key, value in schema.items()}


def protocol_types(protocol):
    namespace = protocol.get("namespace")
    named = {}
    for declared in protocol.get("types", []):
        declared = dict(declared)
        if namespace and "namespace" not in declared and "." not in declared["name"]:
            declared["namespace"] = namespace
        standalone = fastavro.parse_schema(declared, named_schemas=named, expand=True)
        named[standalone["name"]] = standalone
        yield standalone["name"], define_once(standalone, set())


def main(path):
    with open(path) as f:
        schema = json.load(f)
    if path.endswith(".avpr"):
        for name, standalone in protocol_types(schema):
            print(json.dumps(forms(name, standalone)))
    else:
        print(json.dumps(forms(None, schema)))


main(sys.argv[1])
