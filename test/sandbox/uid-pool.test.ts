import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/data-dir.js";
import { REPO } from "../helpers/cli.js";
import { leaseUid, uidRange } from "../../src/sandbox/uid-pool.js";

const POOL = path.join(REPO, "dist", "sandbox", "uid-pool.js");

/** A process that holds `n` leases from `dir` over `range`, prints them, and keeps them until stdin closes. */
function holder(dir: string, range: { first: number; count: number }, n: number): Promise<{ uids: number[]; release: () => Promise<void> }> {
  const code = `const { leaseUid } = await import(${JSON.stringify(POOL)});
const uids = [];
for (let i = 0; i < ${n}; i++) uids.push(leaseUid({ dir: ${JSON.stringify(dir)}, range: ${JSON.stringify(range)} }).uid);
process.stdout.write(JSON.stringify(uids) + "\\n");
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.endsWith("\n")) {
        resolve({
          uids: JSON.parse(out) as number[],
          release: () => new Promise((r) => { child.on("exit", () => r()); child.stdin.end(); }),
        });
      }
    });
    child.on("exit", (code) => { if (!out) reject(new Error(`holder exited with ${code}`)); });
  });
}

describe("uid leases", () => {
  it("never hands one uid to two holders at once, across processes racing for a small range", async () => {
    const dir = path.join(tempDir("mlebench-uids-"), "leases");
    const range = { first: 3_000_000, count: 40 };
    const holders = await Promise.all(Array.from({ length: 6 }, () => holder(dir, range, 5)));
    const all = holders.flatMap((h) => h.uids);
    expect(all).toHaveLength(30);
    expect(new Set(all).size).toBe(30);
    for (const u of all) expect(u).toBeGreaterThanOrEqual(range.first), expect(u).toBeLessThan(range.first + range.count);
    // Leases of processes that are gone count as free: with every holder gone, all 40 can be held again here.
    await Promise.all(holders.map((h) => h.release()));
    const again = Array.from({ length: 40 }, () => leaseUid({ dir, range }));
    expect(new Set(again.map((l) => l.uid)).size).toBe(40);
    expect(() => leaseUid({ dir, range })).toThrow(/no free sandbox uid in 3000000-3000039/);
    again[7].release();
    again[7].release();
    expect(leaseUid({ dir, range }).uid).toBe(again[7].uid);
  }, 60_000);

  it("refuses a lease folder that another user could have planted", () => {
    const base = tempDir("mlebench-uids-");
    const link = path.join(base, "link");
    fs.symlinkSync(base, link);
    expect(() => leaseUid({ dir: link, range: { first: 3_000_000, count: 2 } })).toThrow(/is not a private folder/);
    const open = path.join(base, "open");
    fs.mkdirSync(open, { mode: 0o777 });
    fs.chmodSync(open, 0o777);
    expect(() => leaseUid({ dir: open, range: { first: 3_000_000, count: 2 } })).toThrow(/is not a private folder/);
  });

  it("reads MLEBENCH_SANDBOX_UIDS and names a malformed one", () => {
    expect(uidRange({})).toEqual({ first: 1_900_000_000, count: 1_000_000 });
    expect(uidRange({ MLEBENCH_SANDBOX_UIDS: "200000-200099" })).toEqual({ first: 200_000, count: 100 });
    expect(() => uidRange({ MLEBENCH_SANDBOX_UIDS: "5-2" })).toThrow('MLEBENCH_SANDBOX_UIDS: "5-2" is not a uid range');
    expect(() => uidRange({ MLEBENCH_SANDBOX_UIDS: "12" })).toThrow(/expected FIRST-LAST/);
  });
});
