import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseMetadataBytes, writeSortedPyJson } from "../../src/competitions/_shared/metadata-json.js";
import { categorySubdir, pyZeroPad } from "../../src/competitions/_shared/split-by-category.js";
import { compareWalkOrder, writeTar } from "../../src/competitions/inaturalist-2019-fgvc6/tar-write.js";
import { dumpPyJson, parsePyJson } from "../../src/pycompat/pyjson.js";
import { comparePyStr } from "../../src/pycompat/pystr.js";
import { tempDir } from "../helpers/data-dir.js";

// Expected texts and digests below come from Debian's Python 3.11 (json, tarfile).

describe("byte-level metadata JSON", () => {
  it("reads what parsePyJson reads, from bytes", () => {
    const text = '{"b": [1, -0, 2.0, 1e5, 131072, 99999999999999999999, NaN], "\\u00e9\\ud83d\\ude00": "caf\u00e9 \\"q\\"\\n", "a": {"x": null, "y": true}}';
    const ours = parseMetadataBytes(Buffer.from(text, "utf8"), "t", "utf-8");
    expect(dumpPyJson(ours, { indent: 4 })).toBe(dumpPyJson(parsePyJson(text), { indent: 4 }));
  });

  it("decodes Latin-1 byte by byte and refuses invalid UTF-8", () => {
    const bytes = Buffer.from([0x5b, 0x22, 0xe9, 0x96, 0x22, 0x5d]);
    expect(parseMetadataBytes(bytes, "t", "latin-1")).toEqual(["\u00e9\u0096"]);
    expect(() => parseMetadataBytes(bytes, "t", "utf-8")).toThrow(/invalid UTF-8/);
    expect(() => parseMetadataBytes(Buffer.from("[1,]"), "t", "utf-8")).toThrow(/line 1 column 4/);
  });

  it("writes json.dump(indent=4, sort_keys=True), keys in code point order", () => {
    const file = path.join(tempDir(), "out.json");
    const text = '{"b": [1, 2.0, {"\\ud800": null, "\\uffff": true, "\\ud83d\\ude00": "\\u00e9", "a": []}], "a": {}, "B": 1e16}';
    writeSortedPyJson(file, parseMetadataBytes(Buffer.from(text), "t", "utf-8"));
    const expected = [
      "{",
      '    "B": 1e+16,',
      '    "a": {},',
      '    "b": [',
      "        1,",
      "        2.0,",
      "        {",
      '            "a": [],',
      '            "\\ud800": null,',
      '            "\\uffff": true,',
      '            "\\ud83d\\ude00": "\\u00e9"',
      "        }",
      "    ]",
      "}",
    ].join("\n");
    expect(fs.readFileSync(file, "utf8")).toBe(expected);
    expect(["\uffff", "\u{1F600}", "\ud800", "a"].sort(comparePyStr)).toEqual(["a", "\ud800", "\uffff", "\u{1F600}"]);
  });

  it("formats ints as Python's :0Nd and floor division do", () => {
    expect(categorySubdir(15504n)).toBe("155/04");
    expect(categorySubdir(3n)).toBe("000/03");
    expect(categorySubdir(-5n)).toBe("-01/95");
    expect(pyZeroPad(-5n, 5)).toBe("-0005");
  });
});

describe("tarfile-compatible archive", () => {
  it("matches tarfile's bytes for default TarInfo members, PAX path records included", () => {
    const dir = tempDir();
    const members: [string, Buffer][] = [
      ["a.jpg", Buffer.alloc(513, "x")],
      [`d/${"y".repeat(120)}.jpg`, Buffer.alloc(0)],
      ["caf\u00e9/\u{1F600}.jpg", Buffer.from("hello")],
      ["e".repeat(100), Buffer.alloc(512, "z")],
    ];
    const list = members.map(([name, data], i) => {
      const source = path.join(dir, `m${i}`);
      fs.writeFileSync(source, data);
      return { name, source };
    });
    const out = path.join(dir, "x.tar.gz");
    writeTar(out, list);
    const bytes = fs.readFileSync(out);
    expect(bytes.length).toBe(10240);
    expect(crypto.createHash("md5").update(bytes).digest("hex")).toBe("21d6cf28a4feebd07977656dc91ce42d");
  });

  it("orders members like a sorted os.walk: a folder's files before its subfolders", () => {
    const names = ["b/x.jpg", "a/z/1.jpg", "c.jpg", "a/y.jpg", "a/b.jpg"];
    expect(names.sort(compareWalkOrder)).toEqual(["c.jpg", "a/b.jpg", "a/y.jpg", "a/z/1.jpg", "b/x.jpg"]);
  });
});
