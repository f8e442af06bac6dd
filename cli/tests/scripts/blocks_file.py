"""Writes a container file with Python `avro` in blocks of ten records, for the tests of
`avdl2rs repair` and `cat --skip-damaged`, and prints each record written as a JSON line.

    blocks_file.py SCHEMA OUT CODEC BLOCKS
"""

import json
import sys

import avro.datafile
import avro.io
import avro.schema

schema_path, out, codec, blocks = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
schema = avro.schema.parse(open(schema_path).read())
with open(out, "wb") as file:
    writer = avro.datafile.DataFileWriter(file, avro.io.DatumWriter(), schema, codec=codec)
    writer.set_meta("written.by", b"python avro")
    for i in range(blocks * 10):
        record = {"id": i, "name": "record %d" % i, "score": i / 4}
        writer.append(record)
        print(json.dumps(record))
        if i % 10 == 9:
            # Ends the block here.
            writer.sync()
    writer.close()
