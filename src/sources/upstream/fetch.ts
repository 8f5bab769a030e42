/**
 * Fetches the per-competition metadata upstream MLE-bench keeps in its repository
 * (descriptions, checksums, kernel list, leaderboard) at a pinned commit, and caches it in the
 * data dir so grading and preparation work offline afterwards.
 *
 * Cache layout: <dataDir>/<id>/upstream/<commit>/<name>. Beside an LFS-backed file sits a
 * hidden ".<name>.lfs-pointer" holding its pointer, so a cached copy can be re-verified
 * without the network; beside an optional file upstream lacks sits ".<name>.absent".
 */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../../core/errors.js";
import { writeFileAtomic } from "../../core/atomic.js";
import { withRetries } from "../../core/retry.js";
import {
  DEFAULT_TIMEOUT_MS,
  fileMatchesLfsPointer,
  looksLikeLfsPointer,
  parseLfsPointer,
  readBody,
  resolveLfsObject,
  upstreamRequest,
  UpstreamFetchError,
  type LfsPointer,
} from "./lfs.js";

/** The GitHub repository the metadata comes from. */
export const UPSTREAM_REPO = "openai/mle-bench";

/** Pinned so a benchmark run always grades against the same leaderboards and checksums. */
export const UPSTREAM_COMMIT = "783b15af77404fbaffe7255b0c4a934b46153389";

/** Every metadata file kept per competition under mlebench/competitions/<id>/ upstream. */
export const UPSTREAM_FILES = [
  "description.md",
  "description_obfuscated.md",
  "checksums.yaml",
  "kernels.txt",
  "leaderboard.csv",
] as const;

/** One of {@link UPSTREAM_FILES}. */
export type UpstreamFileName = (typeof UPSTREAM_FILES)[number];

/** Without these a competition cannot be prepared or graded; the others are nice to have. */
export const REQUIRED_UPSTREAM_FILES: readonly UpstreamFileName[] = ["description.md", "checksums.yaml", "leaderboard.csv"];

/** Where to fetch from and how hard to try. */
export interface UpstreamFetchOptions {
  dataDir: string;
  /** Default: env MLEBENCH_UPSTREAM_COMMIT, else {@link UPSTREAM_COMMIT}. */
  commit?: string;
  /** Default: env MLEBENCH_UPSTREAM_RAW_URL, else https://raw.githubusercontent.com. */
  rawBaseUrl?: string;
  /** Default: env MLEBENCH_UPSTREAM_LFS_URL, else https://github.com. */
  lfsBaseUrl?: string;
  /** Extra attempts after a 429, 5xx or network failure (default 3). */
  retries?: number;
  /** Wait before the first retry, doubling each time (default 500 ms). */
  backoffMs?: number;
  /** Per-request limit (default 60 s). */
  timeoutMs?: number;
}

/** A file that is on disk now. */
export interface UpstreamFileFetched {
  ok: true;
  path: string;
  fromCache: boolean;
}

/** A file that could not be had; `absent` when upstream simply has no such file (HTTP 404). */
export interface UpstreamFileFailed {
  ok: false;
  absent: boolean;
  error: string;
}

/** The outcome for one metadata file. */
export type UpstreamFileResult = UpstreamFileFetched | UpstreamFileFailed;

/** What {@link fetchUpstreamMetadata} got, file by file. */
export interface UpstreamMetadata {
  competitionId: string;
  commit: string;
  /** The cache directory the files are in. */
  dir: string;
  files: Record<UpstreamFileName, UpstreamFileResult>;
}

const DEFAULT_RAW_URL = "https://raw.githubusercontent.com";
const DEFAULT_LFS_URL = "https://github.com";
const DEFAULT_RETRIES = 3;
const DEFAULT_BACKOFF_MS = 500;
// A server's Retry-After is honoured, but not to the point of looking hung.
const MAX_WAIT_MS = 60_000;

// Both end up in URLs and in paths under the data dir, so nothing that could climb out.
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function checkSegment(value: string, what: string): void {
  if (!SAFE_NAME.test(value) || value.includes("..")) {
    throw new UserError(`Invalid ${what} ${JSON.stringify(value)}: expected letters, digits, ".", "_" or "-".`);
  }
}

/** The commit to fetch: the option, then MLEBENCH_UPSTREAM_COMMIT, then the pinned one. */
export function resolveUpstreamCommit(commit?: string): string {
  const fromEnv = process.env.MLEBENCH_UPSTREAM_COMMIT;
  const value = commit || fromEnv || UPSTREAM_COMMIT;
  checkSegment(value, !commit && fromEnv ? "MLEBENCH_UPSTREAM_COMMIT" : "upstream commit");
  return value;
}

/** The cache directory of one competition's metadata at one commit. */
export function upstreamCacheDir(dataDir: string, competitionId: string, commit?: string): string {
  checkSegment(competitionId, "competition id");
  return path.join(dataDir, competitionId, "upstream", resolveUpstreamCommit(commit));
}

function baseUrl(option: string | undefined, env: string, fallback: string): string {
  return (option || process.env[env] || fallback).replace(/\/+$/, "");
}

/** The raw-host URL of one upstream metadata file. */
export function upstreamFileUrl(
  competitionId: string,
  name: string,
  opts: { commit?: string; rawBaseUrl?: string } = {},
): string {
  const raw = baseUrl(opts.rawBaseUrl, "MLEBENCH_UPSTREAM_RAW_URL", DEFAULT_RAW_URL);
  return `${raw}/${UPSTREAM_REPO}/${resolveUpstreamCommit(opts.commit)}/mlebench/competitions/${competitionId}/${name}`;
}

/** Runs `attempt` again after transient failures, with exponential backoff. */
function retrying<T>(attempt: () => Promise<T>, retries: number, backoffMs: number): Promise<T> {
  return withRetries(
    attempt,
    { retries, backoffMs, maxDelayMs: MAX_WAIT_MS, jitter: false },
    {
      classify: (err) => (err instanceof UpstreamFetchError && err.retryable ? { retryAfterMs: err.retryAfterMs ?? null } : null),
      notRetryable: (err) => err,
      exhausted: (err, attempts) => {
        const e = err as UpstreamFetchError;
        if (attempts === 1) return e;
        return new UpstreamFetchError(e.kind, e.url, `${e.reason} (gave up after ${attempts} attempts)`, { status: e.status, retryable: true });
      },
    },
  );
}

function sidecar(file: string, suffix: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${suffix}`);
}

/** The pointer recorded beside a cached LFS object: undefined if none, null if unreadable. */
function readRecordedPointer(file: string): LfsPointer | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return null;
  }
  return parseLfsPointer(text);
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function offlineHint(competitionId: string): string {
  return `The upstream metadata can be fetched later, once online, with \`mlebench prepare -c ${competitionId}\`.`;
}

/**
 * Fetch one upstream metadata file into the cache (resolving Git LFS pointers) and return its
 * path; throws UpstreamFetchError (a UserError) naming the URL and the cause.
 */
export async function fetchUpstreamFile(
  competitionId: string,
  name: string,
  opts: UpstreamFetchOptions,
): Promise<{ path: string; fromCache: boolean }> {
  checkSegment(competitionId, "competition id");
  for (const part of name.split("/")) checkSegment(part, "upstream file name");
  const commit = resolveUpstreamCommit(opts.commit);
  const url = upstreamFileUrl(competitionId, name, { commit, rawBaseUrl: opts.rawBaseUrl });
  const dest = path.join(upstreamCacheDir(opts.dataDir, competitionId, commit), name);
  const pointerFile = sidecar(dest, "lfs-pointer");

  if (isFile(dest)) {
    const recorded = readRecordedPointer(pointerFile);
    // Plain files have nothing to check against; LFS objects do, and a damaged one is refetched.
    if (recorded === undefined) return { path: dest, fromCache: true };
    if (recorded && (await fileMatchesLfsPointer(dest, recorded))) return { path: dest, fromCache: true };
  }

  const retries = opts.retries ?? DEFAULT_RETRIES;
  const backoffMs = opts.backoffMs ?? DEFAULT_BACKOFF_MS;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    const body = await retrying(
      async () => readBody(await upstreamRequest(url, { timeoutMs }), url, timeoutMs),
      retries,
      backoffMs,
    );
    // Pointers are tiny; decoding a large body just to look at its first line would be waste.
    const head = body.length <= 1024 ? body.toString("utf8") : "";
    const pointer = looksLikeLfsPointer(head) ? parseLfsPointer(head) : undefined;
    if (pointer === null) {
      throw new UpstreamFetchError("invalid", url, "looks like a Git LFS pointer but lacks a valid sha256 oid and size");
    }
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    if (pointer) {
      // Pointer first: if we die before the object lands, the next run simply refetches it.
      writeFileAtomic(pointerFile, head);
      const lfsBaseUrl = baseUrl(opts.lfsBaseUrl, "MLEBENCH_UPSTREAM_LFS_URL", DEFAULT_LFS_URL);
      const data = await retrying(
        () => resolveLfsObject(pointer, { lfsBaseUrl, repo: UPSTREAM_REPO, timeoutMs }),
        retries,
        backoffMs,
      );
      writeFileAtomic(dest, data);
    } else {
      fs.rmSync(pointerFile, { force: true });
      writeFileAtomic(dest, body);
    }
    return { path: dest, fromCache: false };
  } catch (err) {
    if (!(err instanceof UpstreamFetchError)) throw err;
    // An error from the LFS host carries its own URL; keep it beside the raw one.
    const fromRaw = err.url === url;
    // Only a 404 for the file itself means upstream lacks it; one from the LFS host is a fault.
    const kind = err.kind === "not-found" && !fromRaw ? "http" : err.kind;
    const reason = kind === "not-found" ? `absent upstream (${err.reason})` : fromRaw ? err.reason : `${err.url}: ${err.reason}`;
    let message = `Could not fetch upstream ${name} for ${competitionId} from ${url}: ${reason}`;
    if (kind === "network") message += `. ${offlineHint(competitionId)}`;
    throw new UpstreamFetchError(kind, url, reason, { status: err.status, retryable: err.retryable, message });
  }
}

/**
 * Fetch every file in {@link UPSTREAM_FILES}; optional ones may fail (recorded per file), a
 * required one failing throws a UserError that names each URL and cause.
 */
export async function fetchUpstreamMetadata(competitionId: string, opts: UpstreamFetchOptions): Promise<UpstreamMetadata> {
  const commit = resolveUpstreamCommit(opts.commit);
  const dir = upstreamCacheDir(opts.dataDir, competitionId, commit);
  const required = new Set<UpstreamFileName>(REQUIRED_UPSTREAM_FILES);

  const results = await Promise.all(
    UPSTREAM_FILES.map(async (name): Promise<[UpstreamFileName, UpstreamFileResult, boolean]> => {
      const file = path.join(dir, name);
      // Content at a commit never changes, so a 404 remembered from before still holds; this
      // keeps later offline runs from spending their retries on files that do not exist.
      if (!required.has(name) && !isFile(file) && fs.existsSync(sidecar(file, "absent"))) {
        const url = upstreamFileUrl(competitionId, name, { commit, rawBaseUrl: opts.rawBaseUrl });
        return [name, { ok: false, absent: true, error: `absent upstream (${url}: HTTP 404, remembered)` }, false];
      }
      try {
        const got = await fetchUpstreamFile(competitionId, name, { ...opts, commit });
        return [name, { ok: true, ...got }, false];
      } catch (err) {
        if (err instanceof UpstreamFetchError) {
          const absent = err.kind === "not-found";
          return [name, { ok: false, absent, error: `${err.url}: ${err.reason}` }, err.kind === "network"];
        }
        return [name, { ok: false, absent: false, error: err instanceof Error ? err.message : String(err) }, false];
      }
    }),
  );

  const files = Object.fromEntries(results.map(([name, r]) => [name, r])) as Record<UpstreamFileName, UpstreamFileResult>;
  const failed = results.filter(([name, r]) => required.has(name) && !r.ok);
  if (failed.length > 0) {
    const lines = failed.map(([name, r]) => `  - ${name}: ${(r as UpstreamFileFailed).error}`);
    const offline = failed.some(([, , network]) => network);
    throw new UserError(
      `Could not fetch the upstream metadata of ${competitionId} (${UPSTREAM_REPO} at ${commit}):\n${lines.join("\n")}` +
        (offline ? `\n${offlineHint(competitionId)}` : ""),
    );
  }
  // Only now is it certain the competition exists upstream, so only now are 404s worth remembering.
  for (const [name, r] of results) {
    if (!r.ok && r.absent) writeFileAtomic(sidecar(path.join(dir, name), "absent"), "");
  }
  return { competitionId, commit, dir, files };
}
