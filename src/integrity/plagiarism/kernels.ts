/**
 * Reference code for plagiarism checks: the top public Kaggle kernels upstream MLE-bench lists per
 * competition (kernels.txt, one "owner/slug" a line), downloaded into
 * <data-dir>/<competition>/kernels/<owner>__<slug>.<ext>. Notebooks are stored as their code cells
 * only, so every kernel is a plain script Dolos can read.
 */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../../core/errors.js";
import { writeFileAtomic } from "../../core/atomic.js";
import { withRetries } from "../../core/retry.js";
import { DEFAULT_KAGGLE_API_URL, KaggleError } from "../../sources/kaggle/client.js";
import { authHeader, describeAuth, loadKaggleCredentials, missingCredentialsMessage, secretsOf, type KaggleAuth } from "../../sources/kaggle/credentials.js";
import { fetchBuffer, HttpStatusError, TransferError } from "../../sources/kaggle/download.js";
import { fetchUpstreamFile, type UpstreamFetchOptions } from "../../sources/upstream/fetch.js";
import { dolosLanguageOfNotebook, extensionOf } from "./languages.js";
import { notebookToScript } from "./notebook.js";

/** A Kaggle kernel named as on kaggle.com/code/<owner>/<slug>. */
export interface KernelRef {
  owner: string;
  slug: string;
}

// Both parts become a file name, so nothing that could climb out of the kernels folder.
const SAFE_PART = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** "owner/slug" for messages and results. */
export function kernelRefText(ref: KernelRef): string {
  return `${ref.owner}/${ref.slug}`;
}

/** Parse a kernels.txt: one "owner/slug" a line, blank lines ignored; a UserError names a bad line. */
export function parseKernelRefs(text: string, file = "kernels.txt"): KernelRef[] {
  const refs: KernelRef[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "") return;
    const parts = line.split("/");
    if (parts.length !== 2 || !parts.every((p) => SAFE_PART.test(p) && !p.includes(".."))) {
      throw new UserError(`${file}:${i + 1}: expected a kernel as "owner/slug" (letters, digits, ".", "_", "-"), got ${JSON.stringify(line)}`);
    }
    refs.push({ owner: parts[0]!, slug: parts[1]! });
  });
  return refs;
}

/** The folder a competition's kernels are kept in. */
export function kernelsDir(dataDir: string, competitionId: string): string {
  if (!SAFE_PART.test(competitionId) || competitionId.includes("..")) {
    throw new UserError(`Invalid competition id ${JSON.stringify(competitionId)}: expected letters, digits, ".", "_" or "-".`);
  }
  return path.join(dataDir, competitionId, "kernels");
}

/** The file name of a kernel without its extension: "<owner>__<slug>". */
export function kernelBaseName(ref: KernelRef): string {
  return `${ref.owner}__${ref.slug}`;
}

/** The competition's kernel list from upstream's kernels.txt (cached in the data dir; fetched if not yet there). */
export async function loadKernelRefs(competitionId: string, opts: UpstreamFetchOptions): Promise<KernelRef[]> {
  const got = await fetchUpstreamFile(competitionId, "kernels.txt", opts);
  return parseKernelRefs(fs.readFileSync(got.path, "utf8"), got.path);
}

/** What happened to one kernel. */
export interface KernelDownloadResult {
  ref: string;
  /** "present": already on disk, left alone; "skipped": Kaggle did not give it (see reason). */
  status: "downloaded" | "present" | "skipped";
  /** The kernel's file, when there is one. */
  file?: string;
  reason?: string;
}

/** What {@link downloadKernels} needs. */
export interface DownloadKernelsOptions {
  dataDir: string;
  competitionId: string;
  refs: KernelRef[];
  /** Default: whatever {@link loadKaggleCredentials} finds; only needed when a kernel is missing. */
  auth?: KaggleAuth | null;
  /** Kaggle API root; default $MLEBENCH_KAGGLE_API_URL, then https://www.kaggle.com/api/v1. */
  baseUrl?: string;
  /** Extra attempts after 429, 5xx or network failures (default 3). */
  retries?: number;
  /** First wait before a retry, doubling each time (default 1000 ms). */
  backoffMs?: number;
  /** Give up on a request that delivers nothing for this long (default 60 s). */
  timeoutMs?: number;
  /** Called after each kernel, e.g. to print progress. */
  onKernel?: (result: KernelDownloadResult) => void;
}

/** The kernel file already in `dir`, if any (any extension; temp files of an interrupted write do not count). */
function existingKernel(dir: string, ref: KernelRef): string | null {
  if (!fs.existsSync(dir)) return null;
  const prefix = `${kernelBaseName(ref)}.`;
  const name = fs.readdirSync(dir).find((n) => n.startsWith(prefix) && !n.endsWith(".tmp"));
  return name ? path.join(dir, name) : null;
}

function pick(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function str(value: unknown): string {
  return typeof value === "string" ? value.trim().toLowerCase() : "";
}

// Kaggle's kernel languages and the extensions its own client saves scripts under.
const SCRIPT_EXTENSIONS: Record<string, string> = { python: ".py", r: ".R", rmarkdown: ".Rmd", sqlite: ".sql", julia: ".jl" };

/** Turn a kernels/pull answer into the file to save, or say why it cannot be. */
export function kernelFileFromPull(data: unknown, label: string): { ext: string; content: string } {
  const blob = pick(data, "blob");
  const meta = pick(data, "metadata");
  const source = pick(blob, "source");
  if (typeof source !== "string") throw new Error(`${label}: Kaggle's answer has no "blob.source" text`);
  const language = str(pick(blob, "language")) || str(pick(meta, "language"));
  const kind = str(pick(blob, "kernelType")) || str(pick(meta, "kernelType"));
  const looksLikeNotebook = source.trimStart().startsWith("{") && /"cells"|"worksheets"/.test(source);
  if (kind === "notebook" || (kind === "" && looksLikeNotebook)) {
    const nb = notebookToScript(source, label);
    const dolosLanguage = dolosLanguageOfNotebook(nb.language || language || "python");
    return { ext: dolosLanguage ? extensionOf(dolosLanguage) : ".py", content: nb.code };
  }
  return { ext: SCRIPT_EXTENSIONS[language] ?? ".txt", content: source };
}

function scrub(text: string, auth: KaggleAuth): string {
  let out = text;
  for (const secret of secretsOf(auth)) if (secret) out = out.split(secret).join("***");
  return out;
}

async function pullKernel(ref: KernelRef, auth: KaggleAuth, opts: Required<Pick<DownloadKernelsOptions, "retries" | "backoffMs" | "timeoutMs">> & { baseUrl: string }): Promise<unknown> {
  const url = `${opts.baseUrl}/kernels/pull?userName=${encodeURIComponent(ref.owner)}&kernelSlug=${encodeURIComponent(ref.slug)}`;
  const headers = { authorization: authHeader(auth), accept: "application/json", "user-agent": "mlebench-ts" };
  const body = await withRetries(
    () => fetchBuffer(url, headers, opts.timeoutMs),
    { retries: opts.retries, backoffMs: opts.backoffMs, maxDelayMs: 60_000, jitter: true },
    {
      classify: (err) => {
        if (err instanceof HttpStatusError && (err.status === 429 || err.status >= 500)) return { retryAfterMs: err.retryAfterMs };
        return err instanceof TransferError && err.retryable ? { retryAfterMs: null } : null;
      },
      notRetryable: (err) => err,
      exhausted: (err) => err,
    },
  );
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new Error(`Kaggle's answer for ${kernelRefText(ref)} is not JSON`);
  }
}

/**
 * Download every kernel in `refs` that is not yet in the competition's kernels folder. A kernel
 * Kaggle does not have or will not give (404, 403, other HTTP errors, an odd answer) is reported
 * and skipped; rejected credentials (401) and an unreachable Kaggle stop the whole download.
 */
export async function downloadKernels(opts: DownloadKernelsOptions): Promise<{ dir: string; results: KernelDownloadResult[] }> {
  const dir = kernelsDir(opts.dataDir, opts.competitionId);
  const results: KernelDownloadResult[] = [];
  const report = (r: KernelDownloadResult) => {
    results.push(r);
    opts.onKernel?.(r);
  };
  const settings = {
    baseUrl: (opts.baseUrl || process.env.MLEBENCH_KAGGLE_API_URL || DEFAULT_KAGGLE_API_URL).replace(/\/+$/, ""),
    retries: opts.retries ?? 3,
    backoffMs: opts.backoffMs ?? 1000,
    timeoutMs: opts.timeoutMs ?? 60_000,
  };
  let auth: KaggleAuth | null | undefined = opts.auth;
  for (const ref of opts.refs) {
    const text = kernelRefText(ref);
    const present = existingKernel(dir, ref);
    if (present) {
      report({ ref: text, status: "present", file: present });
      continue;
    }
    // Credentials are looked for only now, so a complete kernels folder needs none.
    if (auth === undefined) auth = loadKaggleCredentials();
    if (!auth) throw new UserError(missingCredentialsMessage());
    let data: unknown;
    try {
      data = await pullKernel(ref, auth, settings);
    } catch (err) {
      if (err instanceof HttpStatusError && err.status === 401) {
        throw new KaggleError("auth", `Kaggle rejected the credentials (${describeAuth(auth)}) when pulling kernel ${text}.`, 401);
      }
      if (err instanceof TransferError) {
        throw new KaggleError("network", scrub(`Could not reach Kaggle to pull kernel ${text}: ${err.message}`, auth));
      }
      const reason =
        err instanceof HttpStatusError
          ? err.status === 404
            ? "not found on Kaggle (HTTP 404: deleted, renamed or private)"
            : err.status === 403
              ? "Kaggle refused access (HTTP 403)"
              : `Kaggle answered HTTP ${err.status}`
          : (err as Error).message;
      report({ ref: text, status: "skipped", reason: scrub(reason, auth) });
      continue;
    }
    let file: { ext: string; content: string };
    try {
      file = kernelFileFromPull(data, text);
    } catch (err) {
      report({ ref: text, status: "skipped", reason: (err as Error).message });
      continue;
    }
    fs.mkdirSync(dir, { recursive: true });
    const dest = path.join(dir, `${kernelBaseName(ref)}${file.ext}`);
    writeFileAtomic(dest, file.content);
    report({ ref: text, status: "downloaded", file: dest });
  }
  return { dir, results };
}
