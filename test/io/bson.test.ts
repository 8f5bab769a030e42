import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { BsonFileWriter, bsonScalar, decodeBson, encodeBson, readBsonFile } from "../../src/io/bson.js";
import { tempDir } from "../helpers/data-dir.js";

// A document using every type pymongo does not give back unchanged (undefined, symbol, DBPointer,
// regex flags, DBRef-shaped sub-documents, renumbered array keys, a repeated key, "_id" last),
// next to some that it does; AFTER is what pymongo 3.11 (Debian's python3-bson, C extension)
// returns for bson.BSON.encode(bson.BSON(BEFORE).decode()). pymongo 4 agrees on all of these.
const BEFORE =
  "3a010000026e616d650003000000c3a90006756e646566000e73796d000700000073796d626f6c000c707472000800000064622e636f6c6c00000102030405060708090a0b0b7265005e612e2a00787a736d690003726566003800000010657874726100050000000724696400000102030405060708090a0b022464620002000000640002247265660002000000630000037265663200270000000724696400000102030405060708090a0b0a2464620002247265660002000000630000046172720017000000103500010000001278000000000000010000000f636f6465001800000004000000662829000c0000001061000100000000097768656e000098f73e5d0100000562696e0003000000806162630178009a9999999999b93f106475700001000000105f6964000700000010647570000200000000";
const AFTER =
  "3b010000105f69640007000000026e616d650003000000c3a9000a756e646566000273796d000700000073796d626f6c000370747200280000000224726566000800000064622e636f6c6c000724696400000102030405060708090a0b000b7265005e612e2a00696d7378000372656600380000000224726566000200000063000724696400000102030405060708090a0b0224646200020000006400106578747261000500000000037265663200220000000224726566000200000063000724696400000102030405060708090a0b00046172720017000000103000010000001231000000000000010000000f636f6465001800000004000000662829000c0000001061000100000000097768656e000098f73e5d0100000562696e0003000000806162630178009a9999999999b93f10647570000200000000";

const hex = (s: string) => Buffer.from(s, "hex");

/** {"_id": id (int32), "category_id": cat (int64)} as raw BSON. */
function product(id: number, cat: bigint): Buffer {
  const body = Buffer.concat([
    Buffer.from([0x10]), Buffer.from("_id\0"), Buffer.from(Int32Array.of(id).buffer),
    Buffer.from([0x12]), Buffer.from("category_id\0"), Buffer.from(BigInt64Array.of(cat).buffer),
  ]);
  const len = Buffer.alloc(4);
  len.writeInt32LE(body.length + 5);
  return Buffer.concat([len, body, Buffer.from([0])]);
}

describe("bson", () => {
  it("re-encodes a document exactly as pymongo's decode/encode round trip does", () => {
    expect(encodeBson(decodeBson(hex(BEFORE))).toString("hex")).toBe(AFTER);
    // pymongo's output is a fixed point.
    expect(encodeBson(decodeBson(hex(AFTER))).toString("hex")).toBe(AFTER);
  });

  it("reads scalars with their BSON integer width", () => {
    const doc = decodeBson(product(7, 2n ** 40n));
    expect(bsonScalar(doc.get("_id"))).toBe(7);
    expect(bsonScalar(doc.get("category_id"))).toBe(2n ** 40n);
    doc.delete("category_id");
    expect(encodeBson(doc).toString("hex")).toBe("0e000000105f6964000700000000");
  });

  it("streams documents from a file, across small read chunks, and writes them back", () => {
    const dir = tempDir();
    const file = path.join(dir, "in.bson");
    const docs = Array.from({ length: 50 }, (_, k) => product(k, BigInt(k) * 1000n));
    fs.writeFileSync(file, Buffer.concat(docs));
    const seen: number[] = [];
    const out = new BsonFileWriter(path.join(dir, "out.bson"), 64);
    for (const bytes of readBsonFile(file, 7)) {
      seen.push(bsonScalar(decodeBson(bytes).get("_id")) as number);
      out.write(bytes);
    }
    out.close();
    expect(seen).toEqual(docs.map((_, k) => k));
    expect(fs.readFileSync(path.join(dir, "out.bson")).equals(Buffer.concat(docs))).toBe(true);
  });

  it("refuses broken input with the file and byte position", () => {
    const dir = tempDir();
    const cut = path.join(dir, "cut.bson");
    fs.writeFileSync(cut, product(1, 1n).subarray(0, 20));
    expect(() => [...readBsonFile(cut)]).toThrow(/cut\.bson: file ends in the middle of the document at byte 0/);
    const bad = Buffer.from(product(1, 1n));
    bad[4] = 0x42; // no such element type
    expect(() => decodeBson(bad, "x.bson #0")).toThrow(UserError);
    expect(() => decodeBson(bad, "x.bson #0")).toThrow(/x\.bson #0: invalid BSON at byte 4: unknown element type 0x42/);
    // {"a": "a\xffbc"}: a string that is not UTF-8, which pymongo's strict decoding refuses.
    expect(() => decodeBson(hex("11000000026100050000006" + "1ff62630000"))).toThrow(/byte 11: text is not valid UTF-8/);
  });

  it("refuses dates outside Python's years 1-9999, as pymongo does", () => {
    const body = Buffer.concat([Buffer.from([0x09]), Buffer.from("d\0"), Buffer.from(BigInt64Array.of(2n ** 62n).buffer)]);
    const len = Buffer.alloc(4);
    len.writeInt32LE(body.length + 5);
    expect(() => decodeBson(Buffer.concat([len, body, Buffer.from([0])]))).toThrow(/outside years 1-9999/);
  });
});
