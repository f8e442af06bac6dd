"""Converts between Avro object container files and the Avro JSON encoding with `fastavro`,
an implementation of the JSON encoding independent of the Rust one.

    fastavro_json.py json SCHEMA FILE       prints FILE's records as JSON lines (json_writer)
    fastavro_json.py binary SCHEMA IN OUT   reads IN's JSON lines (json_reader) into the
                                            container file OUT, uncompressed
"""

import json
import sys

import fastavro


def load(schema_path):
    with open(schema_path) as f:
        return fastavro.parse_schema(json.load(f))


def to_json(schema_path, path):
    schema = load(schema_path)
    with open(path, "rb") as f:
        records = list(fastavro.reader(f))
    fastavro.json_writer(sys.stdout, schema, records)


def to_binary(schema_path, json_path, out_path):
    schema = load(schema_path)
    with open(json_path) as f:
        records = list(fastavro.json_reader(f, schema))
    with open(out_path, "wb") as out:
        fastavro.writer(out, schema, records, codec="null")
    print(len(records))


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    {"json": to_json, "binary": to_binary}[command](*args)
