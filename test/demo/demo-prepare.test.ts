import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Competition } from "../../src/core/competition.js";
import { UserError } from "../../src/core/errors.js";
import { runDemo } from "../../src/demo/demo.js";
import { localBackend } from "../../src/sandbox/local.js";
import { tempDir } from "../helpers/data-dir.js";

/** An offline competition whose recorded checksums no longer match what its preparer writes. */
function drifted(assets: string): Competition {
  fs.writeFileSync(path.join(assets, "description.md"), "# Drifted\n");
  fs.writeFileSync(path.join(assets, "checksums.json"), JSON.stringify({ "public/description.md": "0".repeat(32) }) + "\n");
  return {
    id: "drifted",
    name: "Drifted",
    type: "simple",
    complexity: "low",
    category: "Tabular",
    metric: "accuracy",
    answers: "test.csv",
    sampleSubmission: "sample_submission.csv",
    grader: async () => ({ grade: () => 0 }),
    offline: { order: 1, sources: {}, layout: { train: "train.csv", test: "test.csv", id: "id" }, assets, preparer: async () => ({ prepare: () => undefined }) },
  } as Competition;
}

describe("demo preparing its competitions", () => {
  it("reports a competition that no longer matches its checksums as a setup error naming it, before any run", async () => {
    const dataDir = tempDir("mlebench-demo-drift-");
    const runsDir = tempDir("mlebench-demo-drift-runs-");
    const said: string[] = [];
    const run = runDemo({
      competitions: [drifted(tempDir("mlebench-drift-assets-"))],
      dataDir,
      runsDir,
      backend: localBackend,
      limits: {} as never,
      seeds: 1,
      workers: 1,
      say: (line) => said.push(line),
      onEvent: () => undefined,
      onPrepare: () => undefined,
    });
    await expect(run).rejects.toBeInstanceOf(UserError);
    await expect(run).rejects.toThrow(
      `cannot prepare drifted in ${dataDir}: Prepared files for "drifted" do not match the recorded checksums (the source data or the preparer changed):\n  public/description.md: md5`,
    );
    expect(said).toEqual([]);
    expect(fs.readdirSync(runsDir)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, "drifted", "prepared"))).toBe(false);
  });
});
