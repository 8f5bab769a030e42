import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import yauzl from "yauzl";
import { describe, expect, it } from "vitest";
import { catalogEntry } from "../../src/competitions/catalog.js";
import { PREPARERS } from "../../src/competitions/preparers.js";
import type { UpstreamPrepareContext } from "../../src/core/competition.js";
import { extractArchive, listFiles } from "../../src/io/extract.js";
import { md5File } from "../../src/prepare/prepare.js";
import { tempDir } from "../helpers/data-dir.js";
import { PREPARER_FIXTURES as FIXTURES, runFixturePreparer } from "../helpers/prepare-fixture.js";
import crypto from "node:crypto";

// Each fixture holds three listings of the same outputs (md5 per file, zips by member):
// expected.json from upstream's own prepare.py run on raw/ (scripts/golden/upstream/oracle.py),
// independent.json from the same steps redone with pandas + scikit-learn (scripts/golden/preparers.py),
// and oracle.json, which says where and why the two differ.
const SRC = decodeURIComponent(new URL("../../src/competitions/", import.meta.url).pathname);
const IDS = fs.readdirSync(FIXTURES).filter((d) => fs.existsSync(path.join(FIXTURES, d, "expected.json")));

/** What oracle.json says about one file where upstream's listing and the independent one differ. */
interface Difference {
  upstream: string | null;
  independent: string | null;
  why: string | null;
  /** Present for archives: md5 of each file member of upstream's. */
  upstream_members?: Record<string, string>;
  /** False where upstream's bytes change from run to run (its md5 is then null). */
  upstream_reproducible?: boolean;
}

interface Oracle {
  upstream_ran: boolean;
  why?: string | null;
  independent_differs: Record<string, Difference>;
}

function oracle(id: string): Oracle {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, id, "oracle.json"), "utf8")) as Oracle;
}

/** md5 of each file member of a zip, keyed "<rel>:<member>" (zips are compared by content, not bytes). */
function zipListing(file: string, rel: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: Record<string, string> = {};
      zip.on("error", reject);
      zip.on("end", () => resolve(out));
      zip.on("entry", (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith("/")) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const h = crypto.createHash("md5");
          stream.on("data", (d: Buffer) => h.update(d));
          stream.on("error", reject);
          stream.on("end", () => {
            out[`${rel}:${entry.fileName}`] = h.digest("hex");
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** md5 of every output under the prepared folders, zips listed by member. */
async function listing(ctx: UpstreamPrepareContext): Promise<Record<string, string>> {
  const actual: Record<string, string> = {};
  for (const [label, d] of [["public", ctx.public], ["private", ctx.private]] as const) {
    for (const f of listFiles(d)) {
      if (f.toLowerCase().endsWith(".zip")) Object.assign(actual, await zipListing(path.join(d, f), `${label}/${f}`));
      else actual[`${label}/${f}`] = md5File(path.join(d, f));
    }
  }
  return actual;
}

/** Run a competition's preparer on a copy of its fixture's raw/ (after `arrange`) and list the md5 of every output. */
async function prepareFixture(id: string, arrange: (raw: string) => void = () => {}): Promise<Record<string, string>> {
  return listing(await runFixturePreparer(id, arrange));
}

function md5s(id: string, file: "expected.json" | "independent.json"): Record<string, string | null> {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, id, file), "utf8")).md5 as Record<string, string | null>;
}

/** Upstream's md5s, except for the files the port marks unverifiable: there the independent layout's, which the port writes too. */
async function wanted(id: string): Promise<Record<string, string | null>> {
  const upstream = md5s(id, "expected.json");
  const independent = md5s(id, "independent.json");
  const unverifiable = new Set((await PREPARERS.get(id)?.())?.unverifiable ?? []);
  return Object.fromEntries(Object.entries(upstream).map(([k, v]) => [k, unverifiable.has(k) ? independent[k] : v]));
}

/** md5 of each file member of a 7z or tar archive the port wrote. */
async function archiveMembers(file: string): Promise<Record<string, string>> {
  const dest = tempDir();
  await extractArchive(file, dest);
  return Object.fromEntries(listFiles(dest).map((f) => [f, md5File(path.join(dest, f))]));
}

describe.each(IDS)("%s preparer", (id) => {
  it("writes upstream's bytes (and upstream's members, in archives whose bytes cannot match)", async () => {
    const expected = await wanted(id);
    const ctx = await runFixturePreparer(id);
    const actual = await listing(ctx);
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    expect(actual).toEqual(expected);
    for (const [file, d] of Object.entries(oracle(id).independent_differs)) {
      // An archive upstream leaves without any file (invasive-species-monitoring's) has nothing to compare.
      if (d.upstream_members === undefined || Object.keys(d.upstream_members).length === 0) continue;
      const [label, rel] = [file.slice(0, file.indexOf("/")), file.slice(file.indexOf("/") + 1)];
      const members = await archiveMembers(path.join(label === "public" ? ctx.public : ctx.private, rel));
      expect(members, file).toEqual(d.upstream_members);
    }
  });
});

describe.each(IDS)("%s oracle", (id) => {
  it("has upstream and the independent steps agree on every file but those oracle.json explains", () => {
    const upstream = md5s(id, "expected.json");
    const independent = md5s(id, "independent.json");
    const o = oracle(id);
    const names = [...new Set([...Object.keys(upstream), ...Object.keys(independent)])].sort();
    const disagree = names.filter((k) => (upstream[k] ?? null) !== (independent[k] ?? null));
    expect(disagree).toEqual(Object.keys(o.independent_differs).sort());
    for (const [file, d] of Object.entries(o.independent_differs)) {
      expect(d.why, file).toBeTruthy();
      expect(d.upstream, file).toBe(upstream[file] ?? null);
      expect(d.independent, file).toBe(independent[file] ?? null);
    }
    // Where upstream's preparer cannot run on the fixture, expected.json keeps the independent md5s and says why.
    if (!o.upstream_ran) expect(o.why).toBeTruthy();
  });

  it("marks unverifiable every file whose bytes cannot match upstream's", async () => {
    const unverifiable = (await PREPARERS.get(id)?.())?.unverifiable ?? [];
    for (const file of Object.keys(oracle(id).independent_differs)) expect(unverifiable, file).toContain(file);
  });
});

describe("archives as Kaggle ships them", () => {
  it("tensorflow-speech-recognition-challenge unpacks train.7z itself", async () => {
    const id = "tensorflow-speech-recognition-challenge";
    const actual = await prepareFixture(id, (raw) => {
      execFileSync("7z", ["a", "-bd", "-y", "train.7z", "train"], { cwd: raw, stdio: "ignore" });
      fs.rmSync(path.join(raw, "train"), { recursive: true });
    });
    expect(actual).toEqual(await wanted(id));
  });
});

describe("preparer registry", () => {
  it("registers exactly the upstream competitions whose folder has a preparer, each with an oracle fixture", () => {
    // Offline competitions have prepare.ts files too, but they build from packaged datasets.
    const withPrepare = fs
      .readdirSync(SRC)
      .filter((d) => catalogEntry(d) !== undefined && fs.existsSync(path.join(SRC, d, "prepare.ts")))
      .sort();
    expect([...PREPARERS.keys()].sort()).toEqual(withPrepare);
    expect(IDS.sort()).toEqual(withPrepare);
  });

  it("marks as unverifiable only files the preparer really writes", async () => {
    for (const [id, load] of PREPARERS) {
      const outputs = Object.keys(md5s(id, "expected.json"));
      for (const f of (await load()).unverifiable ?? []) expect(outputs, `${id}: ${f}`).toContain(f);
    }
  });
});

describe("oracle shims of the preparers", () => {
  it("test_compat_preparers.py passes under Debian's python3", () => {
    // Offline downloads, the Parquet and TensorFlow stand-ins, pandas releases: each on known values.
    const repo = path.join(SRC, "..", "..");
    const file = path.join(repo, "scripts", "golden", "upstream", "test_compat_preparers.py");
    const run = spawnSync("/usr/bin/python3", ["-m", "unittest", "-v", file], {
      cwd: repo,
      encoding: "utf8",
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(Number(/Ran (\d+) tests?/.exec(run.stderr)?.[1])).toBeGreaterThanOrEqual(10);
    expect(run.stderr).not.toMatch(/\bFAIL\b|\bERROR\b/);
  });
});
