/**
 * Result bundles: one .tar.gz holding run groups as they are (metadata, manifests, run records,
 * grading reports, submissions, the agents' code and logs) and `bundle.json`, which lists the
 * sha256 of every other file and the table of results the bundle claims. An optional
 * `bundle.sig` signs bundle.json's exact bytes with an ed25519 key, and so, through the hashes,
 * every file. The agents' folders are read as hostile input: no link is followed and every walk
 * is bounded.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.js";
import { describeSkip, openRegular, openUnder, walkUntrusted } from "../io/untrusted.js";
import { TarGzWriter } from "../io/tar.js";
import { buildGroupManifest, manifestPath, writeGroupManifest } from "../results/manifest.js";
import { readGroupMetadata, readRunRecord } from "../results/record.js";

/** The format of bundle.json. */
export const BUNDLE_SCHEMA = "mlebench-bundle/1";
export const BUNDLE_FILE = "bundle.json";
export const SIGNATURE_FILE = "bundle.sig";

/** Files the harness writes in a run dir, bundled when present. */
const RUN_FILES = ["run.json", "manifest.json", "grading_report.json", "run.log", "validation.jsonl", "egress.jsonl"];
/** Folders of a run dir, walked without following links: the agent's three and the harness's snapshots. */
const RUN_DIRS = ["submission", "code", "logs", "snapshots"];
/** Files the harness writes in a group dir. */
const GROUP_FILES = ["metadata.json", "manifest.json"];

/** One run's claimed result, as its run.json and grading report say. */
export const ClaimedRunSchema = z.object({
  group: z.string(),
  run_id: z.string(),
  agent_id: z.string(),
  competition_id: z.string(),
  seed: z.number().int(),
  status: z.string(),
  /** The grading report's path in the bundle, or null when the run was not graded. */
  report: z.string().nullable(),
  /** The submission's path in the bundle, or null when there was none. */
  submission: z.string().nullable(),
  score: z.number().nullable(),
  valid_submission: z.boolean(),
  any_medal: z.boolean(),
  gold_medal: z.boolean(),
  silver_medal: z.boolean(),
  bronze_medal: z.boolean(),
  above_median: z.boolean(),
});
export type ClaimedRun = z.infer<typeof ClaimedRunSchema>;

/** bundle.json. */
export const BundleSchema = z.object({
  schema: z.literal(BUNDLE_SCHEMA),
  created_at: z.string(),
  harness: z.object({ name: z.string(), version: z.string(), commit: z.string().nullable(), modified: z.boolean().nullable() }),
  groups: z.array(z.object({ dir: z.string(), run_group: z.string(), agent_id: z.string() })),
  /** Every other file of the archive: sha256 and size. */
  files: z.record(z.string(), z.object({ sha256: z.string(), bytes: z.number().int() })),
  /** What was left out of the agents' folders, and why (links, devices, limits). */
  skipped: z.array(z.object({ path: z.string(), why: z.string() })),
  runs: z.array(ClaimedRunSchema),
  /** Any-medal % per agent over its graded runs: the table the bundle claims. */
  table: z.array(z.object({ agent_id: z.string(), runs: z.number().int(), medals: z.number().int(), any_medal_pct: z.number() })),
});
export type Bundle = z.infer<typeof BundleSchema>;

/** bundle.sig: an ed25519 signature of bundle.json's bytes. */
export const SignatureSchema = z.object({
  algorithm: z.literal("ed25519"),
  /** The public key, SPKI DER in base64. */
  public_key: z.string(),
  /** sha256 of the public key's DER, hex: how a key is named in messages. */
  key_id: z.string(),
  signature: z.string(),
});
export type Signature = z.infer<typeof SignatureSchema>;

/** Bounds on what a bundle takes from the agents' folders. */
export interface BundleLimits {
  /** Files larger than this are left out (and listed as skipped). */
  maxFileBytes: number;
  /** Entries looked at per walked folder. */
  maxEntries: number;
}

export const DEFAULT_BUNDLE_LIMITS: BundleLimits = { maxFileBytes: 1 << 30, maxEntries: 100_000 };

/** Options of {@link writeBundle}. */
export interface BundleOptions {
  groupDirs: string[];
  output: string;
  harness: Bundle["harness"];
  /** A PEM ed25519 private key file to sign with. */
  signKey?: string;
  limits?: BundleLimits;
  /** Called with each file's archive path as it is added. */
  onFile?: (archivePath: string) => void;
}

/** What {@link writeBundle} wrote. */
export interface BundleResult {
  output: string;
  files: number;
  bytes: number;
  runs: number;
  /** Completed runs without a grading report: in the archive, but not in the claimed table. */
  ungraded: number;
  skipped: number;
  keyId: string | null;
}

/** The ed25519 private key in a PEM file; errors name the file. */
export function readPrivateKey(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(fs.readFileSync(file));
  } catch (e) {
    throw new UserError(`--sign: ${file} is not a readable PEM private key (${(e as Error).message.split("\n")[0]})`);
  }
  if (key.asymmetricKeyType !== "ed25519") throw new UserError(`--sign: ${file} is a ${key.asymmetricKeyType} key; an ed25519 key is needed (openssl genpkey -algorithm ed25519 -out key.pem)`);
  return key;
}

/** An ed25519 public key from a PEM file holding a public or a private key; errors name the file. */
export function readPublicKey(file: string, flag: string): KeyObject {
  let text: Buffer;
  try {
    text = fs.readFileSync(file);
  } catch (e) {
    throw new UserError(`${flag}: cannot read ${file}: ${(e as Error).message}`);
  }
  let key: KeyObject;
  try {
    key = createPublicKey(text);
  } catch (e) {
    throw new UserError(`${flag}: ${file} is not a PEM public or private key (${(e as Error).message.split("\n")[0]})`);
  }
  if (key.asymmetricKeyType !== "ed25519") throw new UserError(`${flag}: ${file} is a ${key.asymmetricKeyType} key; an ed25519 key is needed`);
  return key;
}

/** A key's id: sha256 of its public key's SPKI DER, hex. */
export function keyId(publicKey: KeyObject): string {
  return createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest("hex");
}

/** Sign bundle.json's bytes. */
export function signBundle(bundleBytes: Buffer, privateKey: KeyObject): Signature {
  const pub = createPublicKey(privateKey);
  return {
    algorithm: "ed25519",
    public_key: pub.export({ type: "spki", format: "der" }).toString("base64"),
    key_id: keyId(pub),
    signature: sign(null, bundleBytes, privateKey).toString("base64"),
  };
}

/** Whether `sig` is a valid signature of `bundleBytes` by the key it names; the key is returned for comparison. */
export function checkSignature(bundleBytes: Buffer, sig: Signature): { ok: boolean; key: KeyObject | null } {
  try {
    const key = createPublicKey({ key: Buffer.from(sig.public_key, "base64"), format: "der", type: "spki" });
    if (key.asymmetricKeyType !== "ed25519" || keyId(key) !== sig.key_id) return { ok: false, key: null };
    return { ok: verify(null, bundleBytes, key, Buffer.from(sig.signature, "base64")), key };
  } catch {
    return { ok: false, key: null };
  }
}

/** A group's dir name in the archive, made unique among the bundle's groups. */
function archiveDirs(groupDirs: string[]): string[] {
  const used = new Set<string>();
  return groupDirs.map((d) => {
    const base = path.basename(path.resolve(d));
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}-${i}`;
    used.add(name);
    return name;
  });
}

/** Any-medal % per agent over the graded runs. */
export function claimedTable(runs: ClaimedRun[]): Bundle["table"] {
  const by = new Map<string, { runs: number; medals: number }>();
  for (const r of runs) {
    const a = by.get(r.agent_id) ?? { runs: 0, medals: 0 };
    a.runs++;
    if (r.any_medal) a.medals++;
    by.set(r.agent_id, a);
  }
  return [...by.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([agent_id, a]) => ({ agent_id, runs: a.runs, medals: a.medals, any_medal_pct: a.runs === 0 ? 0 : Math.round((a.medals / a.runs) * 1e6) / 1e4 }));
}

/**
 * Write a bundle of `groupDirs` to `output` (.tar.gz): each file with its hash in bundle.json,
 * bundle.json itself, and bundle.sig when a key is given. The archive is written under a temporary
 * name and renamed, so a failed bundle leaves nothing at `output`.
 */
export async function writeBundle(opts: BundleOptions): Promise<BundleResult> {
  const limits = opts.limits ?? DEFAULT_BUNDLE_LIMITS;
  const signer = opts.signKey !== undefined ? readPrivateKey(opts.signKey) : null;
  if (opts.groupDirs.length === 0) throw new UserError("bundle: name at least one run group dir");
  const groups = opts.groupDirs.map((dir) => {
    let meta;
    try {
      meta = readGroupMetadata(dir);
    } catch (e) {
      throw new UserError(`bundle: ${(e as Error).message}`);
    }
    if (!meta) throw new UserError(`bundle: ${path.join(dir, "metadata.json")} is missing (expected a run group dir made by mlebench run)`);
    // Groups run through a queue, or pulled from a store, may have none yet: it follows from the runs' manifests.
    if (!fs.existsSync(manifestPath(dir))) writeGroupManifest(dir, buildGroupManifest(dir, meta, opts.harness));
    return { dir: path.resolve(dir), meta };
  });
  const names = archiveDirs(groups.map((g) => g.dir));
  const output = path.resolve(opts.output);
  if (fs.existsSync(output) && fs.statSync(output).isDirectory()) throw new UserError(`-o: ${output} is a folder; name the .tar.gz file to write`);
  fs.mkdirSync(path.dirname(output), { recursive: true });
  const tmp = `${output}.${process.pid}.tmp`;
  fs.rmSync(tmp, { force: true });
  const tar = new TarGzWriter(tmp);
  const files: Bundle["files"] = {};
  const skipped: Bundle["skipped"] = [];
  const runs: ClaimedRun[] = [];
  let bytes = 0;
  let ungraded = 0;
  const addOpened = async (archivePath: string, opened: { fd: number; size: number }) => {
    try {
      const sha256 = await tar.addFd(archivePath, opened.fd, opened.size);
      files[archivePath] = { sha256, bytes: opened.size };
      bytes += opened.size;
      opts.onFile?.(archivePath);
    } finally {
      fs.closeSync(opened.fd);
    }
  };
  try {
    for (const [i, g] of groups.entries()) {
      const name = names[i];
      for (const f of GROUP_FILES) {
        const opened = openRegular(path.join(g.dir, f));
        if ("fd" in opened) await addOpened(`${name}/${f}`, opened);
      }
      for (const t of g.meta.tasks) {
        const runDir = path.join(g.dir, t.run_id);
        const prefix = `${name}/${t.run_id}`;
        for (const f of RUN_FILES) {
          const opened = openUnder(g.dir, `${t.run_id}/${f}`);
          if ("fd" in opened) await addOpened(`${prefix}/${f}`, opened);
        }
        for (const d of RUN_DIRS) {
          const walk = walkUntrusted(path.join(runDir, d), { maxEntries: limits.maxEntries });
          for (const s of walk.skipped) if (s.rel !== "." || s.why !== "missing") skipped.push({ path: `${prefix}/${d}/${s.rel}`, why: describeSkip(s.why) });
          if (walk.skippedMore > 0) skipped.push({ path: `${prefix}/${d}`, why: `${walk.skippedMore} more entries skipped` });
          for (const f of walk.files) {
            const archivePath = `${prefix}/${d}/${f.rel}`;
            if (f.size > limits.maxFileBytes) {
              skipped.push({ path: archivePath, why: `larger than ${limits.maxFileBytes} bytes, left out` });
              continue;
            }
            const opened = openUnder(runDir, `${d}/${f.rel}`);
            if ("fd" in opened) await addOpened(archivePath, opened);
            else skipped.push({ path: archivePath, why: describeSkip(opened.skipped) });
          }
        }
        const record = readRunRecord(runDir);
        if (!record?.grading) {
          if (record?.status === "completed") ungraded++;
          continue;
        }
        const reportPath = `${prefix}/grading_report.json`;
        const report = readBundledReport(path.join(runDir, "grading_report.json"));
        const submissionPath = `${prefix}/submission/submission.csv`;
        runs.push({
          group: name,
          run_id: t.run_id,
          agent_id: g.meta.agent_id,
          competition_id: t.competition_id,
          seed: t.seed,
          status: record.status,
          report: files[reportPath] ? reportPath : null,
          submission: files[submissionPath] ? submissionPath : null,
          score: report?.score ?? record.grading.score,
          valid_submission: report?.valid_submission ?? record.grading.valid_submission,
          any_medal: report?.any_medal ?? record.grading.any_medal,
          gold_medal: report?.gold_medal ?? false,
          silver_medal: report?.silver_medal ?? false,
          bronze_medal: report?.bronze_medal ?? false,
          above_median: report?.above_median ?? false,
        });
      }
    }
    const bundle: Bundle = {
      schema: BUNDLE_SCHEMA,
      created_at: new Date().toISOString(),
      harness: opts.harness,
      groups: groups.map((g, i) => ({ dir: names[i], run_group: g.meta.run_group, agent_id: g.meta.agent_id })),
      files,
      skipped,
      runs,
      table: claimedTable(runs),
    };
    const bundleBytes = Buffer.from(JSON.stringify(bundle, null, 2) + "\n");
    await tar.addBuffer(BUNDLE_FILE, bundleBytes);
    let keyIdText: string | null = null;
    if (signer) {
      const sig = signBundle(bundleBytes, signer);
      keyIdText = sig.key_id;
      await tar.addBuffer(SIGNATURE_FILE, Buffer.from(JSON.stringify(sig, null, 2) + "\n"));
    }
    await tar.finish();
    fs.renameSync(tmp, output);
    return { output, files: Object.keys(files).length, bytes, runs: runs.length, ungraded, skipped: skipped.length, keyId: keyIdText };
  } catch (e) {
    await tar.abort();
    throw e;
  }
}

/** The grading report fields a claim is made of. */
const ReportClaimSchema = ClaimedRunSchema.pick({
  score: true,
  valid_submission: true,
  any_medal: true,
  gold_medal: true,
  silver_medal: true,
  bronze_medal: true,
  above_median: true,
})
  .extend({ disqualified_reason: z.string().nullable().optional() })
  .passthrough();
export type ReportClaim = z.infer<typeof ReportClaimSchema>;

/** A grading report's claim fields, or null when the file is missing or not a report. */
export function readBundledReport(file: string): ReportClaim | null {
  try {
    return ReportClaimSchema.parse(JSON.parse(fs.readFileSync(file, "utf8")));
  } catch {
    return null;
  }
}
