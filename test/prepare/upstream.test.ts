import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Competition } from "../../src/core/competition.js";
import { competitionPaths } from "../../src/core/paths.js";
import { md5File } from "../../src/prepare/prepare.js";
import { checksumsYaml, prepareUpstream, type FlatChecksums, type UpstreamDeps } from "../../src/prepare/upstream.js";
import { parseChecksumsYaml } from "../../src/sources/upstream/index.js";
import { tempDir } from "../helpers/data-dir.js";

const TRAIN = "id,x,y\n" + Array.from({ length: 10 }, (_, i) => `${i},${i * 2},${i % 2}`).join("\n") + "\n";

/** A toy competition whose preparer splits raw/train.csv 7/3, as an upstream preparer would. */
function toy(fail = false): Competition {
  return {
    id: "toy-comp",
    name: "Toy",
    type: "simple",
    metric: "accuracy",
    answers: "test.csv",
    sampleSubmission: "sample_submission.csv",
    grader: async () => ({ grade: () => 0 }),
    upstream: async () => ({
      prepare({ raw, public: pub, private: priv }) {
        const lines = fs.readFileSync(path.join(raw, "train.csv"), "utf8").trim().split("\n");
        if (fail) throw new Error("preparer crashed");
        fs.writeFileSync(path.join(pub, "train.csv"), lines.slice(0, 8).join("\n") + "\n");
        fs.writeFileSync(path.join(pub, "test.csv"), [lines[0], ...lines.slice(8).map((l) => l.split(",").slice(0, 2).join(","))].join("\n") + "\n");
        fs.writeFileSync(path.join(pub, "sample_submission.csv"), "id,y\n7,0\n8,0\n9,0\n");
        fs.writeFileSync(path.join(priv, "test.csv"), "id,y\n" + lines.slice(8).map((l) => `${l.split(",")[0]},${l.split(",")[2]}`).join("\n") + "\n");
      },
    }),
  };
}

function makeZip(file: string): void {
  // A fixed member date keeps the zip's bytes, and so its md5, the same on every run.
  const script = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1], 'w')\nz.writestr(zipfile.ZipInfo('train.csv', (2020, 1, 1, 0, 0, 0)), sys.argv[2])\nz.close()";
  execFileSync("/usr/bin/python3", ["-c", script, file, TRAIN]);
}

/** Deps standing in for Kaggle and upstream: a zip built on demand and given metadata. */
function deps(over: Partial<{ checksums: FlatChecksums | null; problems: string[]; description: string | null }> = {}) {
  const calls = { download: 0 };
  const dir = tempDir();
  const leaderboard = path.join(dir, "leaderboard.csv");
  fs.writeFileSync(leaderboard, "teamName,score\na,0.9\nb,0.5\n");
  const d: UpstreamDeps = {
    async metadata() {
      return {
        description: over.description === undefined ? "# Toy\n" : over.description,
        checksums: over.checksums ?? null,
        leaderboard: over.problems ? null : leaderboard,
        problems: over.problems ?? [],
      };
    },
    async download(_id, dest) {
      calls.download++;
      makeZip(dest);
    },
  };
  return { d, calls };
}

describe("prepareUpstream", () => {
  it("downloads, extracts, prepares, writes description and leaderboard, and records checksums", async () => {
    const dataDir = tempDir();
    const { d, calls } = deps();
    const r = await prepareUpstream(toy(), dataDir, d, { overwriteChecksums: true });
    expect(r).toEqual({ id: "toy-comp", status: "prepared", warnings: [] });
    const p = competitionPaths(dataDir, "toy-comp");
    expect(calls.download).toBe(1);
    expect(fs.readdirSync(p.public).sort()).toEqual(["description.md", "sample_submission.csv", "test.csv", "train.csv"]);
    expect(fs.readFileSync(path.join(p.public, "description.md"), "utf8")).toBe("# Toy\n");
    expect(fs.readFileSync(path.join(p.private, "test.csv"), "utf8")).toBe("id,y\n7,1\n8,0\n9,1\n");
    expect(fs.readFileSync(p.leaderboard, "utf8")).toBe("teamName,score\na,0.9\nb,0.5\n");
    expect(fs.existsSync(p.raw)).toBe(false); // not --keep-raw
    const recorded = parseChecksumsYaml(fs.readFileSync(p.checksums, "utf8"), p.checksums);
    expect(Object.keys(recorded).sort()).toEqual(["private/test.csv", "public/sample_submission.csv", "public/test.csv", "public/train.csv", "zip"]);
    expect(recorded["private/test.csv"]).toBe(md5File(path.join(p.private, "test.csv")));
    expect(recorded.zip).toBe(md5File(path.join(p.root, "toy-comp.zip")));
  });

  it("verifies against upstream's checksums, with a readable diff on mismatch", async () => {
    const dataDir = tempDir();
    await prepareUpstream(toy(), dataDir, deps().d, { overwriteChecksums: true, keepRaw: true });
    const p = competitionPaths(dataDir, "toy-comp");
    const good = parseChecksumsYaml(fs.readFileSync(p.checksums, "utf8"), p.checksums);
    fs.rmSync(p.checksums);
    expect((await prepareUpstream(toy(), dataDir, deps({ checksums: good }).d, {})).status).toBe("prepared");
    fs.rmSync(p.checksums, { force: true });
    const bad = { ...good, "private/test.csv": "0".repeat(32) };
    await expect(prepareUpstream(toy(), tempDir(), deps({ checksums: bad }).d, {})).rejects.toThrow(
      `Checksums of the prepared files of "toy-comp" do not match (- expected, + actual):\n- private/test.csv: ${"0".repeat(32)}\n+ private/test.csv: ${good["private/test.csv"]}`,
    );
    await expect(prepareUpstream(toy(), tempDir(), deps({ checksums: { ...good, zip: "f".repeat(32) } }).d, {})).rejects.toThrow(
      /Checksum of .*toy-comp\.zip does not match: expected f{32}, got [0-9a-f]{32}\. Delete it and prepare again\./,
    );
  });

  it("uses hand-unpacked raw/ without downloading; offline metadata becomes warnings", async () => {
    const dataDir = tempDir();
    const p = competitionPaths(dataDir, "toy-comp");
    fs.mkdirSync(p.raw, { recursive: true });
    fs.writeFileSync(path.join(p.raw, "train.csv"), TRAIN);
    const { d, calls } = deps({ problems: ["upstream leaderboard.csv unavailable (network unreachable)"], description: null });
    const r = await prepareUpstream(toy(), dataDir, d, { skipVerification: true, keepRaw: true });
    expect(calls.download).toBe(0);
    expect(r.warnings).toEqual([
      "upstream leaderboard.csv unavailable (network unreachable); fetch it later with: mlebench prepare -c toy-comp",
      "public/description.md was not written (upstream description unavailable); fetch it later with: mlebench prepare -c toy-comp",
    ]);
    expect(fs.readdirSync(p.private)).toEqual(["test.csv"]);
    expect(fs.existsSync(path.join(p.raw, "train.csv"))).toBe(true);
  });

  it("does not compare the md5 of a file the competition marks unverifiable, and says so", async () => {
    const dataDir = tempDir();
    await prepareUpstream(toy(), dataDir, deps().d, { overwriteChecksums: true, keepRaw: true });
    const p = competitionPaths(dataDir, "toy-comp");
    const good = parseChecksumsYaml(fs.readFileSync(p.checksums, "utf8"), p.checksums);
    const other = { ...good, "public/train.csv": "0".repeat(32) };
    const marked = toy();
    const spec = await marked.upstream!();
    marked.upstream = async () => ({ ...spec, unverifiable: ["public/train.csv"] });
    const r = await prepareUpstream(marked, tempDir(), deps({ checksums: other }).d, {});
    expect(r.status).toBe("prepared");
    expect(r.warnings).toContain("public/train.csv: not compared with upstream's checksum (same content, different bytes; see the competition's README.md)");
    // Every other file is still checked.
    await expect(prepareUpstream(marked, tempDir(), deps({ checksums: { ...other, "public/test.csv": "1".repeat(32) } }).d, {})).rejects.toThrow(
      /do not match[^]*public\/test\.csv/,
    );
  });

  it("without checksums and without --skip-verification it stops and says why", async () => {
    await expect(prepareUpstream(toy(), tempDir(), deps({ problems: ["checksums.yaml unavailable"] }).d, {})).rejects.toThrow(
      `No checksums for "toy-comp" (upstream's checksums.yaml could not be fetched); run again online, or pass --skip-verification`,
    );
  });

  it("a crashed preparer leaves nothing that looks prepared; a rerun finishes", async () => {
    const dataDir = tempDir();
    const p = competitionPaths(dataDir, "toy-comp");
    await expect(prepareUpstream(toy(true), dataDir, deps().d, { skipVerification: true, keepRaw: true })).rejects.toThrow("preparer crashed");
    expect(fs.existsSync(p.public)).toBe(false);
    expect(fs.existsSync(p.private)).toBe(false);
    const r = await prepareUpstream(toy(), dataDir, deps().d, { skipVerification: true });
    expect(r.status).toBe("prepared");
    expect(fs.existsSync(path.join(p.public, "train.csv"))).toBe(true);
  });

  it("names competitions whose preparer is not written yet", async () => {
    const c = { ...toy(), upstream: undefined };
    const { d, calls } = deps();
    await expect(prepareUpstream(c, tempDir(), d, { skipVerification: true, keepRaw: true })).rejects.toThrow(
      'The preparer of "toy-comp" is not implemented yet, so its public/private split cannot be made (nothing was downloaded); see mlebench list --all for what can be prepared',
    );
    expect(calls.download).toBe(0);
  });

  it("writes checksums.yaml in upstream's nested shape", () => {
    expect(checksumsYaml({ zip: "a".repeat(32), "public/train.csv": "b".repeat(32), "private/test.csv": "c".repeat(32) })).toBe(
      `private:\n  test.csv: ${"c".repeat(32)}\npublic:\n  train.csv: ${"b".repeat(32)}\nzip: ${"a".repeat(32)}\n`,
    );
  });
});

describe("prepareUpstream over HTTP (fake Kaggle and fake upstream on loopback)", () => {
  it("fetches metadata (leaderboard through Git LFS), downloads the zip with credentials, verifies and prepares", async () => {
    const { startFakeServer } = await import("../helpers/fake-kaggle.js");
    const { startFakeUpstream } = await import("../helpers/fake-upstream.js");
    const { realUpstreamDeps } = await import("../../src/prepare/upstream-deps.js");
    const zipDir = tempDir();
    const zip = path.join(zipDir, "toy.zip");
    makeZip(zip);
    const zipBytes = fs.readFileSync(zip);

    // First pass with recorded checksums, to learn what upstream's checksums.yaml would say.
    const learn = tempDir();
    await prepareUpstream(toy(), learn, deps().d, { overwriteChecksums: true, keepRaw: true });
    const checksums = fs.readFileSync(competitionPaths(learn, "toy-comp").checksums, "utf8").replace(
      /zip: [0-9a-f]{32}/,
      `zip: ${md5File(zip)}`,
    );

    const kaggle = await startFakeServer();
    const upstream = await startFakeUpstream();
    kaggle.on("/api/v1/competitions/data/download-all/toy-comp", (_req, res) => {
      res.writeHead(200, { "content-length": String(zipBytes.length) });
      res.end(zipBytes);
    });
    upstream.setRaw("toy-comp", "description.md", "# Toy from upstream\n");
    upstream.setRaw("toy-comp", "checksums.yaml", checksums);
    upstream.setLfs("toy-comp", "leaderboard.csv", "teamName,score\nx,0.9\n");
    const env = { MLEBENCH_KAGGLE_API_URL: `${kaggle.origin}/api/v1`, KAGGLE_USERNAME: "alice", KAGGLE_KEY: "sekret-key" };
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const dataDir = tempDir();
      const d = realUpstreamDeps(dataDir, { upstream: { rawBaseUrl: upstream.rawUrl, lfsBaseUrl: upstream.lfsUrl, backoffMs: 1 } });
      const r = await prepareUpstream(toy(), dataDir, d, {});
      expect(r).toEqual({ id: "toy-comp", status: "prepared", warnings: [] });
      const p = competitionPaths(dataDir, "toy-comp");
      expect(fs.readFileSync(path.join(p.public, "description.md"), "utf8")).toBe("# Toy from upstream\n");
      expect(fs.readFileSync(p.leaderboard, "utf8")).toBe("teamName,score\nx,0.9\n");
      const auth = kaggle.requestsTo("/api/v1/competitions/data/download-all/toy-comp")[0].headers.authorization;
      expect(auth).toBe(`Basic ${Buffer.from("alice:sekret-key").toString("base64")}`);
      expect(upstream.count("lfs")).toBe(2); // batch + object
    } finally {
      process.env = saved;
      await kaggle.close();
      await upstream.close();
    }
  });

  it("offline with hand-unpacked raw/ and --skip-verification: prepared, metadata reported as warnings", async () => {
    const { closedPortUrl } = await import("../helpers/fake-upstream.js");
    const { realUpstreamDeps } = await import("../../src/prepare/upstream-deps.js");
    const dataDir = tempDir();
    const p = competitionPaths(dataDir, "toy-comp");
    fs.mkdirSync(p.raw, { recursive: true });
    fs.writeFileSync(path.join(p.raw, "train.csv"), TRAIN);
    const dead = await closedPortUrl();
    const d = realUpstreamDeps(dataDir, { upstream: { rawBaseUrl: dead, lfsBaseUrl: dead, retries: 0 } });
    const r = await prepareUpstream(toy(), dataDir, d, { skipVerification: true });
    expect(r.status).toBe("prepared");
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[0]).toMatch(/description\.md/);
    expect(r.warnings[0]).toMatch(/fetch it later with: mlebench prepare -c toy-comp$/);
    expect(fs.readdirSync(p.private)).toEqual(["test.csv"]);
    expect(fs.existsSync(p.leaderboard)).toBe(false);
  });
});

describe("prepareUpstream guards", () => {
  it("refuses a preparer that copies the answers into public/", async () => {
    const leaky = toy();
    const inner = (await leaky.upstream!()).prepare;
    leaky.upstream = async () => ({
      async prepare(ctx) {
        await inner(ctx);
        fs.copyFileSync(path.join(ctx.private, "test.csv"), path.join(ctx.public, "labels.csv"));
      },
    });
    const dataDir = tempDir();
    await expect(prepareUpstream(leaky, dataDir, deps().d, { skipVerification: true })).rejects.toThrow(
      'The preparer of "toy-comp" put a copy of the private answers in public/ (labels.csv); refusing to publish it',
    );
    expect(fs.existsSync(competitionPaths(dataDir, "toy-comp").public)).toBe(false);
  });

  it("asks to accept the competition's rules and retries the download once accepted", async () => {
    const { startFakeServer } = await import("../helpers/fake-kaggle.js");
    const { realUpstreamDeps } = await import("../../src/prepare/upstream-deps.js");
    const zip = path.join(tempDir(), "toy.zip");
    makeZip(zip);
    const bytes = fs.readFileSync(zip);
    const kaggle = await startFakeServer();
    kaggle.on("/api/v1/competitions/data/download-all/toy-comp", (_req, res, hit) => {
      if (hit === 1) {
        res.writeHead(403, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: 403, message: "You must accept this competition's rules before you'll be able to download files." }));
        return;
      }
      res.writeHead(200, { "content-length": String(bytes.length) });
      res.end(bytes);
    });
    const saved = { ...process.env };
    Object.assign(process.env, { KAGGLE_USERNAME: "alice", KAGGLE_KEY: "test-key-123" });
    const asked: string[] = [];
    try {
      const dest = path.join(tempDir(), "dl.zip");
      const d = realUpstreamDeps(tempDir(), {
        kaggle: { baseUrl: `${kaggle.origin}/api/v1`, backoffMs: 1 },
        onRulesRequired: async (url) => {
          asked.push(url);
          return true;
        },
      });
      await d.download("toy-comp", dest);
      expect(asked).toEqual(["https://www.kaggle.com/c/toy-comp/rules"]);
      expect(fs.readFileSync(dest)).toEqual(bytes);
      const refuse = realUpstreamDeps(tempDir(), { kaggle: { baseUrl: `${kaggle.origin}/api/v1`, backoffMs: 1 }, onRulesRequired: async () => false });
      kaggle.reset();
      kaggle.on("/api/v1/competitions/data/download-all/toy-comp", (_req, res) => {
        res.writeHead(403, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "You must accept this competition's rules" }));
      });
      await expect(refuse.download("toy-comp", path.join(tempDir(), "x.zip"))).rejects.toThrow(
        "You must accept this competition's rules before downloading: https://www.kaggle.com/c/toy-comp/rules",
      );
    } finally {
      process.env = saved;
      await kaggle.close();
    }
  });
});
