import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { extractTarGz, TarGzWriter } from "../../src/io/tar.js";
import { tempDir } from "../helpers/data-dir.js";

const LIMITS = { maxEntries: 1000, maxBytes: 1 << 30, maxPathBytes: 3000 };
const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

async function archive(entries: [string, string | Buffer][]): Promise<string> {
  const file = path.join(tempDir("tar-"), "a.tar.gz");
  const w = new TarGzWriter(file);
  for (const [name, data] of entries) await w.addBuffer(name, Buffer.from(data));
  await w.finish();
  return file;
}

describe("tar.gz", () => {
  const long = `${"d".repeat(120)}/${"f".repeat(130)}.csv`;
  const entries: [string, string][] = [
    ["a/short.txt", "hello\n"],
    [long, "x".repeat(1000)],
    ["a/ünïcode name.txt", "ü"],
    ["empty", ""],
  ];

  it("writes archives GNU tar reads, long and non-ASCII names included", async () => {
    const file = await archive(entries);
    const list = spawnSync("tar", ["-tzf", file], { encoding: "utf8" });
    expect(list.status).toBe(0);
    expect(list.stdout.split("\n").filter(Boolean)).toEqual(entries.map(([n]) => n));
    const out = tempDir("tar-gnu-");
    expect(spawnSync("tar", ["-xzf", file, "-C", out]).status).toBe(0);
    for (const [name, data] of entries) expect(fs.readFileSync(path.join(out, name), "utf8")).toBe(data);
  });

  it("reads back its own archives and GNU tar's, with each file's sha256", async () => {
    const file = await archive(entries);
    const dest = tempDir("tar-x-");
    expect(await extractTarGz(file, dest, LIMITS)).toEqual(entries.map(([p, d]) => ({ path: p, bytes: Buffer.byteLength(d), sha256: sha(d) })));
    const src = tempDir("tar-src-");
    for (const [name, data] of entries) {
      fs.mkdirSync(path.dirname(path.join(src, name)), { recursive: true });
      fs.writeFileSync(path.join(src, name), data);
    }
    const gnu = path.join(tempDir("tar-gnu-"), "g.tar.gz");
    for (const format of ["gnu", "pax"]) {
      expect(spawnSync("tar", [`--format=${format}`, "-czf", gnu, "-C", src, "a", "empty", long.split("/")[0]]).status).toBe(0);
      const got = await extractTarGz(gnu, tempDir("tar-gx-"), LIMITS);
      expect(got.map((f) => [f.path, f.sha256]).sort()).toEqual(entries.map(([p, d]) => [p, sha(d)]).sort());
      fs.rmSync(gnu);
    }
  });

  it("refuses unsafe paths, duplicates, links, damage and anything past its limits, naming the entry", async () => {
    const run = (file: string, limits = LIMITS) => extractTarGz(file, tempDir("tar-bad-"), limits);
    await expect(run(await archive([["../evil", "x"]]))).rejects.toThrow('entry "../evil": not a safe relative path');
    await expect(run(await archive([["/etc/evil", "x"]]))).rejects.toThrow('entry "/etc/evil": not a safe relative path');
    await expect(run(await archive([["a/./b", "x"]]))).rejects.toThrow('entry "a/./b": not a safe relative path');
    await expect(run(await archive([["same", "1"], ["same", "2"]]))).rejects.toThrow('entry "same": appears twice in the archive');
    await expect(run(await archive([["a", "1"], ["b", "2"]]), { ...LIMITS, maxEntries: 1 })).rejects.toThrow("more than 1 entries");
    await expect(run(await archive([["a", "12345"]]), { ...LIMITS, maxBytes: 4 })).rejects.toThrow("more than 4 bytes of files");
    const linkDir = tempDir("tar-link-");
    fs.symlinkSync("/etc/passwd", path.join(linkDir, "l"));
    const linked = path.join(linkDir, "l.tar.gz");
    spawnSync("tar", ["-czf", linked, "-C", linkDir, "l"]);
    await expect(run(linked)).rejects.toThrow('entry "l": type "2" is not a regular file or folder');
    // Cut in the middle of a file's bytes.
    const whole = zlib.gunzipSync(fs.readFileSync(await archive([["big", "y".repeat(5000)]])));
    const cut = path.join(tempDir("tar-cut-"), "cut.tar.gz");
    fs.writeFileSync(cut, zlib.gzipSync(whole.subarray(0, 2048)));
    await expect(run(cut)).rejects.toThrow("the archive ends in the middle of an entry");
    const corrupt = Buffer.from(whole);
    corrupt[10] ^= 0xff;
    fs.writeFileSync(cut, zlib.gzipSync(corrupt));
    await expect(run(cut)).rejects.toThrow("a tar header's checksum does not match");
    fs.writeFileSync(cut, "not gzip");
    await expect(run(cut)).rejects.toThrow(`${cut} is not a readable .tar.gz`);
  });
});
