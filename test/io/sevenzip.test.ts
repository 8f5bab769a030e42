import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { listFiles } from "../../src/io/extract.js";
import { encodeSevenZipNumber, extractSevenZip, listSevenZip, UnsupportedSevenZipError, writeStoredSevenZip } from "../../src/io/sevenzip.js";
import { tempDir } from "../helpers/data-dir.js";

// Archives made by 7-Zip itself (p7zip 16.02) from the same four files:
//   lzma2.7z            7z a x.7z dir emptydir "héllo 😀.txt"        (LZMA2 3 MB dictionary, solid, header LZMA-packed)
//   lzma-small-dict.7z  7z a -m0=LZMA:d=64k ...                       (a 64 KiB window over 2.6 MB of output)
//   non-solid.7z        7z a -m0=LZMA2 -ms=off ...                    (one folder per file)
//   copy.7z             7z a -m0=Copy -mhc=off dir/sub dir/empty.txt "héllo 😀.txt"
//   ppmd.7z             7z a -m0=PPMd "héllo 😀.txt"
// log.txt (2.6 MB of repetitive lines) spans several LZMA2 chunks; noise.bin (30 kB random) makes
// the encoder fall back to stored LZMA2 chunks.
const FIXTURES = decodeURIComponent(new URL("../fixtures/sevenzip/", import.meta.url).pathname);
const MD5: Record<string, string> = {
  "dir/log.txt": "8c9cbc61ae5e24fa6515a320cab46f49",
  "dir/empty.txt": "d41d8cd98f00b204e9800998ecf8427e",
  "dir/sub/noise.bin": "bb3c2895c40d3abd8e64072b07ae40d2",
  "héllo 😀.txt": "da10994f87c7514c904ccec33f8c04ff",
};

function md5Tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of listFiles(dir)) out[f] = crypto.createHash("md5").update(fs.readFileSync(path.join(dir, f))).digest("hex");
  return out;
}

describe("extractSevenZip", () => {
  it.each(["lzma2.7z", "lzma-small-dict.7z", "non-solid.7z"])("unpacks %s as 7-Zip does", (name) => {
    const dest = tempDir();
    const files = extractSevenZip(path.join(FIXTURES, name), dest);
    expect(files.sort()).toEqual(Object.keys(MD5).sort());
    expect(md5Tree(dest)).toEqual(MD5);
    if (name === "lzma2.7z") expect(fs.statSync(path.join(dest, "emptydir")).isDirectory()).toBe(true);
  });

  it("unpacks stored members", () => {
    const dest = tempDir();
    extractSevenZip(path.join(FIXTURES, "copy.7z"), dest);
    const { "dir/log.txt": _skip, ...rest } = MD5;
    expect(md5Tree(dest)).toEqual(rest);
  });

  it("lists members with their sizes", () => {
    const entries = listSevenZip(path.join(FIXTURES, "lzma2.7z"));
    expect(entries.find((e) => e.name === "dir/log.txt")).toEqual({ name: "dir/log.txt", isDirectory: false, hasStream: true, size: 2653283 });
    expect(entries.find((e) => e.name === "emptydir")?.isDirectory).toBe(true);
  });

  it("refuses coders it lacks with an error callers can fall back on", () => {
    expect(() => extractSevenZip(path.join(FIXTURES, "ppmd.7z"), tempDir())).toThrow(UnsupportedSevenZipError);
    expect(() => extractSevenZip(path.join(FIXTURES, "ppmd.7z"), tempDir())).toThrow(/PPMd/);
  });

  it("names the archive when it is damaged or not a 7z at all", () => {
    const dir = tempDir();
    const bad = path.join(dir, "bad.7z");
    const bytes = fs.readFileSync(path.join(FIXTURES, "lzma2.7z"));
    bytes[2000] ^= 0xff;
    fs.writeFileSync(bad, bytes);
    expect(() => extractSevenZip(bad, path.join(dir, "out"))).toThrow(UserError);
    expect(() => extractSevenZip(bad, path.join(dir, "out"))).toThrow(/bad\.7z/);
    fs.writeFileSync(path.join(dir, "plain.7z"), "not an archive");
    expect(() => extractSevenZip(path.join(dir, "plain.7z"), dir)).toThrow(/not a 7z archive/);
  });
});

describe("writeStoredSevenZip", () => {
  it("round-trips members, empty ones and non-ASCII names included", () => {
    const dir = tempDir();
    const a = path.join(dir, "a.json");
    const b = path.join(dir, "b.txt");
    fs.writeFileSync(a, '{"x": [1.5, "é"]}');
    fs.writeFileSync(b, "");
    const archive = path.join(dir, "out.7z");
    writeStoredSevenZip(archive, [
      { source: a, name: "a.json" },
      { source: b, name: "sub/empty.txt" },
      { source: path.join(FIXTURES, "ppmd.7z"), name: "naïve 😀.bin" },
    ]);
    expect(listSevenZip(archive).map((e) => [e.name, e.size, e.hasStream])).toEqual([
      ["a.json", 18, true],
      ["sub/empty.txt", 0, false],
      ["naïve 😀.bin", 148, true],
    ]);
    const dest = path.join(dir, "x");
    extractSevenZip(archive, dest);
    expect(fs.readFileSync(path.join(dest, "a.json"), "utf8")).toBe('{"x": [1.5, "é"]}');
    expect(fs.readFileSync(path.join(dest, "sub/empty.txt")).length).toBe(0);
    expect(fs.readFileSync(path.join(dest, "naïve 😀.bin"))).toEqual(fs.readFileSync(path.join(FIXTURES, "ppmd.7z")));
  });

  it("writes the same bytes for the same members", () => {
    const dir = tempDir();
    const src = path.join(dir, "s.csv");
    fs.writeFileSync(src, "id,x\n1,0.5\n");
    writeStoredSevenZip(path.join(dir, "1.7z"), [{ source: src, name: "s.csv" }]);
    writeStoredSevenZip(path.join(dir, "2.7z"), [{ source: src, name: "s.csv" }]);
    expect(fs.readFileSync(path.join(dir, "1.7z"))).toEqual(fs.readFileSync(path.join(dir, "2.7z")));
  });

  it("refuses a member that would unpack outside the destination", () => {
    const dir = tempDir();
    const src = path.join(dir, "s.txt");
    fs.writeFileSync(src, "x");
    writeStoredSevenZip(path.join(dir, "evil.7z"), [{ source: src, name: "../escape.txt" }]);
    expect(() => extractSevenZip(path.join(dir, "evil.7z"), path.join(dir, "out"))).toThrow(/outside the extraction folder/);
  });
});

describe("encodeSevenZipNumber", () => {
  it("uses 7z's variable-length layout", () => {
    expect(encodeSevenZipNumber(0)).toEqual([0x00]);
    expect(encodeSevenZipNumber(0x7f)).toEqual([0x7f]);
    expect(encodeSevenZipNumber(0x80)).toEqual([0x80, 0x80]);
    expect(encodeSevenZipNumber(0x3fff)).toEqual([0xbf, 0xff]);
    expect(encodeSevenZipNumber(0x4000)).toEqual([0xc0, 0x00, 0x40]);
    expect(encodeSevenZipNumber(200_000_000)).toEqual([0xeb, 0x00, 0xc2, 0xeb]);
  });
});
