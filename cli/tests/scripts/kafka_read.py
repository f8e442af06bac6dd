"""What Python confluent-kafka reads of a topic, for the tests of `avdl2rs kafka produce`:

    kafka_read.py BROKERS REGISTRY TOPIC COUNT [--avro-key]

prints the first COUNT messages of partition 0 as JSON lines {"key", "headers", "value"}: the
value read by confluent-kafka's AvroDeserializer through the registry; the key too with
--avro-key (and then "key_schema_id", the id its frame carries, and "key_subject_id", the id
registered under TOPIC-key), else as UTF-8 text; the headers as [name, value] pairs in order.
"""

import json
import sys

from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer
from confluent_kafka.serialization import MessageField, SerializationContext


def main():
    brokers, url, topic, count = sys.argv[1:5]
    avro_key = "--avro-key" in sys.argv[5:]
    registry = SchemaRegistryClient({"url": url})
    deserializer = AvroDeserializer(registry)
    consumer = Consumer({"bootstrap.servers": brokers, "group.id": "avdl2rs-cli-tests"})
    # Assigned rather than subscribed: no group to join, partition 0 from its start.
    consumer.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    seen = 0
    for _ in range(60):
        if seen == int(count):
            break
        message = consumer.poll(1.0)
        if message is None:
            continue
        if message.error():
            sys.exit(str(message.error()))
        print(json.dumps(described(message, topic, registry, deserializer, avro_key)))
        seen += 1
    else:
        sys.exit(f"only {seen} of {count} messages within a minute")
    consumer.close()


def described(message, topic, registry, deserializer, avro_key):
    value = deserializer(message.value(), SerializationContext(topic, MessageField.VALUE))
    headers = [[name, None if v is None else v.decode()] for name, v in message.headers() or []]
    line = {"headers": headers, "value": value}
    key = message.key()
    if key is not None and avro_key:
        line["key"] = deserializer(key, SerializationContext(topic, MessageField.KEY))
        line["key_schema_id"] = int.from_bytes(key[1:5], "big")
        line["key_subject_id"] = registry.get_latest_version(f"{topic}-key").schema_id
    else:
        line["key"] = None if key is None else key.decode()
    return line


main()
