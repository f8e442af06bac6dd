"""Reads a topic with Python confluent-kafka, as a service in another language would, and
prints what each message is, from the registry alone:

    record_names.py BROKERS REGISTRY TOPIC COUNT
        prints COUNT lines: the full name of the message's writer schema (fetched from the
        registry by the id in its frame), a space, the value as AvroDeserializer reads it
        with that schema, as JSON
"""

import json
import struct
import sys
import time
import uuid

from confluent_kafka import Consumer
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer
from confluent_kafka.serialization import MessageField, SerializationContext


def full_name(registry, frame):
    magic, schema_id = struct.unpack(">bI", frame[:5])
    if magic != 0:
        sys.exit(f"not a Confluent frame: magic byte {magic}")
    schema = json.loads(registry.get_schema(schema_id).schema_str)
    namespace = schema.get("namespace")
    return f"{namespace}.{schema['name']}" if namespace else schema["name"]


def main():
    brokers, url, topic, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    registry = SchemaRegistryClient({"url": url})
    deserializer = AvroDeserializer(registry)
    context = SerializationContext(topic, MessageField.VALUE)
    consumer = Consumer({
        "bootstrap.servers": brokers,
        "group.id": f"record-names-{uuid.uuid4()}",
        "auto.offset.reset": "earliest",
        # The test broker completes a join after about half the session timeout.
        "session.timeout.ms": 6000,
    })
    consumer.subscribe([topic])
    messages = []
    deadline = time.monotonic() + 120
    while len(messages) < count and time.monotonic() < deadline:
        messages += consumer.consume(count - len(messages), timeout=1.0)
    consumer.close()
    if len(messages) < count:
        sys.exit(f"only {len(messages)} of {count} messages within two minutes")
    for message in messages:
        if message.error():
            sys.exit(str(message.error()))
        value = deserializer(message.value(), context)
        print(full_name(registry, message.value()), json.dumps(value))


main()
