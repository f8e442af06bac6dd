"""The other side of the Kafka interop tests: Python confluent-kafka's Producer and Consumer
with its AvroSerializer and AvroDeserializer, through the same broker and registry.

    kafka_interop.py produce BROKERS REGISTRY TOPIC SCHEMA_JSON VALUES_JSON
        sends each value of the JSON list, keyed by its index as text, with a header
        `from: python`
    kafka_interop.py produce-types BROKERS REGISTRY TOPIC MESSAGES_JSON
        sends each [schema, value] pair of the JSON list, in order, each value registered
        under its own type's subject (TopicRecordNameStrategy: `<topic>-<full name>`)
    kafka_interop.py consume BROKERS REGISTRY TOPIC GROUP COUNT
        prints COUNT messages as JSON lines: {"key", "value", "headers", "partition", "offset"}
    kafka_interop.py consume-types BROKERS REGISTRY TOPIC GROUP COUNT
        the same, each line also with "type": the full name of the record written, which the
        registry's schema of the message's id names (for a union of records, the branch
        written, the deserializer asked to return record names)
"""

import json
import sys

from confluent_kafka import Consumer, Producer
from confluent_kafka.schema_registry import (
    SchemaRegistryClient,
    topic_record_subject_name_strategy,
)
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
from confluent_kafka.serialization import MessageField, SerializationContext


def produce(brokers, registry, topic, schema, values):
    serializer = AvroSerializer(registry, schema, conf={"auto.register.schemas": True})
    context = SerializationContext(topic, MessageField.VALUE)
    producer = Producer({"bootstrap.servers": brokers})
    for index, value in enumerate(values):
        producer.produce(
            topic,
            key=str(index).encode(),
            value=serializer(value, context),
            headers=[("from", b"python")],
        )
    if producer.flush(30) != 0:
        sys.exit("messages left undelivered")


def produce_types(brokers, registry, topic, messages):
    conf = {
        "auto.register.schemas": True,
        "subject.name.strategy": topic_record_subject_name_strategy,
    }
    context = SerializationContext(topic, MessageField.VALUE)
    producer = Producer({"bootstrap.servers": brokers})
    for index, (schema, value) in enumerate(messages):
        serializer = AvroSerializer(registry, schema, conf=conf)
        producer.produce(topic, key=str(index).encode(), value=serializer(value, context))
        # One at a time, so that the topic holds them in this order.
        if producer.flush(30) != 0:
            sys.exit("messages left undelivered")


def full_name(schema):
    """The full name of the named type a parsed schema defines."""
    name, namespace = schema["name"], schema.get("namespace")
    return name if "." in name or not namespace else f"{namespace}.{name}"


def typed(registry, frame, value):
    """The record written in `frame` and its value: the type the writer schema of the frame's
    id names, or for a union, the branch the deserializer names."""
    schema = json.loads(registry.get_schema(int.from_bytes(frame[1:5], "big")).schema_str)
    if isinstance(schema, list):
        name, record = value
        return name, record
    return full_name(schema), value


def consume(brokers, registry, topic, group, count, types=False):
    deserializer = AvroDeserializer(registry, return_record_name=types)
    context = SerializationContext(topic, MessageField.VALUE)
    consumer = Consumer({
        "bootstrap.servers": brokers,
        "group.id": group,
        "auto.offset.reset": "earliest",
        # The test broker completes a join after about half the session timeout.
        "session.timeout.ms": 6000,
    })
    consumer.subscribe([topic])
    seen = 0
    polls = 0
    while seen < count:
        polls += 1
        if polls > 120:
            sys.exit(f"only {seen} of {count} messages within two minutes")
        message = consumer.poll(1.0)
        if message is None:
            continue
        if message.error():
            sys.exit(str(message.error()))
        headers = {k: v.decode() for k, v in (message.headers() or [])}
        value = deserializer(message.value(), context)
        line = {
            "key": message.key().decode() if message.key() is not None else None,
            "value": value,
            "headers": headers,
            "partition": message.partition(),
            "offset": message.offset(),
        }
        if types:
            line["type"], line["value"] = typed(registry, message.value(), value)
        print(json.dumps(line))
        seen += 1
    consumer.close()


def main():
    action, brokers, url = sys.argv[1:4]
    registry = SchemaRegistryClient({"url": url})
    if action == "produce":
        topic, schema, values = sys.argv[4], sys.argv[5], json.loads(sys.argv[6])
        produce(brokers, registry, topic, schema, values)
    elif action == "produce-types":
        produce_types(brokers, registry, sys.argv[4], json.loads(sys.argv[5]))
    elif action in ("consume", "consume-types"):
        topic, group, count = sys.argv[4], sys.argv[5], int(sys.argv[6])
        consume(brokers, registry, topic, group, count, types=action == "consume-types")
    else:
        sys.exit(f"unknown action {action}")


main()
