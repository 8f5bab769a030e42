import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { dumpPyJson, parsePyJson, pyJsonChunks, readPyJson, writePyJson, type PyJson } from "../../src/pycompat/pyjson.js";
import { tempDir } from "../helpers/data-dir.js";

// [input text, indent, json.dumps(json.loads(input), indent=indent)], each expected string
// printed by /usr/bin/python3 (3.11) on Debian.
const ROUND_TRIPS: [string, number | string | null, string][] = [
  ["{\"b\": 1, \"a\": [1.0, 2.5, -0.0, 0, -0, 1e-05, 1E16, 123456789012345678901234567890, 1e400, -1e400, NaN, Infinity, -Infinity], \"2\": {}, \"1\": [], \"c\": {\"x\": null, \"y\": true, \"z\": false}}", 4, "{\n    \"b\": 1,\n    \"a\": [\n        1.0,\n        2.5,\n        -0.0,\n        0,\n        0,\n        1e-05,\n        1e+16,\n        123456789012345678901234567890,\n        Infinity,\n        -Infinity,\n        NaN,\n        Infinity,\n        -Infinity\n    ],\n    \"2\": {},\n    \"1\": [],\n    \"c\": {\n        \"x\": null,\n        \"y\": true,\n        \"z\": false\n    }\n}"],
  ["{\"b\": 1, \"a\": [1.0, 2.5, -0.0, 0, -0, 1e-05, 1E16, 123456789012345678901234567890, 1e400, -1e400, NaN, Infinity, -Infinity], \"2\": {}, \"1\": [], \"c\": {\"x\": null, \"y\": true, \"z\": false}}", null, "{\"b\": 1, \"a\": [1.0, 2.5, -0.0, 0, 0, 1e-05, 1e+16, 123456789012345678901234567890, Infinity, -Infinity, NaN, Infinity, -Infinity], \"2\": {}, \"1\": [], \"c\": {\"x\": null, \"y\": true, \"z\": false}}"],
  ["{\"b\": 1, \"a\": [1.0, 2.5, -0.0, 0, -0, 1e-05, 1E16, 123456789012345678901234567890, 1e400, -1e400, NaN, Infinity, -Infinity], \"2\": {}, \"1\": [], \"c\": {\"x\": null, \"y\": true, \"z\": false}}", 0, "{\n\"b\": 1,\n\"a\": [\n1.0,\n2.5,\n-0.0,\n0,\n0,\n1e-05,\n1e+16,\n123456789012345678901234567890,\nInfinity,\n-Infinity,\nNaN,\nInfinity,\n-Infinity\n],\n\"2\": {},\n\"1\": [],\n\"c\": {\n\"x\": null,\n\"y\": true,\n\"z\": false\n}\n}"],
  ["{\"b\": 1, \"a\": [1.0, 2.5, -0.0, 0, -0, 1e-05, 1E16, 123456789012345678901234567890, 1e400, -1e400, NaN, Infinity, -Infinity], \"2\": {}, \"1\": [], \"c\": {\"x\": null, \"y\": true, \"z\": false}}", "\t", "{\n\t\"b\": 1,\n\t\"a\": [\n\t\t1.0,\n\t\t2.5,\n\t\t-0.0,\n\t\t0,\n\t\t0,\n\t\t1e-05,\n\t\t1e+16,\n\t\t123456789012345678901234567890,\n\t\tInfinity,\n\t\t-Infinity,\n\t\tNaN,\n\t\tInfinity,\n\t\t-Infinity\n\t],\n\t\"2\": {},\n\t\"1\": [],\n\t\"c\": {\n\t\t\"x\": null,\n\t\t\"y\": true,\n\t\t\"z\": false\n\t}\n}"],
  ["[\"caf\\u00e9 \\ud83d\\ude00 raw \u00e9 \ud83d\ude00\", \"quote \\\" back \\\\ slash / \\/ \\b\\f\\n\\r\\t \\u0001 \\u007f \\u0080\", \"lone \\ud800 x \\udc00\", \"ARABIC \\u0661\\u0662\"]", 4, "[\n    \"caf\\u00e9 \\ud83d\\ude00 raw \\u00e9 \\ud83d\\ude00\",\n    \"quote \\\" back \\\\ slash / / \\b\\f\\n\\r\\t \\u0001 \\u007f \\u0080\",\n    \"lone \\ud800 x \\udc00\",\n    \"ARABIC \\u0661\\u0662\"\n]"],
  ["[\"caf\\u00e9 \\ud83d\\ude00 raw \u00e9 \ud83d\ude00\", \"quote \\\" back \\\\ slash / \\/ \\b\\f\\n\\r\\t \\u0001 \\u007f \\u0080\", \"lone \\ud800 x \\udc00\", \"ARABIC \\u0661\\u0662\"]", null, "[\"caf\\u00e9 \\ud83d\\ude00 raw \\u00e9 \\ud83d\\ude00\", \"quote \\\" back \\\\ slash / / \\b\\f\\n\\r\\t \\u0001 \\u007f \\u0080\", \"lone \\ud800 x \\udc00\", \"ARABIC \\u0661\\u0662\"]"],
  ["[\"caf\\u00e9 \\ud83d\\ude00 raw \u00e9 \ud83d\ude00\", \"quote \\\" back \\\\ slash / \\/ \\b\\f\\n\\r\\t \\u0001 \\u007f \\u0080\", \"lone \\ud800 x \\udc00\", \"ARABIC \\u0661\\u0662\"]", 0, "[\n\"caf\\u00e9 \\ud83d\\ude00 raw \\u00e9 \\ud83d\\ude00\",\n\"quote \\\" back \\\\ slash / / \\b\\f\\n\\r\\t \\u0001 \\u007f \\u0080\",\n\"lone \\ud800 x \\udc00\",\n\"ARABIC \\u0661\\u0662\"\n]"],
  ["[\"caf\\u00e9 \\ud83d\\ude00 raw \u00e9 \ud83d\ude00\", \"quote \\\" back \\\\ slash / \\/ \\b\\f\\n\\r\\t \\u0001 \\u007f \\u0080\", \"lone \\ud800 x \\udc00\", \"ARABIC \\u0661\\u0662\"]", "\t", "[\n\t\"caf\\u00e9 \\ud83d\\ude00 raw \\u00e9 \\ud83d\\ude00\",\n\t\"quote \\\" back \\\\ slash / / \\b\\f\\n\\r\\t \\u0001 \\u007f \\u0080\",\n\t\"lone \\ud800 x \\udc00\",\n\t\"ARABIC \\u0661\\u0662\"\n]"],
  ["{\"k\": 1, \"k2\": 2, \"k\": 3}", 4, "{\n    \"k\": 3,\n    \"k2\": 2\n}"],
  ["{\"k\": 1, \"k2\": 2, \"k\": 3}", null, "{\"k\": 3, \"k2\": 2}"],
  ["{\"k\": 1, \"k2\": 2, \"k\": 3}", 0, "{\n\"k\": 3,\n\"k2\": 2\n}"],
  ["{\"k\": 1, \"k2\": 2, \"k\": 3}", "\t", "{\n\t\"k\": 3,\n\t\"k2\": 2\n}"],
  ["  [ [ [ ] ] , { \"a\" : { } } , 0.1 , 0.30000000000000004 , 1.5e+300 , 100.0 , 1e22 , 12345678901234567.0 ]  ", 4, "[\n    [\n        []\n    ],\n    {\n        \"a\": {}\n    },\n    0.1,\n    0.30000000000000004,\n    1.5e+300,\n    100.0,\n    1e+22,\n    1.2345678901234568e+16\n]"],
  ["  [ [ [ ] ] , { \"a\" : { } } , 0.1 , 0.30000000000000004 , 1.5e+300 , 100.0 , 1e22 , 12345678901234567.0 ]  ", null, "[[[]], {\"a\": {}}, 0.1, 0.30000000000000004, 1.5e+300, 100.0, 1e+22, 1.2345678901234568e+16]"],
  ["  [ [ [ ] ] , { \"a\" : { } } , 0.1 , 0.30000000000000004 , 1.5e+300 , 100.0 , 1e22 , 12345678901234567.0 ]  ", 0, "[\n[\n[]\n],\n{\n\"a\": {}\n},\n0.1,\n0.30000000000000004,\n1.5e+300,\n100.0,\n1e+22,\n1.2345678901234568e+16\n]"],
  ["  [ [ [ ] ] , { \"a\" : { } } , 0.1 , 0.30000000000000004 , 1.5e+300 , 100.0 , 1e22 , 12345678901234567.0 ]  ", "\t", "[\n\t[\n\t\t[]\n\t],\n\t{\n\t\t\"a\": {}\n\t},\n\t0.1,\n\t0.30000000000000004,\n\t1.5e+300,\n\t100.0,\n\t1e+22,\n\t1.2345678901234568e+16\n]"],
  ["\"just a string\"", 4, "\"just a string\""],
  ["\"just a string\"", null, "\"just a string\""],
  ["\"just a string\"", 0, "\"just a string\""],
  ["\"just a string\"", "\t", "\"just a string\""],
  ["3", 4, "3"],
  ["3", null, "3"],
  ["3", 0, "3"],
  ["3", "\t", "3"],
  ["3.0", 4, "3.0"],
  ["3.0", null, "3.0"],
  ["3.0", 0, "3.0"],
  ["3.0", "\t", "3.0"],
  ["null", 4, "null"],
  ["null", null, "null"],
  ["null", 0, "null"],
  ["null", "\t", "null"],
];

describe("pyjson round trips", () => {
  it.each(ROUND_TRIPS.map((r, i) => [i, ...r] as const))("case %i matches json.dumps(json.loads(...))", (_i, src, indent, want) => {
    expect(dumpPyJson(parsePyJson(src), { indent })).toBe(want);
  });

  it("keeps Python's int and float apart", () => {
    expect(parsePyJson("3")).toBe(3n);
    expect(parsePyJson("3.0")).toBe(3);
    expect(parsePyJson("-0")).toBe(0n);
    expect(Object.is(parsePyJson("-0.0"), -0)).toBe(true);
    expect(parsePyJson("123456789012345678901234567890")).toBe(123456789012345678901234567890n);
  });

  it("keeps object keys in file order, including ones JavaScript would reorder", () => {
    const v = parsePyJson('{"b": 1, "10": 2, "2": 3, "a": 4}') as Map<string, PyJson>;
    expect([...v.keys()]).toEqual(["b", "10", "2", "a"]);
  });

  it("writes no trailing newline and reads UTF-8 text back", () => {
    const dir = tempDir();
    const file = path.join(dir, "x.json");
    fs.writeFileSync(file, '[{"t": "caf\u00e9 \u{1F600}", "n": 1.5}]');
    const v = readPyJson(file);
    writePyJson(path.join(dir, "y.json"), v, { indent: 4 });
    expect(fs.readFileSync(path.join(dir, "y.json"), "utf8")).toBe('[\n    {\n        "t": "caf\\u00e9 \\ud83d\\ude00",\n        "n": 1.5\n    }\n]');
  });

  it("streams large documents in pieces that join to the same text", () => {
    const big: PyJson = Array.from({ length: 500 }, (_, i) => new Map<string, PyJson>([["i", BigInt(i)], ["x", i / 7]]));
    const pieces = [...pyJsonChunks(big, { indent: 4 }, 1000)];
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join("")).toBe(dumpPyJson(big, { indent: 4 }));
  });
});

describe("pyjson refuses what Python's json.loads refuses", () => {
  // Each of these raises json.JSONDecodeError in Python 3.11.
  const BAD: [string, RegExp][] = [
    ["", /line 1 column 1 \(char 0\): expecting value/],
    ["[1,]", /char 3\): expecting value/],
    ['{"a" 1}', /char 5\): expecting ':' delimiter/],
    ["[1 2]", /char 3\): expecting ',' delimiter/],
    ["01", /char 1\): extra data/],
    ["1.", /char 1\): extra data/],
    ['"a\nb"', /char 2\): invalid control character/],
    ['"\\x"', /char 1\): invalid \\escape/],
    ['"\\u12g4"', /invalid \\uXXXX escape/],
    ["[1] x", /char 4\): extra data/],
    ["\ufeff[1]", /byte order mark/],
    ["{a: 1}", /char 1\): expecting property name/],
    ["nul", /char 0\): expecting value/],
    ["-", /char 0\): expecting value/],
    ['"abc', /char 0\): unterminated string/],
    ["[\n  1,\n  ]", /line 3 column 3 \(char 9\)/],
  ];
  it.each(BAD)("%j", (src, message) => {
    expect(() => parsePyJson(src, "in.json")).toThrow(UserError);
    expect(() => parsePyJson(src, "in.json")).toThrow(message);
  });

  it("names the file when it is not UTF-8", () => {
    const file = path.join(tempDir(), "bad.json");
    fs.writeFileSync(file, Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]));
    expect(() => readPyJson(file)).toThrow(/bad\.json is not valid UTF-8/);
  });
});
