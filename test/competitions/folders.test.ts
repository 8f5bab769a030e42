import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadOneCompetition } from "../../src/competitions/load-one.js";
import { COMPETITIONS, loadCompetition } from "../../src/competitions/registry.js";
import { PREPARERS } from "../../src/competitions/preparers.js";
import { catalogEntry } from "../../src/competitions/catalog.js";
import { REPO } from "../helpers/cli.js";

const DIR = path.join(REPO, "src", "competitions");
const folders = fs
  .readdirSync(DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !e.name.startsWith("_"))
  .map((e) => e.name);

describe("competitions found by folder", () => {
  it("src/competitions/folders.ts is what the generator writes from the folders", () => {
    const r = spawnSync(process.execPath, [path.join(REPO, "scripts", "competitions", "folders.mjs"), "--check"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`(${folders.length} competitions,`);
  });

  it("every folder is one competition, named by its id; every upstream folder with a prepare.ts is a preparer", () => {
    expect([...COMPETITIONS.keys()].sort()).toEqual([...folders].sort());
    const upstreamWithPrepare = folders.filter((f) => catalogEntry(f) !== undefined && fs.existsSync(path.join(DIR, f, "prepare.ts")));
    expect([...PREPARERS.keys()].sort()).toEqual(upstreamWithPrepare.sort());
    for (const id of upstreamWithPrepare) expect(COMPETITIONS.get(id)?.upstream, id).toBe(PREPARERS.get(id));
  });

  it("loadOneCompetition gives the registry's definition and grader, importing one folder", async () => {
    for (const id of folders) {
      const one = await loadOneCompetition(id);
      const registered = await loadCompetition(id);
      expect(Object.keys(one).sort(), id).toEqual(Object.keys(registered).sort());
      for (const [key, value] of Object.entries(registered)) {
        const mine = (one as unknown as Record<string, unknown>)[key];
        if (typeof value === "function") expect(mine, `${id}.${key}`).toBe(value);
        else expect(mine, `${id}.${key}`).toEqual(value);
      }
    }
    let expected = "";
    try {
      await loadCompetition("titanik");
    } catch (e) {
      expected = (e as Error).message;
    }
    expect(expected).toContain('Unknown competition "titanik"');
    await expect(loadOneCompetition("titanik")).rejects.toThrow(expected);
  });
});
