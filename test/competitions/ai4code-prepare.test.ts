import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { prepareWithTestSize, splitOnAncestors } from "../../src/competitions/AI4Code/prepare.js";
import { listFiles } from "../../src/io/extract.js";
import { md5File } from "../../src/prepare/prepare.js";
import { tempDir } from "../helpers/data-dir.js";

// The fixture has fewer notebooks than upstream's 20,000 test notebooks, so the shared preparer
// test puts every group in test. This one uses a smaller size, where groups spill over into train;
// its md5s come from the same oracle (scripts/golden/preparer_cases/AI4Code.py run directly).
const FIXTURE = decodeURIComponent(new URL("../fixtures/preparers/AI4Code/", import.meta.url).pathname);

describe("AI4Code preparer with a small test size", () => {
  it("matches pandas when ancestry groups no longer all fit in the test split", () => {
    const expected = JSON.parse(fs.readFileSync(path.join(FIXTURE, "expected-test-size-61.json"), "utf8")) as {
      test_size: number;
      md5: Record<string, string>;
    };
    const dir = tempDir();
    const ctx = { raw: path.join(FIXTURE, "raw"), public: path.join(dir, "public"), private: path.join(dir, "private") };
    fs.mkdirSync(ctx.public);
    fs.mkdirSync(ctx.private);
    prepareWithTestSize(ctx, expected.test_size);
    const actual: Record<string, string> = {};
    for (const [label, d] of [["public", ctx.public], ["private", ctx.private]] as const) {
      for (const f of listFiles(d)) actual[`${label}/${f}`] = md5File(path.join(d, f));
    }
    expect(actual).toEqual(expected.md5);
  });

  it("skips a group that does not fit but keeps filling with later, smaller ones", () => {
    const split = splitOnAncestors(["a", "b", "c", "d", "e"], ["x", "y", "y", "y", "z"], 2);
    expect(split).toEqual({ test: ["a", "e"], train: ["b", "c", "d"] });
  });
});
