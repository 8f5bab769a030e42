import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeLine, readRawLines } from "../../src/io/lines.js";
import { tempDir } from "../helpers/data-dir.js";

function lines(content: string | Buffer, blockSize?: number): [string, boolean][] {
  const file = path.join(tempDir(), "f.txt");
  fs.writeFileSync(file, content);
  // Converted as they come: a line's bytes are reused once the generator resumes.
  const out: [string, boolean][] = [];
  for (const l of readRawLines(file, blockSize)) out.push([l.bytes.toString("utf8"), l.terminated]);
  return out;
}

describe("readRawLines", () => {
  it("ends lines at \\n, \\r\\n and a lone \\r, as Python's universal newlines do", () => {
    const want: [string, boolean][] = [
      ["a", true],
      ["b", true],
      ["c", true],
      ["", true],
      ["d\u00e9", true],
      ["e", false],
    ];
    expect(lines("a\nb\r\nc\r\rdé\re")).toEqual(want);
    // Every block size, so "\r" and "\r\n" fall on block edges somewhere.
    for (let size = 1; size <= 8; size++) expect(lines("a\nb\r\nc\r\rdé\re", size)).toEqual(want);
  });

  it("gives nothing for an empty file and no extra line after a final break", () => {
    expect(lines("")).toEqual([]);
    expect(lines("x\r\n", 2)).toEqual([["x", true]]);
    expect(lines("x\r", 1)).toEqual([["x", true]]);
  });

  it("refuses invalid UTF-8 with the line number", () => {
    expect(() => decodeLine(Buffer.from([0x61, 0xff]), "f.txt", 7)).toThrow(/f\.txt: line 7 is not valid UTF-8/);
    expect(decodeLine(Buffer.from("\ufeffa"), "f.txt", 1)).toBe("\ufeffa");
  });
});
