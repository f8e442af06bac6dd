"""Parsing Canonical Form and fingerprints of a schema file's schemas, by Python `avro` (and,
for an .avsc, checked against `fastavro`), for the CLI's `canonical` and `fingerprint` tests.

    schema_forms.py FILE   one JSON line per schema: the .avsc's own (name null), or each
                           named type of an .avpr by full name, with "canonical", "crc64"
                           (the 64-bit value in hex, most significant digit first), "md5"
                           and "sha256" (the digests' bytes in hex)
"""

import json
import sys

import avro.protocol
import avro.schema
import fastavro


def forms(schema):
    crc = schema.fingerprint()  # CRC-64-AVRO, its 8 bytes least significant first
    return {
        "canonical": schema.canonical_form,
        "crc64": "0x" + crc[::-1].hex(),
        "md5": schema.fingerprint("md5").hex(),
        "sha256": schema.fingerprint("sha256").hex(),
    }


def main(path):
    with open(path) as f:
        text = f.read()
    if path.endswith(".avpr"):
        # Python avro 1.12 cannot parse a protocol without messages.
        for named in avro.protocol.parse(text).types or []:
            print(json.dumps({"name": named.fullname, "type": named.type, **forms(named)}))
        return
    found = forms(avro.schema.parse(text))
    theirs = fastavro.schema.to_parsing_canonical_form(json.loads(text))
    if theirs != found["canonical"]:
        sys.exit(f"{path}: avro gives {found['canonical']}, fastavro {theirs}")
    print(json.dumps({"name": None, "type": None, **found}))


main(sys.argv[1])
