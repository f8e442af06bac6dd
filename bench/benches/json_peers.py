"""fromjson and tojson with Python fastavro and Python avro, for json_peers.rs, which runs this
script after its own measurements, on the same files:

    python json_peers.py SCHEMA EVENTS_JSONL WORK_DIR REPEATS

For each codec (null, deflate) and tool it times fromjson (the JSON lines of EVENTS_JSONL, in
the Avro JSON encoding, into a container file of that codec) and tojson (the container file
json_peers.rs wrote of that codec, `events-CODEC.avro` in WORK_DIR, back to JSON lines),
each the whole file, REPEATS times (once for Python avro, which takes minutes), and prints one
JSON object per measurement on standard output: tool, direction, codec, seconds (a list).

fastavro: `json_reader` into `fastavro.writer`, and `fastavro.reader` into `json_writer`, its
own JSON encoding. Python avro has no Avro JSON encoding (its `avro` command reads and writes
plain JSON, without union branches), so the spec's encoding is converted here, driven by the
parsed schema, around `json.loads`/`json.dumps` and `avro.io`'s DatumWriter/DatumReader with
`avro.datafile`: what a user of that library writes to read and write these files.

Before timing, every tool's tojson of the file is checked against the input: the same
number of lines and the same values on the first lines.
"""

import datetime
import itertools
import json
import os
import sys
import time

import avro.datafile
import avro.io
import avro.schema
import fastavro
from fastavro.json_read import json_reader
from fastavro.json_write import json_writer

CODECS = ["null", "deflate"]
CHECKED_LINES = 1000
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
MILLI = datetime.timedelta(milliseconds=1)


def fastavro_fromjson(schema, source, target, codec):
    with open(source) as fi, open(target, "wb") as fo:
        fastavro.writer(fo, schema, json_reader(fi, schema), codec=codec)


def fastavro_tojson(schema, source, target):
    with open(source, "rb") as fi, open(target, "w") as fo:
        json_writer(fo, schema, fastavro.reader(fi))


def from_avro_json(schema, value):
    """The value `avro.io` writes for `value` in the Avro JSON encoding of `schema`."""
    kind = schema.type
    if kind == "record":
        return {f.name: from_avro_json(f.type, value[f.name]) for f in schema.fields}
    if kind == "union":
        if value is None:
            return None
        ((branch_name, inner),) = value.items()
        for branch in schema.schemas:
            name = getattr(branch, "fullname", None) or branch.type
            if name == branch_name:
                return from_avro_json(branch, inner)
        raise ValueError(f"no branch {branch_name}")
    if kind == "array":
        return [from_avro_json(schema.items, v) for v in value]
    if kind == "map":
        return {k: from_avro_json(schema.values, v) for k, v in value.items()}
    if schema.get_prop("logicalType") == "timestamp-millis":
        return EPOCH + value * MILLI
    return value


def branch_of(schema, value):
    """The branch of the union `schema` that `value` (as `avro.io` reads it) is of."""
    for branch in schema.schemas:
        if avro.io.validate(branch, value):
            return branch
    raise ValueError(f"{value!r} is in no branch")


def to_avro_json(schema, value):
    """`value`, as `avro.io` reads it, in the Avro JSON encoding of `schema`."""
    kind = schema.type
    if kind == "record":
        return {f.name: to_avro_json(f.type, value[f.name]) for f in schema.fields}
    if kind == "union":
        if value is None:
            return None
        branch = branch_of(schema, value)
        name = getattr(branch, "fullname", None) or branch.type
        return {name: to_avro_json(branch, value)}
    if kind == "array":
        return [to_avro_json(schema.items, v) for v in value]
    if kind == "map":
        return {k: to_avro_json(schema.values, v) for k, v in value.items()}
    if isinstance(value, datetime.datetime):
        return (value - EPOCH) // MILLI
    return value


def avro_fromjson(schema, source, target, codec):
    with open(source) as fi, open(target, "wb") as fo:
        writer = avro.datafile.DataFileWriter(fo, avro.io.DatumWriter(), schema, codec=codec)
        for line in fi:
            writer.append(from_avro_json(schema, json.loads(line)))
        writer.close()


def avro_tojson(schema, source, target):
    with open(source, "rb") as fi, open(target, "w") as fo:
        for record in avro.datafile.DataFileReader(fi, avro.io.DatumReader()):
            fo.write(json.dumps(to_avro_json(schema, record)))
            fo.write("\n")


def check(tool, written, expected, lines):
    """`written` (JSON lines) holds `expected`'s values, `lines` of them."""
    with open(written) as w, open(expected) as e:
        for i, (a, b) in enumerate(zip(itertools.islice(w, CHECKED_LINES), e)):
            if json.loads(a) != json.loads(b):
                sys.exit(f"{tool}: line {i + 1} of {written} differs: {a!r} != {b!r}")
    with open(written) as w:
        count = sum(1 for _ in w)
    if count != lines:
        sys.exit(f"{tool}: {written} has {count} lines, not {lines}")


def timed(call, repeats):
    seconds = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - started)
    return seconds


def main():
    schema_path, events, work, repeats = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    with open(schema_path) as f:
        text = f.read()
    fast_schema = fastavro.parse_schema(json.loads(text))
    avro_schema = avro.schema.parse(text)
    with open(events) as f:
        lines = sum(1 for _ in f)
    tools = [
        (
            "fastavro",
            repeats,
            lambda s, t, c: fastavro_fromjson(fast_schema, s, t, c),
            lambda s, t: fastavro_tojson(fast_schema, s, t),
        ),
        (
            "avro",
            1,
            lambda s, t, c: avro_fromjson(avro_schema, s, t, c),
            lambda s, t: avro_tojson(avro_schema, s, t),
        ),
    ]
    for codec in CODECS:
        ours = os.path.join(work, f"events-{codec}.avro")
        for tool, n, fromjson, tojson in tools:
            avro_out = os.path.join(work, f"{tool}-{codec}.avro")
            json_out = os.path.join(work, f"{tool}-{codec}.jsonl")
            for direction, call in [
                ("fromjson", lambda: fromjson(events, avro_out, codec)),
                ("tojson", lambda: tojson(ours, json_out)),
            ]:
                seconds = timed(call, n)
                if direction == "tojson":
                    check(tool, json_out, events, lines)
                print(
                    json.dumps(
                        {"tool": tool, "direction": direction, "codec": codec, "seconds": seconds}
                    ),
                    flush=True,
                )
            # What the tool wrote reads back as the input's values (through fastavro, the
            # faster reader).
            fastavro_tojson(fast_schema, avro_out, json_out)
            check(tool, json_out, events, lines)
            os.remove(avro_out)
            os.remove(json_out)


if __name__ == "__main__":
    main()
