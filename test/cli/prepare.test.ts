import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { md5File } from "../../src/prepare/prepare.js";
import { REPO, mlebench } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";

describe("mlebench prepare", () => {
  // The library tests prepare every offline competition; here one small one exercises the command.
  it("prepares, then only verifies, and the sample submission grades", () => {
    const dataDir = tempDir();
    const first = mlebench(["prepare", "-c", "titanic", "--data-dir", dataDir, "--json"]);
    expect(first.status).toBe(0);
    const lines = first.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.every((r) => r.status === "prepared")).toBe(true);
    const again = mlebench(["prepare", "-c", "titanic", "--data-dir", dataDir, "--json"]);
    expect(again.stdout.trim().split("\n").map((l) => JSON.parse(l).status)).toEqual(lines.map(() => "verified"));
    const sample = path.join(dataDir, "titanic", "prepared", "public", "sample_submission.csv");
    const graded = mlebench(["grade-sample", sample, "titanic", "--data-dir", dataDir, "--json"]);
    expect(JSON.parse(graded.stdout)).toMatchObject({ valid_submission: true, any_medal: false });
    const text = mlebench(["grade-sample", sample, "titanic", "--data-dir", dataDir]);
    expect(text.stdout).toMatch(/^leaderboard +a reference population of standard pipelines, not human teams$/m);
  });

  it("reports tampered files and prepares them again", () => {
    const dataDir = tempDir();
    expect(mlebench(["prepare", "-c", "titanic", "--data-dir", dataDir]).status).toBe(0);
    const answers = path.join(dataDir, "titanic", "prepared", "private", "test.csv");
    fs.appendFileSync(answers, "9999,1\n");
    const r = mlebench(["prepare", "-c", "titanic", "--data-dir", dataDir, "--json"]);
    expect(JSON.parse(r.stdout).status).toBe("prepared");
    expect(fs.readFileSync(answers, "utf8")).not.toContain("9999,1");
  });

  it("exits 2 without a selection, or when upstream's checksums are out of reach", () => {
    const none = mlebench(["prepare"]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/exactly one of -c <id\.\.\.>, --split <name>, --lite, -l <file> or --all/);
    // Every upstream competition has a preparer; without upstream's checksums (here: nothing listens) it stops before downloading.
    const env = { MLEBENCH_UPSTREAM_RAW_URL: "http://127.0.0.1:9", MLEBENCH_UPSTREAM_LFS_URL: "http://127.0.0.1:9" };
    const kaggle = mlebench(["prepare", "-c", "3d-object-detection-for-autonomous-vehicles", "--data-dir", tempDir()], env);
    expect(kaggle.status).toBe(2);
    expect(kaggle.stderr).toContain('No checksums for "3d-object-detection-for-autonomous-vehicles"');
    const uncatalogued = mlebench(["prepare", "-c", "no-such-competition", "--data-dir", tempDir()]);
    expect(uncatalogued.status).toBe(2);
    expect(uncatalogued.stderr).toContain('Unknown competition "no-such-competition"');
    const list = path.join(tempDir(), "ids.txt");
    fs.writeFileSync(list, "# none\n\n");
    expect(mlebench(["prepare", "-l", list]).stderr).toContain(`--list: ${list} lists no competitions`);
  });
});

describe("mlebench prepare (an upstream competition, offline)", () => {
  it("prepares spaceship-titanic from a hand-populated raw/ with --skip-verification, warning about the metadata", () => {
    const dataDir = tempDir();
    const raw = path.join(dataDir, "spaceship-titanic", "raw");
    fs.mkdirSync(raw, { recursive: true });
    fs.copyFileSync(path.join(REPO, "test/fixtures/preparers/spaceship-titanic/raw/train.csv"), path.join(raw, "train.csv"));
    // A port nothing listens on: the metadata cannot be fetched, as on an air-gapped machine.
    const env = { MLEBENCH_UPSTREAM_RAW_URL: "http://127.0.0.1:9", MLEBENCH_UPSTREAM_LFS_URL: "http://127.0.0.1:9" };
    const r = mlebench(["prepare", "-c", "spaceship-titanic", "--skip-verification", "--keep-raw", "--data-dir", dataDir, "--json"], env);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ id: "spaceship-titanic", status: "prepared" });
    expect(out.warnings.join("\n")).toMatch(/fetch it later with: mlebench prepare -c spaceship-titanic/);
    const expected = JSON.parse(fs.readFileSync(path.join(REPO, "test/fixtures/preparers/spaceship-titanic/expected.json"), "utf8")).md5;
    const pub = path.join(dataDir, "spaceship-titanic", "prepared", "public");
    expect(md5File(path.join(pub, "train.csv"))).toBe(expected["public/train.csv"]);
    expect(fs.readdirSync(pub).sort()).toEqual(["sample_submission.csv", "test.csv", "train.csv"]);
    // Without --skip-verification and without upstream's checksums it refuses, saying why.
    const strict = mlebench(["prepare", "-c", "spaceship-titanic", "--data-dir", dataDir], env);
    expect(strict.status).toBe(2);
    expect(strict.stderr).toContain("No checksums for \"spaceship-titanic\"");
  });
});

describe("mlebench prepare (an upstream competition from a populated raw/)", () => {
  it("prepares tgs-salt-identification-challenge from raw/ and list --all shows it ready, not yet gradable without a leaderboard", () => {
    const id = "tgs-salt-identification-challenge";
    const dataDir = tempDir();
    const raw = path.join(dataDir, id, "raw");
    fs.cpSync(path.join(REPO, `test/fixtures/preparers/${id}/raw`), raw, { recursive: true });
    const env = { MLEBENCH_UPSTREAM_RAW_URL: "http://127.0.0.1:9", MLEBENCH_UPSTREAM_LFS_URL: "http://127.0.0.1:9" };
    const r = mlebench(["prepare", "-c", id, "--skip-verification", "--data-dir", dataDir, "--json"], env);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id, status: "prepared" });
    const expected = JSON.parse(fs.readFileSync(path.join(REPO, `test/fixtures/preparers/${id}/expected.json`), "utf8")).md5;
    const priv = path.join(dataDir, id, "prepared", "private");
    expect(md5File(path.join(priv, "test.csv"))).toBe(expected["private/test.csv"]);
    // raw/ is dropped without --keep-raw, as upstream does.
    expect(fs.existsSync(raw)).toBe(false);
    const list = mlebench(["list", "--all", "--json", "--data-dir", dataDir]);
    const row = (JSON.parse(list.stdout) as { id: string }[]).find((x) => x.id === id);
    expect(row).toMatchObject({ status: "ready", prepared: true, preparer: true, grader: true, gradable: false });
  });
});
