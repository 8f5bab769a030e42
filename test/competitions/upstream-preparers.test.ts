import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import yauzl from "yauzl";
import { describe, expect, it } from "vitest";
import { catalogEntry } from "../../src/competitions/catalog.js";
import { PREPARERS } from "../../src/competitions/preparers.js";
import { listFiles } from "../../src/io/extract.js";
import { md5File } from "../../src/prepare/prepare.js";
import { PREPARER_FIXTURES as FIXTURES, runFixturePreparer } from "../helpers/prepare-fixture.js";
import crypto from "node:crypto";

// Expected md5s come from scripts/golden/preparers.py: the same steps done by pandas and
// scikit-learn on the same synthetic raw files.
const SRC = decodeURIComponent(new URL("../../src/competitions/", import.meta.url).pathname);
const IDS = fs.readdirSync(FIXTURES).filter((d) => fs.existsSync(path.join(FIXTURES, d, "expected.json")));

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

/** Run a competition's preparer on a copy of its fixture's raw/ (after `arrange`) and list the md5 of every output. */
async function prepareFixture(id: string, arrange: (raw: string) => void = () => {}): Promise<Record<string, string>> {
  const { public: pub, private: priv } = await runFixturePreparer(id, arrange);
  const actual: Record<string, string> = {};
  for (const [label, d] of [["public", pub], ["private", priv]] as const) {
    for (const f of listFiles(d)) {
      if (f.toLowerCase().endsWith(".zip")) Object.assign(actual, await zipListing(path.join(d, f), `${label}/${f}`));
      else actual[`${label}/${f}`] = md5File(path.join(d, f));
    }
  }
  return actual;
}

function expectedMd5s(id: string): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, id, "expected.json"), "utf8")).md5 as Record<string, string>;
}

describe.each(IDS)("%s preparer", (id) => {
  it("writes byte-identical files to pandas + scikit-learn's", async () => {
    const expected = expectedMd5s(id);
    const actual = await prepareFixture(id);
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    expect(actual).toEqual(expected);
  });
});

describe("archives as Kaggle ships them", () => {
  it("tensorflow-speech-recognition-challenge unpacks train.7z itself", async () => {
    const id = "tensorflow-speech-recognition-challenge";
    const actual = await prepareFixture(id, (raw) => {
      execFileSync("7z", ["a", "-bd", "-y", "train.7z", "train"], { cwd: raw, stdio: "ignore" });
      fs.rmSync(path.join(raw, "train"), { recursive: true });
    });
    expect(actual).toEqual(expectedMd5s(id));
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

  it("marks as unverifiable only files the preparer really writes", () => {
    for (const [id, spec] of PREPARERS) {
      const outputs = Object.keys(expectedMd5s(id));
      for (const f of spec.unverifiable ?? []) expect(outputs, `${id}: ${f}`).toContain(f);
    }
  });
});
