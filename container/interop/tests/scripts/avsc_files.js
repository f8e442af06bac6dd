// Writes and checks Avro object container files with JavaScript `avsc`, an implementation
// independent of both the Rust one and Apache's.
//
//   node avsc_files.js write NAME SCHEMA OUT_DIR   one file per codec: OUT_DIR/NAME-CODEC.avro
//   node avsc_files.js check NAME FILE             reads FILE, compares it with NAME's records
'use strict';

const fs = require('fs');
const avro = require('avsc');

// Longs stay within 2^52, inside the integers avsc reads and writes by default.
const RECORDS = {
  interop: [
    {
      intField: 12,
      longField: 15234324,
      stringField: 'hey',
      boolField: true,
      floatField: 1234.0,
      doubleField: -1234.0,
      bytesField: Buffer.from('12312adf'),
      nullField: null,
      arrayField: [5.0, 0.0, 12.0],
      mapField: {a: {label: 'a'}, bee: {label: 'cee'}},
      unionField: 12.0,
      enumField: 'C',
      fixedField: Buffer.from('1019181716151413'),
      recordField: {label: 'blah', children: [{label: 'inner', children: []}]},
    },
    {
      intField: -2147483648,
      longField: -4503599627370496,
      stringField: 'h\u00e9llo \u2713 \u{1F600}',
      boolField: false,
      floatField: -0.5,
      doubleField: 1e-300,
      bytesField: Buffer.from([0x00, 0x7f, 0x80, 0xff]),
      nullField: null,
      arrayField: [],
      mapField: {},
      unionField: true,
      enumField: 'A',
      fixedField: Buffer.from([...Array(16).keys()].map((i) => 240 + i)),
      recordField: {label: '', children: [{label: 'x', children: [{label: 'y', children: []}]}]},
    },
    {
      intField: 2147483647,
      longField: 4503599627370496,
      stringField: '',
      boolField: true,
      floatField: 3.25,
      doubleField: 2.5,
      bytesField: Buffer.alloc(0),
      nullField: null,
      arrayField: [1.5],
      mapField: {k: {label: 'v'}},
      unionField: [Buffer.alloc(0), Buffer.from([0x01, 0xfe])],
      enumField: 'B',
      fixedField: Buffer.alloc(16),
      recordField: {label: 'leaf', children: []},
    },
  ],
  orders: [
    {id: 42, amount: 99.5, user_id: 7, currency: 'CNY', discount: 5.0},
    {id: -1, amount: 0.25, user_id: 8, currency: 'EUR', discount: null},
  ],
};

// Enough records for several blocks of 4096 bytes.
const COUNT = 1500;
const CODECS = ['null', 'deflate'];

function records(name) {
  const values = RECORDS[name];
  return Array.from({length: COUNT}, (_, i) => values[i % values.length]);
}

function write(name, schemaPath, outDir) {
  const type = avro.Type.forSchema(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));
  let pending = CODECS.length;
  for (const codec of CODECS) {
    const encoder = new avro.streams.BlockEncoder(type, {
      codec,
      blockSize: 4096,
      metadata: {user_metadata: Buffer.from('someByteArray')},
    });
    const out = fs.createWriteStream(`${outDir}/${name}-${codec}.avro`);
    encoder.pipe(out);
    out.on('finish', () => {
      if (--pending === 0) {
        console.log(CODECS.join('\n'));
      }
    });
    for (const record of records(name)) {
      encoder.write(record);
    }
    encoder.end();
  }
}

// A value with bytes spelled out and object keys sorted, for comparison.
function canon(value) {
  if (Buffer.isBuffer(value)) {
    return {bytes: [...value]};
  }
  if (Array.isArray(value)) {
    return value.map(canon);
  }
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value).sort()) {
      out[key] = canon(value[key]);
    }
    return out;
  }
  return value;
}

function check(name, path) {
  const read = [];
  avro.createFileDecoder(path)
    .on('data', (record) => read.push(record))
    .on('error', (e) => {
      console.error(`${path}: ${e.message}`);
      process.exit(1);
    })
    .on('end', () => {
      const expected = records(name);
      if (read.length !== expected.length) {
        console.error(`${path}: ${read.length} records, expected ${expected.length}`);
        process.exit(1);
      }
      for (let i = 0; i < read.length; i++) {
        const [a, b] = [JSON.stringify(canon(read[i])), JSON.stringify(canon(expected[i]))];
        if (a !== b) {
          console.error(`${path}: record ${i} is ${a}, expected ${b}`);
          process.exit(1);
        }
      }
      console.log('ok');
    });
}

const [command, ...args] = process.argv.slice(2);
({write, check})[command](...args);
