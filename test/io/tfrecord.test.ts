import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { crc32c, exampleBytesFeature, idsFromTfRecords, maskedCrc32c, readTfRecords } from "../../src/io/tfrecord.js";
import { UserError } from "../../src/core/errors.js";
import { tempDir } from "../helpers/data-dir.js";

/** A TFRecord file holding these records, framed the way TensorFlow's writer frames them. */
function tfrecordBytes(records: Uint8Array[]): Buffer {
  const parts: Buffer[] = [];
  for (const data of records) {
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(data.length));
    const crc = (v: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(v);
      return b;
    };
    parts.push(len, crc(maskedCrc32c(len)), Buffer.from(data), crc(maskedCrc32c(data)));
  }
  return Buffer.concat(parts);
}

function writeRecords(records: Uint8Array[]): string {
  const file = path.join(tempDir(), "x.tfrec");
  fs.writeFileSync(file, tfrecordBytes(records));
  return file;
}

const hex = (s: string) => Buffer.from(s, "hex");
const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");

// Serialized Examples and what protobuf 4 (upb backend, as TensorFlow installs it) returns for
// feature["image_name"].bytes_list.value[0]; null where it raises IndexError.
const PROTOBUF_CASES: [string, string, string | null][] = [
  ["duplicate key, later wins", "0a2a0a130a0a696d6167655f6e616d6512050a030a01410a130a0a696d6167655f6e616d6512050a030a0142", "B"],
  ["features twice merge", "0a150a130a0a696d6167655f6e616d6512050a030a01410a0c0a0a0a017812050a030a015a", "A"],
  ["features twice, later key overrides", "0a150a130a0a696d6167655f6e616d6512050a030a01410a150a130a0a696d6167655f6e616d6512050a030a0151", "Q"],
  ["value twice in one entry merges", "0a1c0a1a0a0a696d6167655f6e616d6512050a030a014112050a030a0142", "A"],
  ["bytes_list then int64_list clears the bytes", "0a1a0a180a0a696d6167655f6e616d65120a0a030a01411a030a0101", null],
  ["int64_list then bytes_list", "0a1a0a180a0a696d6167655f6e616d65120a1a030a01010a030a0143", "C"],
  ["repeated value field", "0a1a0a180a0a696d6167655f6e616d65120a0a080a014510010a0146", "E"],
  ["entry without key is the empty name", "0a1e0a0712050a030a01470a130a0a696d6167655f6e616d6512050a030a0148", "H"],
  ["byte-order mark kept", "0a1d0a1b0a0a696d6167655f6e616d65120d0a0b0a09efbbbf495349435f31", "\ufeffISIC_1"],
  ["missing feature", "0a110a0f0a05696d61676512060a040a02ffd8", null],
  ["ten-byte varints elsewhere", "0a310a160a03616765120f1a0d0a0bffffffffffffffffff01050a170a0a696d6167655f6e616d6512090a070a05c3a9e29c93", "é✓"],
  [
    "unknown fields in Example, Feature and BytesList skipped",
    "28ac023101010101010101010a2e0a2c0a0a696d6167655f6e616d65121e48808080808080808080013d020202020a030a01444101010101010101011d02020202",
    "D",
  ],
  ["unknown fields in Features skipped", "0a1c0a130a0a696d6167655f6e616d6512050a030a014415020202021807", "D"],
  ["unknown field in a map entry drops the entry", "0a170a150a0a696d6167655f6e616d6512050a030a01442001", null],
  ["unknown fields inside a BytesList", "0a200a1e0a0a696d6167655f6e616d6512100a0e10050a014a190101010101010101", "J"],
];

describe("crc32c", () => {
  it("matches the standard check value and TFRecord's mask", () => {
    expect(crc32c(Buffer.from("123456789"))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(0))).toBe(0);
    expect(maskedCrc32c(new Uint8Array(0))).toBe(0xa282ead8);
  });
});

describe("exampleBytesFeature", () => {
  it.each(PROTOBUF_CASES)("%s", (_name, data, expected) => {
    const values = exampleBytesFeature(hex(data), "image_name");
    expect(values.length > 0 ? text(values[0]) : null).toBe(expected);
  });
});

describe("readTfRecords / idsFromTfRecords", () => {
  it("reads every record in order and the id of each", () => {
    const records = PROTOBUF_CASES.filter(([, , v]) => v !== null).map(([, d]) => hex(d));
    const file = writeRecords(records);
    expect([...readTfRecords(file)].map((r) => Buffer.from(r).toString("hex"))).toEqual(records.map((r) => r.toString("hex")));
    expect(idsFromTfRecords(file)).toEqual(PROTOBUF_CASES.filter(([, , v]) => v !== null).map(([, , v]) => v));
  });

  it("reads an empty file as no records", () => {
    expect(idsFromTfRecords(writeRecords([]))).toEqual([]);
  });

  it("refuses a record without the feature, naming it", () => {
    const file = writeRecords([hex(PROTOBUF_CASES[0][1]), hex("0a110a0f0a05696d61676512060a040a02ffd8")]);
    expect(() => idsFromTfRecords(file)).toThrow(/record 1 has no bytes value for feature "image_name"/);
  });

  it("refuses corrupted and truncated files", () => {
    const good = tfrecordBytes([hex(PROTOBUF_CASES[0][1]), hex(PROTOBUF_CASES[1][1])]);
    const dir = tempDir();
    const cases: [string, Buffer, RegExp][] = [
      ["flipped data byte", Buffer.from(good).fill(0x41, 20, 21), /record 0 .*data checksum/],
      ["flipped length byte", Buffer.from(good).fill(0x01, 1, 2), /record 0 .*length checksum/],
      ["cut in the second header", good.subarray(0, good.length - hex(PROTOBUF_CASES[1][1]).length - 10), /truncated record 1/],
      ["cut in the second body", good.subarray(0, good.length - 3), /truncated record 1/],
    ];
    for (const [name, bytes, message] of cases) {
      const file = path.join(dir, `${name}.tfrec`);
      fs.writeFileSync(file, bytes);
      expect(() => idsFromTfRecords(file), name).toThrow(UserError);
      expect(() => idsFromTfRecords(file), name).toThrow(message);
    }
  });

  it("refuses an id that is not UTF-8 and a record that is not protobuf", () => {
    const badUtf8 = hex("0a160a140a0a696d6167655f6e616d6512060a040a02ff41");
    expect(() => idsFromTfRecords(writeRecords([badUtf8]))).toThrow(/not valid UTF-8/);
    expect(() => idsFromTfRecords(writeRecords([hex("0a7f00")]))).toThrow(/not a valid tf.train.Example/);
  });
});
