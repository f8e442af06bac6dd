"""Writes, checks and renders Avro object container files with Python `avro`, the
reference implementation the Rust container files are compared with.

    avro_files.py write NAME SCHEMA OUT_DIR   one file per codec: OUT_DIR/NAME-CODEC.avro
    avro_files.py check NAME FILE             reads FILE, compares it with the records of NAME
    avro_files.py json FILE                   prints FILE's records in the Avro JSON encoding
"""

import datetime
import json
import sys

import avro.codecs
import avro.datafile
import avro.io
import avro.schema

# The records of each schema, written independently of the Rust side's values. `interop`
# follows Avro's own gen_interop_data.py, with more values of every union branch.
INTEROP = [
    {
        "intField": 12,
        "longField": 15234324,
        "stringField": "hey",
        "boolField": True,
        "floatField": 1234.0,
        "doubleField": -1234.0,
        "bytesField": b"12312adf",
        "nullField": None,
        "arrayField": [5.0, 0.0, 12.0],
        "mapField": {"a": {"label": "a"}, "bee": {"label": "cee"}},
        "unionField": 12.0,
        "enumField": "C",
        "fixedField": b"1019181716151413",
        "recordField": {"label": "blah", "children": [{"label": "inner", "children": []}]},
    },
    {
        "intField": -2147483648,
        "longField": -9223372036854775808,
        "stringField": "h\u00e9llo \u2713 \U0001F600",
        "boolField": False,
        "floatField": -0.5,
        "doubleField": 1e-300,
        "bytesField": b"\x00\x7f\x80\xff",
        "nullField": None,
        "arrayField": [],
        "mapField": {},
        "unionField": [b"", b"\x01\xfe"],
        "enumField": "A",
        "fixedField": bytes(range(240, 256)),
        "recordField": {"label": "", "children": [{"label": "x", "children": [{"label": "y", "children": []}]}]},
    },
    {
        "intField": 2147483647,
        "longField": 9223372036854775807,
        "stringField": "",
        "boolField": True,
        "floatField": 3.25,
        "doubleField": 2.5,
        "bytesField": b"",
        "nullField": None,
        "arrayField": [1.5],
        "mapField": {"k": {"label": "v"}},
        # Not `True`: Python avro writes a bool in this union as the double 1.0.
        "unionField": 0.5,
        "enumField": "B",
        "fixedField": b"\x00" * 16,
        "recordField": {"label": "leaf", "children": []},
    },
]

ORDERS = [
    {"id": 42, "amount": 99.5, "user_id": 7, "currency": "CNY", "discount": 5.0},
    {"id": -1, "amount": 0.25, "user_id": 8, "currency": "EUR", "discount": None},
]


def location(zone, bin_):
    return {"site": "SHA-1", "aisle": 3, "shelf": 2, "bin": bin_, "zone": zone}


WAREHOUSE = [
    {
        "event": {
            "event_id": "0b7e4c1e-6a51-4c55-9a3c-2f6f3b1d9e01",
            "occurred_at": datetime.datetime(2026, 12, 1, 8, 30, 15, 123000, tzinfo=datetime.timezone.utc),
            "source": "warehouse-service",
            "actor": {"id": "forklift-17", "on_behalf_of": None},
            "correlation_id": None,
        },
        "from": location("RECEIVING", "R-01"),
        "to": location("STORAGE", "S-42"),
        "lines": [
            {"sku": {"code": "SKU-1001", "description": "Tea, 250 g", "weight_grams": 250}, "quantity": 12},
            {"sku": {"code": "SKU-2002", "description": "Teapot", "weight_grams": None}, "quantity": 1},
        ],
        "labels": {"carrier": "internal"},
    }
]

RECORDS = {"interop": INTEROP, "orders": ORDERS, "warehouse": WAREHOUSE}

# Enough records for several blocks of Python's 64,000-byte sync interval.
COUNT = 1500


def records(name):
    values = RECORDS[name]
    return [values[i % len(values)] for i in range(COUNT)]


def write(name, schema_path, out_dir):
    with open(schema_path) as f:
        schema = avro.schema.parse(f.read())
    for codec in sorted(avro.codecs.KNOWN_CODECS):
        with open(f"{out_dir}/{name}-{codec}.avro", "wb") as out:
            writer = avro.datafile.DataFileWriter(out, avro.io.DatumWriter(), schema, codec=codec)
            writer.set_meta("user_metadata", b"someByteArray")
            for record in records(name):
                writer.append(record)
            writer.close()
        print(codec)


def check(name, path):
    with open(path, "rb") as f:
        read = list(avro.datafile.DataFileReader(f, avro.io.DatumReader()))
    expected = records(name)
    if read != expected:
        first = next(i for i, (a, b) in enumerate(zip(read + [None] * len(expected), expected)) if a != b)
        sys.exit(f"{path}: record {first} is {read[first] if first < len(read) else None!r}, expected {expected[first]!r}")
    print("ok")


class JsonDatumReader(avro.io.DatumReader):
    """Reads union values wrapped as the JSON encoding writes them."""

    def read_union(self, writers_schema, readers_schema, decoder):
        branch = writers_schema.schemas[int(decoder.read_long())]
        value = self.read_data(branch, branch, decoder)
        if branch.type == "null":
            return None
        name = branch.fullname if isinstance(branch, avro.schema.NamedSchema) else branch.type
        return {name: value}


def to_json(value):
    """Bytes as one code point per byte; timestamps (millis) as the long they are stored as."""
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, datetime.datetime):
        epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        return (value - epoch) // datetime.timedelta(milliseconds=1)
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    return value


def render(path):
    with open(path, "rb") as f:
        for record in avro.datafile.DataFileReader(f, JsonDatumReader()):
            print(json.dumps(to_json(record), ensure_ascii=False))


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    {"write": write, "check": check, "json": render}[command](*args)
