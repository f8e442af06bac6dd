"""Python confluent-kafka's AvroSerializer and AvroDeserializer with warm caches, for
registry_peers.rs, which runs this script after its own measurements:

    python registry_peers.py REGISTRY_URL < cases.json

Each case (a JSON list on standard input) names a shape, its topic, the schema the Rust
serializer registered there, the value as JSON and the frame the Rust serializer wrote. The
serializer is given the same schema text, so it finds the same schema id; the value is the
dict the serializer takes, built outside the timed loop. Both the frame it writes and the
dict it reads back are checked against the Rust ones before timing, then each direction is
timed the way timeit does: a loop of many calls, repeated, printing the median ns/message.
"""

import json
import statistics
import sys
import timeit

from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
from confluent_kafka.serialization import MessageField, SerializationContext

REPEATS = 7
"""Timed loops per direction; the median of their per-message times is printed."""

LOOP_SECONDS = 1.0
"""About how long one timed loop runs, which sets its number of calls."""


def ns_per_message(call):
    """The median over REPEATS loops of the time of one `call()`, in nanoseconds."""
    timer = timeit.Timer(call)
    calls, seconds = timer.autorange()
    number = max(calls, round(calls * LOOP_SECONDS / seconds))
    loops = timer.repeat(repeat=REPEATS, number=number)
    return statistics.median(loops) / number * 1e9, number


def main():
    url = sys.argv[1]
    client = SchemaRegistryClient({"url": url})
    for case in json.load(sys.stdin):
        name, value, frame = case["name"], case["value"], bytes(case["frame"])
        context = SerializationContext(case["topic"], MessageField.VALUE)
        serializer = AvroSerializer(client, case["schema"])
        deserializer = AvroDeserializer(client)
        written = serializer(value, context)
        if written != frame:
            sys.exit(f"{name}: the frame differs from the Rust one: {written!r} != {frame!r}")
        read = deserializer(frame, context)
        if read != value:
            sys.exit(f"{name}: read {read!r}, not {value!r}")
        for direction, call in [
            ("encode", lambda: serializer(value, context)),
            ("decode", lambda: deserializer(frame, context)),
        ]:
            ns, number = ns_per_message(call)
            print(
                f"python confluent-kafka {name} {direction}: {ns:.0f} ns/message "
                f"(median of {REPEATS} loops of {number})",
                flush=True,
            )


if __name__ == "__main__":
    main()
