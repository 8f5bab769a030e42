import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { changedLines, UploadFingerprinter } from "../../src/runner/upload-fingerprint.js";
import { tempDir } from "../helpers/data-dir.js";

describe("upload fingerprints", () => {
  const dir = tempDir("fingerprint-");
  const file = (name: string, text: string | Buffer) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
  };

  it("hashes each upload, counts its lines, and counts lines changed from the upload before", async () => {
    const f = new UploadFingerprinter();
    const a = "id,y\n1,0\n2,1\n3,0\n";
    const first = await f.fingerprint(file("a.csv", a));
    expect(first).toEqual({ sha256: createHash("sha256").update(a).digest("hex"), lines: 4, changed_lines: null });
    expect(await f.fingerprint(file("b.csv", "id,y\n1,0\n2,0\n3,1\n"))).toMatchObject({ lines: 4, changed_lines: 2 });
    // No final newline: the last line still counts, and "3,1" equals "3,1\n"'s line.
    expect(await f.fingerprint(file("c.csv", "id,y\n1,0\n2,0\n3,1"))).toMatchObject({ lines: 4, changed_lines: 0 });
    // A different number of lines: every line counts as changed.
    expect(await f.fingerprint(file("d.csv", "id,y\n1,0\n"))).toMatchObject({ lines: 2, changed_lines: 4 });
    expect(await f.fingerprint(file("e.csv", ""))).toMatchObject({ lines: 0, changed_lines: 2 });
  });

  it("takes concurrent uploads one at a time, each compared with the one before", async () => {
    const f = new UploadFingerprinter();
    const big = Buffer.from("x,1\n".repeat(300_000));
    const edited = Buffer.from(big);
    edited[4 * 1000 + 2] = "2".charCodeAt(0);
    const [one, two, three] = await Promise.all([
      f.fingerprint(file("big1.csv", big)),
      f.fingerprint(file("big2.csv", edited)),
      f.fingerprint(file("big3.csv", big)),
    ]);
    expect([one.changed_lines, two.changed_lines, three.changed_lines]).toEqual([null, 1, 1]);
    expect(two.lines).toBe(300_000);
  });

  it("compares line hashes position by position", () => {
    expect(changedLines(Uint32Array.of(1, 2, 3), Uint32Array.of(1, 5, 3))).toBe(1);
    expect(changedLines(Uint32Array.of(1, 2), Uint32Array.of(1, 2, 3))).toBe(3);
    expect(changedLines(null, Uint32Array.of(1))).toBeNull();
  });
});
