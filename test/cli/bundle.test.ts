import { createHash, generateKeyPairSync } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getSandboxBackend } from "../../src/sandbox/registry.js";
import { mlebench } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { titanicDataDir } from "../helpers/runs.js";
import { mlebenchAsUser, TEST_USER, userUnavailable } from "../helpers/user.js";

// `run` → `bundle` → `verify` as users run them: no --sandbox flag (bubblewrap), a fresh data dir for
// verify, and archives tampered with by hand (GNU tar) to check that each change is named.
const bwrapMissing = await getSandboxBackend("bwrap").unavailable();

type Verdict = {
  ok: boolean;
  file_problems: string[];
  problems: string[];
  signature: { signed: boolean; valid: boolean | null; key_id: string | null };
  runs: { run_id: string; verdict: string; detail: string | null; claimed: { score: number | null }; regraded: { score: number | null } | null; data_note: string | null }[];
  claimed_table: { agent_id: string; runs: number; medals: number; any_medal_pct: number }[];
  table_reproduced: boolean;
};

function keyPair(dir: string): { priv: string; pub: string; id: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const priv = path.join(dir, "key.pem");
  const pub = path.join(dir, "key.pub.pem");
  fs.writeFileSync(priv, privateKey.export({ type: "pkcs8", format: "pem" }));
  fs.writeFileSync(pub, publicKey.export({ type: "spki", format: "pem" }));
  const id = createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest("hex");
  return { priv, pub, id };
}

/** Unpack an archive with GNU tar, let `edit` change the tree, and pack it again (top entries by name, no "./"). */
function tamper(archive: string, out: string, edit: (root: string) => void): void {
  const root = tempDir("bundle-tamper-");
  expect(spawnSync("tar", ["-xzf", archive, "-C", root]).status).toBe(0);
  edit(root);
  expect(spawnSync("tar", ["-czf", out, "-C", root, ...fs.readdirSync(root)]).status).toBe(0);
}

const sha = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** Rewrite bundle.json so its hashes match the tree again (what a forger without the key can do). */
function rehash(root: string, change: (bundle: Record<string, any>) => void = () => {}): void {
  const file = path.join(root, "bundle.json");
  const bundle = JSON.parse(fs.readFileSync(file, "utf8"));
  for (const p of Object.keys(bundle.files)) bundle.files[p] = { sha256: sha(path.join(root, p)), bytes: fs.statSync(path.join(root, p)).size };
  change(bundle);
  fs.writeFileSync(file, JSON.stringify(bundle, null, 2) + "\n");
}

function verify(archive: string, dataDir: string, extra: string[] = []): { status: number | null; v: Verdict; stdout: string; stderr: string } {
  const r = mlebench(["verify", archive, "--data-dir", dataDir, "--json", ...extra]);
  return { status: r.status, v: JSON.parse(r.stdout || "null") as Verdict, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(bwrapMissing !== null)("mlebench bundle and verify (bubblewrap)", () => {
  let dataDir: string;
  let freshDir: string;
  let groupDir: string;
  let work: string;
  let keys: { priv: string; pub: string; id: string };
  let signed: string;
  let runIds: string[];
  let scores: number[];

  beforeAll(async () => {
    dataDir = await titanicDataDir();
    freshDir = tempDir("bundle-fresh-data-");
    expect(mlebench(["prepare", "-c", "titanic", "--data-dir", freshDir]).status).toBe(0);
    const runsDir = tempDir("bundle-runs-");
    const run = mlebench(["run", "--agent", "baseline", "-c", "titanic", "--seeds", "2", "--grade", "--time-limit", "5m", "--data-dir", dataDir, "--runs-dir", runsDir, "--json"]);
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { dir: string; runs: { run_id: string; score: number }[] };
    groupDir = out.dir;
    runIds = out.runs.map((r) => r.run_id);
    scores = out.runs.map((r) => r.score);
    work = tempDir("bundle-work-");
    keys = keyPair(work);
    signed = path.join(work, "signed.tar.gz");
    const b = mlebench(["bundle", groupDir, "-o", signed, "--sign", keys.priv, "--json"]);
    expect(b.status, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout)).toMatchObject({ output: signed, runs: 2, ungraded: 0, skipped: 0, key_id: keys.id });
  }, 300_000);

  it("writes a manifest per run and per group from the harness's records", () => {
    const group = JSON.parse(fs.readFileSync(path.join(groupDir, "manifest.json"), "utf8"));
    expect(group.schema).toBe("mlebench-group-manifest/1");
    expect(group.runs.map((r: { run_id: string }) => r.run_id)).toEqual(runIds);
    for (const [i, id] of runIds.entries()) {
      const file = path.join(groupDir, id, "manifest.json");
      expect(group.runs[i].manifest_sha256).toBe(sha(file));
      const m = JSON.parse(fs.readFileSync(file, "utf8"));
      expect(m).toMatchObject({ schema: "mlebench-manifest/1", run_id: id, competition_id: "titanic", agent_id: "baseline", seed: i });
      expect(m.software.sandbox).toMatchObject({ backend: "bwrap", image: null });
      expect(m.software.sandbox.python_packages.numpy).toMatch(/^\d+\.\d+/);
      expect(m.software.harness.name).toBe("mlebench-ts");
      expect(m.hardware.host_cpus).toBeGreaterThan(0);
      expect(m.usage.time_limit_seconds).toBe(300);
      expect(m.usage.gpu_seconds).toBe(0);
      expect(m.models).toEqual([]);
      expect(m.network).toEqual({ mode: "none", allowed_hosts: [], connections: [], blocked_attempts: 0, unreadable_lines: 0 });
      // The baseline validates its submission once before it ends; the log never carries a score.
      expect(m.validation).toMatchObject({ calls: 1, valid: 1, invalid: 0 });
      const submission = path.join(groupDir, id, "submission", "submission.csv");
      expect(m.validation.log[0]).toMatchObject({ route: "/validate", status: 200, valid: true, sha256: sha(submission), changed_lines: null });
      expect(m.validation.log[0].lines).toBe(fs.readFileSync(submission, "utf8").split("\n").filter(Boolean).length);
      expect(JSON.stringify(m.validation)).not.toContain("score");
      expect(m.data.source).toBe("offline");
      expect(m.data.packages).toEqual([expect.objectContaining({ kind: "debian", name: "python3-sklearn" })]);
      expect(m.data.files["prepared/private/test.csv"]).toBe(sha(path.join(dataDir, "titanic", "prepared", "private", "test.csv")));
      expect(m.data.files["leaderboard.csv"]).toBe(sha(path.join(dataDir, "titanic", "leaderboard.csv")));
    }
  });

  it("verifies an untouched signed bundle against a fresh data dir, by the signer's key", () => {
    const { status, v } = verify(signed, freshDir, ["--key", keys.pub]);
    expect(status).toBe(0);
    expect(v.ok).toBe(true);
    expect(v.file_problems).toEqual([]);
    expect(v.signature).toEqual({ signed: true, valid: true, key_id: keys.id, expected_key_id: keys.id });
    expect(v.runs.map((r) => [r.run_id, r.verdict, r.claimed.score, r.regraded?.score, r.data_note])).toEqual(runIds.map((id, i) => [id, "reproduced", scores[i], scores[i], null]));
    expect(v.claimed_table).toEqual([{ agent_id: "baseline", runs: 2, medals: 0, any_medal_pct: 0 }]);
    const text = mlebench(["verify", signed, "--data-dir", freshDir]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain("files: every file matches its sha256 in bundle.json");
    expect(text.stdout).toContain("verified: the claimed table is reproduced");
  });

  it("names a tampered submission, report and manifest, and an added file", () => {
    const out = path.join(work, "tampered.tar.gz");
    const [a, b] = runIds;
    tamper(signed, out, (root) => {
      const group = fs.readdirSync(root).find((n) => n.includes("run-group"))!;
      const sub = path.join(root, group, a, "submission", "submission.csv");
      fs.writeFileSync(sub, fs.readFileSync(sub, "utf8").replace(/,0\n/, ",1\n"));
      const report = path.join(root, group, b, "grading_report.json");
      fs.writeFileSync(report, fs.readFileSync(report, "utf8").replace('"any_medal": false', '"any_medal": true'));
      const manifest = path.join(root, group, a, "manifest.json");
      fs.writeFileSync(manifest, fs.readFileSync(manifest, "utf8").replace('"gpus": []', '"gpus": [{"index": 0, "model": "H100", "memory_bytes": 1}]'));
      fs.writeFileSync(path.join(root, group, "extra.txt"), "x");
    });
    const { status, v } = verify(out, freshDir);
    expect(status).toBe(1);
    expect(v.ok).toBe(false);
    const group = path.basename(groupDir);
    expect(v.file_problems.map((p) => p.split(":")[0]).sort()).toEqual(
      [`${group}/${a}/submission/submission.csv`, `${group}/${b}/grading_report.json`, `${group}/${a}/manifest.json`, `${group}/extra.txt`].sort(),
    );
    expect(v.file_problems.find((p) => p.startsWith(`${group}/extra.txt`))).toContain("not listed in bundle.json (added)");
    expect(v.file_problems.find((p) => p.startsWith(`${group}/${a}/submission`))).toMatch(/: changed \(sha256 [0-9a-f]{64}, \d+ bytes; bundle\.json says [0-9a-f]{64}, \d+ bytes\)$/);
    // The report's edit also breaks its claim.
    expect(v.runs.find((r) => r.run_id === b)).toMatchObject({ verdict: "differs", detail: "bundle.json claims any_medal other than " + `${group}/${b}/grading_report.json says` });
  });

  it("catches a forged claim with matching hashes by re-grading, and the broken signature", () => {
    const out = path.join(work, "forged.tar.gz");
    const [a] = runIds;
    tamper(signed, out, (root) => {
      const group = fs.readdirSync(root).find((n) => n.includes("run-group"))!;
      const report = path.join(root, group, a, "grading_report.json");
      const r = JSON.parse(fs.readFileSync(report, "utf8"));
      Object.assign(r, { score: 0.99, any_medal: true, gold_medal: true });
      fs.writeFileSync(report, JSON.stringify(r, null, 2) + "\n");
      rehash(root, (bundle) => {
        const run = bundle.runs.find((x: { run_id: string }) => x.run_id === a);
        Object.assign(run, { score: 0.99, any_medal: true, gold_medal: true });
        bundle.table = [{ agent_id: "baseline", runs: 2, medals: 1, any_medal_pct: 50 }];
      });
    });
    const { status, v } = verify(out, freshDir);
    expect(status).toBe(1);
    expect(v.file_problems).toEqual([]);
    expect(v.signature).toMatchObject({ signed: true, valid: false });
    expect(v.problems).toContain("bundle.json: its signature in bundle.sig does not match (changed after signing)");
    expect(v.runs.find((r) => r.run_id === a)).toMatchObject({ verdict: "differs", detail: `re-graded: score ${scores[0]}, claimed 0.99; medal no, claimed yes` });
    expect(v.table_reproduced).toBe(false);
    // Without the signature the forgery is still caught by re-grading.
    const unsigned = path.join(work, "forged-unsigned.tar.gz");
    tamper(out, unsigned, (root) => fs.rmSync(path.join(root, "bundle.sig")));
    const again = verify(unsigned, freshDir);
    expect(again.status).toBe(1);
    expect(again.v.signature.signed).toBe(false);
    expect(again.v.problems).toEqual([]);
    expect(again.v.table_reproduced).toBe(false);
    // And --key refuses a bundle that carries no signature.
    const keyed = verify(unsigned, freshDir, ["--key", keys.pub]);
    expect(keyed.v.problems[0]).toMatch(/^the bundle is not signed, and --key asks for a signature by [0-9a-f]{16}…$/);
  });

  it("refuses a signature by another key, and notes data that differ from the run's", () => {
    const other = keyPair(tempDir("bundle-other-key-"));
    const { status, v } = verify(signed, freshDir, ["--key", other.pub]);
    expect(status).toBe(1);
    expect(v.problems).toEqual([`the bundle is signed by key ${keys.id.slice(0, 16)}…, not by the key given with --key (${other.id.slice(0, 16)}…)`]);
    const changed = tempDir("bundle-changed-data-");
    fs.cpSync(freshDir, changed, { recursive: true });
    fs.appendFileSync(path.join(changed, "titanic", "prepared", "public", "description.md"), "\n");
    const noted = verify(signed, changed);
    expect(noted.status).toBe(0);
    expect(noted.v.runs[0].data_note).toMatch(/^the data in .* differ from the run's \(tree sha256 [0-9a-f]{12}…, the run's [0-9a-f]{12}…\): prepared\/public\/description\.md$/);
  });

  it("writes a group's missing manifest (a group from a queue, say) before bundling it", () => {
    const copy = path.join(tempDir("bundle-copy-"), path.basename(groupDir));
    fs.cpSync(groupDir, copy, { recursive: true });
    fs.rmSync(path.join(copy, "manifest.json"));
    const r = mlebench(["bundle", copy, "-o", path.join(work, "copy.tar.gz")]);
    expect(r.status, r.stderr).toBe(0);
    const made = JSON.parse(fs.readFileSync(path.join(copy, "manifest.json"), "utf8"));
    const original = JSON.parse(fs.readFileSync(path.join(groupDir, "manifest.json"), "utf8"));
    expect(made.runs).toEqual(original.runs);
    expect(made.totals).toEqual(original.totals);
  });

  it("lists the files it left out, and cannot verify a claim whose submission it does not carry", () => {
    const small = path.join(work, "small.tar.gz");
    const b = mlebench(["bundle", groupDir, "-o", small, "--max-file-bytes", "100", "--json"]);
    expect(b.status, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout).skipped).toBeGreaterThanOrEqual(2);
    const root = tempDir("bundle-small-");
    expect(spawnSync("tar", ["-xzf", small, "-C", root, "bundle.json"]).status).toBe(0);
    const listed = JSON.parse(fs.readFileSync(path.join(root, "bundle.json"), "utf8"));
    const group = path.basename(groupDir);
    expect(listed.skipped).toContainEqual({ path: `${group}/${runIds[0]}/submission/submission.csv`, why: "larger than 100 bytes, left out" });
    expect(listed.runs.map((r: { submission: string | null }) => r.submission)).toEqual([null, null]);
    const { status, v } = verify(small, freshDir);
    expect(status).toBe(1);
    expect(v.runs.map((r) => [r.verdict, r.detail])).toEqual(runIds.map(() => ["not verified", "its submission is not in the bundle (see bundle.json's skipped list)"]));
    const bad = mlebench(["bundle", groupDir, "-o", path.join(work, "z.tar.gz"), "--max-file-bytes", "lots"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--max-file-bytes: expected a positive whole number of bytes, got "lots"');
  });

  it("fails with a clear message on bad input", () => {
    const missing = mlebench(["verify", path.join(work, "nope.tar.gz"), "--data-dir", freshDir]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`verify: ${path.join(work, "nope.tar.gz")} does not exist`);
    const notGz = path.join(work, "plain.txt");
    fs.writeFileSync(notGz, "hello");
    const bad = mlebench(["verify", notGz, "--data-dir", freshDir]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${notGz} is not a readable .tar.gz`);
    const linked = path.join(work, "link.tar.gz");
    const root = tempDir("bundle-link-");
    fs.symlinkSync("/etc/passwd", path.join(root, "bundle.json"));
    spawnSync("tar", ["-czf", linked, "-C", root, "bundle.json"]);
    const link = mlebench(["verify", linked, "--data-dir", freshDir]);
    expect(link.status).toBe(2);
    expect(link.stderr).toContain(`${linked}: entry "bundle.json": type "2" is not a regular file or folder (links and devices are refused)`);
    const noGroup = mlebench(["bundle", work, "-o", path.join(work, "x.tar.gz")]);
    expect(noGroup.status).toBe(2);
    expect(noGroup.stderr).toContain(`bundle: ${path.join(work, "metadata.json")} is missing (expected a run group dir made by mlebench run)`);
    expect(fs.existsSync(path.join(work, "x.tar.gz"))).toBe(false);
    const rsa = path.join(work, "rsa.pem");
    fs.writeFileSync(rsa, generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs8", format: "pem" }));
    const wrongKey = mlebench(["bundle", groupDir, "-o", path.join(work, "y.tar.gz"), "--sign", rsa]);
    expect(wrongKey.status).toBe(2);
    expect(wrongKey.stderr).toContain(`--sign: ${rsa} is a rsa key; an ed25519 key is needed`);
  });
});

const noUser = bwrapMissing ?? userUnavailable();

describe.skipIf(noUser !== null)(`mlebench run, bundle and verify as ${TEST_USER.name}`, () => {
  it("makes, bundles and verifies a group without root", () => {
    const home = tempDir("bundle-user-home-");
    const runsDir = tempDir("bundle-user-runs-");
    const dataDir = tempDir("bundle-user-data-");
    for (const d of [home, runsDir, dataDir]) fs.chownSync(d, TEST_USER.uid, TEST_USER.gid);
    const cli = (args: string[]) => mlebenchAsUser(args, home);
    expect(cli(["prepare", "-c", "titanic", "--data-dir", dataDir]).status).toBe(0);
    const run = cli(["run", "--agent", "baseline", "-c", "titanic", "--grade", "--time-limit", "5m", "--data-dir", dataDir, "--runs-dir", runsDir, "--json"]);
    expect(run.status, run.stderr).toBe(0);
    const { dir } = JSON.parse(run.stdout) as { dir: string };
    const archive = path.join(home, "out.tar.gz");
    const b = cli(["bundle", dir, "-o", archive]);
    expect(b.status, b.stderr).toBe(0);
    expect(b.stdout).toMatch(/, 1 graded runs, unsigned\n$/);
    const v = cli(["verify", archive, "--data-dir", dataDir, "--json"]);
    expect(v.status, v.stderr).toBe(0);
    expect((JSON.parse(v.stdout) as Verdict).runs.map((r) => r.verdict)).toEqual(["reproduced"]);
  }, 300_000);
});
