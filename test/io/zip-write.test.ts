import fs from "node:fs";
import path from "node:path";
import yauzl from "yauzl";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { extractArchive, listFiles } from "../../src/io/extract.js";
import { writeZip, zipDirectory } from "../../src/io/zip-write.js";
import { tempDir } from "../helpers/data-dir.js";

/** Member names of a zip in the order they are stored. */
function memberNames(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on("error", reject);
      zip.on("end", () => resolve(names));
      zip.on("entry", (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.readEntry();
    });
  });
}

/** A folder with nested files, a binary one and an empty one. */
function sampleTree(dir: string): Record<string, Buffer> {
  const files: Record<string, Buffer> = {
    "a.txt": Buffer.from("alpha\n"),
    "sub/b.bin": Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256)),
    "sub/deeper/empty.dat": Buffer.alloc(0),
    "z é.txt": Buffer.from("unicode name"),
  };
  for (const [rel, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), data);
  }
  return files;
}

describe("writeZip", () => {
  it("round-trips through extractArchive byte for byte, members in the order given", async () => {
    const dir = tempDir();
    const files = sampleTree(path.join(dir, "src"));
    const order = ["sub/b.bin", "z é.txt", "a.txt", "sub/deeper/empty.dat"];
    const zip = path.join(dir, "out.zip");
    await writeZip(zip, order.map((rel) => ({ source: path.join(dir, "src", rel), name: `renamed/${rel}` })));
    expect(await memberNames(zip)).toEqual(order.map((rel) => `renamed/${rel}`));
    const dest = path.join(dir, "dest");
    await extractArchive(zip, dest);
    expect(listFiles(dest)).toEqual(order.map((rel) => `renamed/${rel}`).sort());
    for (const [rel, data] of Object.entries(files)) expect(fs.readFileSync(path.join(dest, "renamed", rel)).equals(data)).toBe(true);
  });

  it("refuses a member name given twice, before writing anything", async () => {
    const dir = tempDir();
    sampleTree(dir);
    const zip = path.join(dir, "dup.zip");
    const members = [
      { source: path.join(dir, "a.txt"), name: "x.txt" },
      { source: path.join(dir, "sub/b.bin"), name: "x.txt" },
    ];
    await expect(writeZip(zip, members)).rejects.toThrow(UserError);
    await expect(writeZip(zip, members)).rejects.toThrow(/member "x\.txt" given twice/);
    expect(fs.existsSync(zip)).toBe(false);
  });

  it("leaves no zip under the final name when a source is missing, and keeps an older one intact", async () => {
    const dir = tempDir();
    sampleTree(dir);
    const zip = path.join(dir, "out.zip");
    const missing = [
      { source: path.join(dir, "a.txt"), name: "a.txt" },
      { source: path.join(dir, "nope.txt"), name: "nope.txt" },
    ];
    await expect(writeZip(zip, missing)).rejects.toThrow(/cannot add .*nope\.txt: it does not exist/);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith("out.zip"))).toEqual([]);
    fs.writeFileSync(zip, "older archive");
    await expect(writeZip(zip, missing)).rejects.toThrow(UserError);
    expect(fs.readFileSync(zip, "utf8")).toBe("older archive");
  });

  it("refuses a folder as a member source", async () => {
    const dir = tempDir();
    sampleTree(dir);
    const zip = path.join(dir, "out.zip");
    await expect(writeZip(zip, [{ source: path.join(dir, "sub"), name: "sub" }])).rejects.toThrow(/not a regular file/);
    expect(fs.existsSync(zip)).toBe(false);
  });

  it("fails, without a partial file, when a source vanishes after it was checked", async () => {
    const dir = tempDir();
    sampleTree(dir);
    const zip = path.join(dir, "out.zip");
    const pending = writeZip(zip, [{ source: path.join(dir, "a.txt"), name: "a.txt" }]);
    // The checks ran synchronously; the archiver only opens the file later.
    fs.rmSync(path.join(dir, "a.txt"));
    await expect(pending).rejects.toThrow(/ENOENT/);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith("out.zip"))).toEqual([]);
  });
});

describe("zipDirectory", () => {
  it("names members relative to the folder when there is no prefix", async () => {
    const dir = tempDir();
    const files = sampleTree(path.join(dir, "train"));
    const zip = path.join(dir, "train.zip");
    await zipDirectory(path.join(dir, "train"), zip);
    expect((await memberNames(zip)).sort()).toEqual(Object.keys(files).sort());
  });

  it("puts members under a folder prefix, with or without a trailing slash", async () => {
    const dir = tempDir();
    const files = sampleTree(path.join(dir, "train2"));
    for (const prefix of ["train2", "train2/"]) {
      const zip = path.join(dir, "train2.zip");
      await zipDirectory(path.join(dir, "train2"), zip, prefix);
      expect((await memberNames(zip)).sort()).toEqual(Object.keys(files).map((f) => `train2/${f}`).sort());
      const dest = path.join(dir, `x-${prefix.length}`);
      await extractArchive(zip, dest);
      expect(fs.readFileSync(path.join(dest, "train2", "sub/b.bin")).equals(files["sub/b.bin"])).toBe(true);
    }
  });

  it("refuses a path that is not a folder", async () => {
    const dir = tempDir();
    sampleTree(dir);
    await expect(zipDirectory(path.join(dir, "a.txt"), path.join(dir, "o.zip"))).rejects.toThrow(/not a directory/);
    await expect(zipDirectory(path.join(dir, "none"), path.join(dir, "o.zip"))).rejects.toThrow(UserError);
  });
});
