"""The other side of the registry interop test: Python confluent-kafka's AvroSerializer and
AvroDeserializer with SchemaRegistryClient, against the same registry. No Kafka broker is
needed: the serializers only need a SerializationContext.

    interop.py produce URL TOPIC SCHEMA_JSON VALUE_JSON  -> prints the frame as hex
    interop.py consume URL TOPIC HEX                     -> prints the value as JSON

In JSON, timestamps are epoch milliseconds and bytes are lists of numbers.
"""

import datetime
import json
import sys

from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
from confluent_kafka.serialization import MessageField, SerializationContext


def plain(value):
    """The value with datetimes and bytes as JSON can hold them."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, datetime.datetime):
        return round(value.timestamp() * 1000)
    if isinstance(value, (bytes, bytearray)):
        return list(value)
    return value


def main():
    action, url, topic = sys.argv[1:4]
    client = SchemaRegistryClient({"url": url})
    context = SerializationContext(topic, MessageField.VALUE)
    if action == "produce":
        schema, value = sys.argv[4], json.loads(sys.argv[5])
        serializer = AvroSerializer(client, schema, conf={"auto.register.schemas": True})
        print(serializer(value, context).hex())
    elif action == "consume":
        deserializer = AvroDeserializer(client)
        print(json.dumps(plain(deserializer(bytes.fromhex(sys.argv[4]), context))))
    else:
        sys.exit(f"unknown action {action}")


main()
