/**
 * A small client for the parts of the Kaggle REST API that preparing competitions needs: file lists,
 * data downloads and leaderboards. Transient failures are retried; the rest become KaggleErrors
 * whose messages say what to do and never contain the credentials.
 */
import { UserError } from "../../core/errors.js";
import { withRetries } from "../../core/retry.js";
import { authHeader, describeAuth, secretsOf, type KaggleAuth } from "./credentials.js";
import {
  downloadToFile,
  fetchBuffer,
  HttpStatusError,
  redactUrl,
  TransferError,
  type ProgressFn,
} from "./download.js";

/** The Kaggle API root used when neither the constructor nor MLEBENCH_KAGGLE_API_URL says otherwise. */
export const DEFAULT_KAGGLE_API_URL = "https://www.kaggle.com/api/v1";

/** Why a Kaggle request failed, for callers that react differently (e.g. offer to open the rules page). */
export type KaggleErrorKind = "auth" | "rules" | "forbidden" | "not-found" | "network" | "http" | "protocol";

/** A Kaggle request that cannot succeed as things stand; a UserError, so the CLI prints it and exits 2. */
export class KaggleError extends UserError {
  override name = "KaggleError";
  constructor(
    readonly kind: KaggleErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The page where a user accepts a competition's rules, which Kaggle requires before any download. */
export function rulesUrl(competition: string): string {
  return `https://www.kaggle.com/c/${encodeURIComponent(competition)}/rules`;
}

/** One file of a competition's data. `size` is in bytes (0 when Kaggle does not say). */
export interface KaggleFile {
  name: string;
  size: number;
}

/** One row of a public leaderboard; `scoreText` keeps the score exactly as Kaggle sent it. */
export interface KaggleLeaderboardEntry {
  teamId: number;
  teamName: string;
  submissionDate: string;
  score: number | null;
  scoreText: string;
}

/** What a caller may want to log about a retry; it never holds credentials or signed URLs. */
export interface KaggleRetryInfo {
  url: string;
  attempt: number;
  delayMs: number;
  reason: string;
}

/** Settings for {@link KaggleClient}. */
export interface KaggleClientOptions {
  auth: KaggleAuth;
  /** API root; defaults to $MLEBENCH_KAGGLE_API_URL, then https://www.kaggle.com/api/v1. */
  baseUrl?: string;
  /** Retries after the first attempt for 429, 5xx and network failures (default 5). */
  retries?: number;
  /** First backoff delay; each retry doubles it, plus jitter (default 1000 ms). */
  backoffMs?: number;
  /** Give up on a connection that delivers nothing for this long (default 60 s). */
  timeoutMs?: number;
  /** Called before each retry, e.g. to tell the user why the download pauses. */
  onRetry?: (info: KaggleRetryInfo) => void;
}

/** Options for the download methods. */
export interface KaggleDownloadOptions {
  onProgress?: ProgressFn;
}

// Kaggle and proxies sometimes ask for very long pauses; beyond this a retry is pointless anyway.
const MAX_DELAY_MS = 120_000;

/** Whether a failed request is worth retrying, and the wait the server asked for. */
function retryClass(err: unknown): { retryAfterMs: number | null } | null {
  if (err instanceof HttpStatusError) {
    // A storage host refusing a signed URL usually means the signature expired; the API signs a fresh one.
    const expiredSignature = err.redirected && (err.status === 401 || err.status === 403);
    if (!(err.status === 429 || err.status >= 500 || expiredSignature)) return null;
    return { retryAfterMs: err.retryAfterMs };
  }
  return err instanceof TransferError && err.retryable ? { retryAfterMs: null } : null;
}

interface Target {
  competition: string;
  file?: string;
}

/** A Kaggle REST API client authenticated with one set of credentials. */
export class KaggleClient {
  readonly baseUrl: string;
  private readonly auth: KaggleAuth;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly timeoutMs: number;
  private readonly onRetry?: (info: KaggleRetryInfo) => void;

  constructor(options: KaggleClientOptions) {
    this.auth = options.auth;
    const base = options.baseUrl ?? (process.env.MLEBENCH_KAGGLE_API_URL || DEFAULT_KAGGLE_API_URL);
    this.baseUrl = base.replace(/\/+$/, "");
    this.retries = Math.max(0, Math.floor(options.retries ?? 5));
    this.backoffMs = Math.max(0, options.backoffMs ?? 1000);
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.onRetry = options.onRetry;
  }

  /** The competition's data files, following Kaggle's pagination when the answer is paged. */
  async listFiles(competition: string): Promise<KaggleFile[]> {
    const files: KaggleFile[] = [];
    const seenTokens = new Set<string>();
    let pageToken: string | null = null;
    for (;;) {
      const query: string = pageToken ? `?pageToken=${encodeURIComponent(pageToken)}` : "";
      const url = this.url(`/competitions/data/list/${encodeURIComponent(competition)}${query}`);
      const data = await this.getJson(url, { competition });
      const page = parseFilePage(data);
      if (!page) throw this.protocolError(url, "a list of files");
      files.push(...page.files);
      if (!page.next) return files;
      // A server that hands back a token it already gave would otherwise be paged forever.
      if (seenTokens.has(page.next)) throw this.protocolError(url, "a page token not seen before");
      seenTokens.add(page.next);
      pageToken = page.next;
    }
  }

  /** Download all of a competition's data as one zip to `destZip` (complete, or not there at all). */
  async downloadAll(
    competition: string,
    destZip: string,
    options: KaggleDownloadOptions = {},
  ): Promise<{ bytes: number }> {
    const url = this.url(`/competitions/data/download-all/${encodeURIComponent(competition)}`);
    return this.download(url, destZip, { competition }, options);
  }

  /** Download one data file of a competition to `dest` (complete, or not there at all). */
  async downloadFile(
    competition: string,
    fileName: string,
    dest: string,
    options: KaggleDownloadOptions = {},
  ): Promise<{ bytes: number }> {
    const url = this.url(
      `/competitions/data/download/${encodeURIComponent(competition)}/${encodeURIComponent(fileName)}`,
    );
    return this.download(url, dest, { competition, file: fileName }, options);
  }

  /** The public leaderboard as Kaggle's JSON view returns it (only the top entries; see leaderboardCsv). */
  async leaderboard(competition: string): Promise<KaggleLeaderboardEntry[]> {
    const url = this.url(`/competitions/${encodeURIComponent(competition)}/leaderboard/view`);
    const data = await this.getJson(url, { competition });
    const rows = Array.isArray(data) ? data : pick(data, "submissions", "Submissions");
    if (!Array.isArray(rows)) throw this.protocolError(url, 'an object with a "submissions" list');
    return rows.map((row) => {
      const teamId = Number(pick(row, "teamId", "team_id"));
      const rawScore = pick(row, "score", "publicScore", "public_score");
      const scoreText = rawScore === undefined || rawScore === null ? "" : String(rawScore).trim();
      const score = scoreText === "" || !Number.isFinite(Number(scoreText)) ? null : Number(scoreText);
      return {
        teamId: Number.isFinite(teamId) ? teamId : 0,
        teamName: String(pick(row, "teamName", "team_name") ?? ""),
        submissionDate: String(pick(row, "submissionDate", "submission_date") ?? ""),
        score,
        scoreText,
      };
    });
  }

  /** Save the full public leaderboard (a zip holding one CSV) to `dest` as Kaggle sends it. */
  async leaderboardCsv(
    competition: string,
    dest: string,
    options: KaggleDownloadOptions = {},
  ): Promise<{ bytes: number }> {
    const url = this.url(`/competitions/${encodeURIComponent(competition)}/leaderboard/download`);
    return this.download(url, dest, { competition }, options);
  }

  private url(pathAndQuery: string): string {
    return `${this.baseUrl}${pathAndQuery}`;
  }

  private headers(accept: string): Record<string, string> {
    return { authorization: authHeader(this.auth), accept, "user-agent": "mlebench-ts" };
  }

  private async getJson(url: string, target: Target): Promise<unknown> {
    const body = await this.withRetries(url, target, () =>
      fetchBuffer(url, this.headers("application/json"), this.timeoutMs),
    );
    try {
      return JSON.parse(body.toString("utf8"));
    } catch {
      throw this.protocolError(url, "JSON");
    }
  }

  private download(
    url: string,
    dest: string,
    target: Target,
    options: KaggleDownloadOptions,
  ): Promise<{ bytes: number }> {
    return this.withRetries(url, target, () =>
      downloadToFile({
        url,
        dest,
        headers: this.headers("*/*"),
        timeoutMs: this.timeoutMs,
        onProgress: options.onProgress,
      }),
    );
  }

  private withRetries<T>(url: string, target: Target, attempt: () => Promise<T>): Promise<T> {
    return withRetries(
      attempt,
      { retries: this.retries, backoffMs: this.backoffMs, maxDelayMs: MAX_DELAY_MS, jitter: true },
      {
        classify: retryClass,
        notRetryable: (err) => this.explain(err, url, target),
        exhausted: (err, attempts) =>
          this.error("network", `Could not get ${redactUrl(url)} from Kaggle after ${attempts} attempts; last error: ${reasonOf(err)}`),
        onRetry: (err, attempt, delayMs) =>
          this.onRetry?.({ url: redactUrl(url), attempt, delayMs, reason: this.scrub(reasonOf(err)) }),
      },
    );
  }

  private explain(err: unknown, url: string, target: Target): unknown {
    const { competition, file } = target;
    if (err instanceof HttpStatusError) {
      const detail = serverMessage(err.body);
      const suffix = detail ? `: ${detail}` : "";
      if (err.status === 401) {
        return this.error(
          "auth",
          `Kaggle rejected the credentials (${describeAuth(this.auth)}). Check them, or create a new token ` +
            "at kaggle.com → Settings → API → Create New Token.",
          401,
        );
      }
      if (err.status === 403 && !err.redirected && /rules|accept/i.test(err.body)) {
        return this.error(
          "rules",
          `You must accept this competition's rules before downloading: ${rulesUrl(competition)}`,
          403,
        );
      }
      if (err.status === 403) {
        return this.error(
          "forbidden",
          `Kaggle refused access to competition ${competition} (HTTP 403${suffix}) for ${describeAuth(this.auth)}.`,
          403,
        );
      }
      if (err.status === 404) {
        const what = file === undefined ? "" : ` (or no file ${file} in it)`;
        return this.error("not-found", `No Kaggle competition ${competition}${what} at ${err.url}`, 404);
      }
      return this.error("http", `Kaggle answered HTTP ${err.status} for ${err.url}${suffix}`, err.status);
    }
    if (err instanceof TransferError) {
      return this.error("network", `Could not get ${redactUrl(url)} from Kaggle: ${err.message}`);
    }
    // Local failures (a full disk, a read-only directory) are not Kaggle's doing and keep their own type.
    return err;
  }

  private protocolError(url: string, expected: string): KaggleError {
    return this.error("protocol", `Kaggle sent an unexpected answer for ${redactUrl(url)}: expected ${expected}.`);
  }

  private error(kind: KaggleErrorKind, message: string, status?: number): KaggleError {
    return new KaggleError(kind, this.scrub(message), status);
  }

  // A server that echoes a request back must not make us print the key.
  private scrub(text: string): string {
    let out = text;
    for (const secret of secretsOf(this.auth)) if (secret) out = out.split(secret).join("***");
    return out;
  }
}

function pick(value: unknown, ...keys: string[]): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of keys) if (record[key] !== undefined) return record[key];
  return undefined;
}

function toFile(entry: unknown): KaggleFile | null {
  const name = pick(entry, "name", "Name");
  if (typeof name !== "string") return null;
  const raw = pick(entry, "totalBytes", "total_bytes", "size", "Size");
  const size = typeof raw === "number" ? raw : typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : 0;
  return { name, size };
}

// Kaggle has answered both with a bare array and with {files, nextPageToken}.
function parseFilePage(data: unknown): { files: KaggleFile[]; next: string | null } | null {
  const list = Array.isArray(data) ? data : pick(data, "files", "Files");
  if (!Array.isArray(list)) return null;
  const files = list.map(toFile);
  if (files.some((f) => f === null)) return null;
  const next = Array.isArray(data) ? null : pick(data, "nextPageToken", "next_page_token");
  return { files: files as KaggleFile[], next: typeof next === "string" && next !== "" ? next : null };
}

// Kaggle errors are JSON with a "message"; anything else is shown briefly, as it may be an HTML page.
function serverMessage(body: string): string {
  const text = body.trim();
  if (text === "") return "";
  try {
    const message = pick(JSON.parse(text), "message", "error", "detail");
    if (typeof message === "string") return message.slice(0, 300);
  } catch {
    // Not JSON.
  }
  return text.startsWith("<") ? "" : text.replace(/\s+/g, " ").slice(0, 300);
}

function reasonOf(err: unknown): string {
  if (err instanceof HttpStatusError) {
    const detail = serverMessage(err.body);
    return `HTTP ${err.status}${detail ? ` (${detail})` : ""}`;
  }
  return err instanceof Error ? err.message : String(err);
}
