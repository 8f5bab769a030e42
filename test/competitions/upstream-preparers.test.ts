import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getCompetition } from "../../src/competitions/registry.js";
import { listFiles } from "../../src/io/extract.js";
import { md5File } from "../../src/prepare/prepare.js";
import { tempDir } from "../helpers/data-dir.js";

// Expected md5s come from scripts/golden/preparers.py: the same steps done by pandas and
// scikit-learn on the same synthetic raw files.
const FIXTURES = decodeURIComponent(new URL("../fixtures/preparers/", import.meta.url).pathname);
const IDS = fs.readdirSync(FIXTURES).filter((d) => fs.existsSync(path.join(FIXTURES, d, "expected.json")));

describe.each(IDS)("%s preparer", (id) => {
  it("writes byte-identical files to pandas + scikit-learn's", async () => {
    const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, id, "expected.json"), "utf8")).md5 as Record<string, string>;
    const dir = tempDir();
    const pub = path.join(dir, "public");
    const priv = path.join(dir, "private");
    fs.mkdirSync(pub);
    fs.mkdirSync(priv);
    const c = getCompetition(id);
    // Preparers may unpack archives into raw/; they get a copy so the fixture stays as shipped.
    const raw = path.join(dir, "raw");
    fs.cpSync(path.join(FIXTURES, id, "raw"), raw, { recursive: true });
    await c.upstream!.prepare({ raw, public: pub, private: priv });
    const actual: Record<string, string> = {};
    for (const [label, d] of [["public", pub], ["private", priv]] as const) {
      for (const f of listFiles(d)) actual[`${label}/${f}`] = md5File(path.join(d, f));
    }
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    expect(actual).toEqual(expected);
  });
});
