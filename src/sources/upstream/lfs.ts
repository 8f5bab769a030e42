/**
 * Git LFS support for the upstream fetcher. Upstream tracks every CSV with LFS, so the raw
 * host serves leaderboard.csv as a small pointer file; the real bytes come from the LFS batch
 * API. This module is also the HTTP layer fetch.ts builds on, so the error type lives here.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { UserError } from "../../core/errors.js";
import { parseRetryAfter } from "../../core/retry.js";

/** The first line of every Git LFS pointer file (spec v1). */
export const LFS_POINTER_VERSION_LINE = "version https://git-lfs.github.com/spec/v1";

/** What a pointer promises: the object's sha256 and its length in bytes. */
export interface LfsPointer {
  oid: string;
  size: number;
}

/** How a request to an upstream host went wrong; callers decide on retries and wording from it. */
export type UpstreamFailureKind =
  | "not-found" // HTTP 404: the file does not exist at that commit.
  | "http" // any other unexpected HTTP status.
  | "network" // no usable response: refused, reset, DNS, timeout.
  | "integrity" // bytes arrived but are not what the pointer promised.
  | "lfs" // the LFS server answered with an error or a malformed batch response.
  | "invalid"; // the upstream content itself is unusable (e.g. a malformed pointer).

/**
 * A failed upstream download. A UserError so the CLI prints the message rather than a stack:
 * being offline or pointing at a wrong commit is a setup problem, not a bug.
 */
export class UpstreamFetchError extends UserError {
  override name = "UpstreamFetchError";
  /** The URL that failed, without its query string. */
  readonly url: string;
  /** HTTP status, when the server answered at all. */
  readonly status?: number;
  /** Whether trying again later could help (429, 5xx, network trouble). */
  readonly retryable: boolean;
  /** How long the server asked us to wait (Retry-After), if it said. */
  readonly retryAfterMs?: number;
  constructor(
    readonly kind: UpstreamFailureKind,
    url: string,
    /** The cause alone, without the URL, so wrappers can reword the message. */
    readonly reason: string,
    extra: { status?: number; retryable?: boolean; retryAfterMs?: number; message?: string } = {},
  ) {
    super(extra.message ?? `${withoutQuery(url)}: ${reason}`);
    this.url = withoutQuery(url);
    this.status = extra.status;
    this.retryable = extra.retryable ?? false;
    this.retryAfterMs = extra.retryAfterMs;
  }
}

/** Bounded per request so a stalled connection cannot hang `prepare` forever. */
export const DEFAULT_TIMEOUT_MS = 60_000;

const USER_AGENT = "mlebench-ts (upstream metadata fetcher)";

/** Parse a Git LFS pointer; null when `text` is not a well-formed v1 sha256 pointer. */
export function parseLfsPointer(text: string): LfsPointer | null {
  // The spec caps pointers well under 1 KiB; anything larger is real content.
  if (text.length > 1024) return null;
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines[0] !== LFS_POINTER_VERSION_LINE) return null;
  let oid: string | undefined;
  let size: number | undefined;
  for (const line of lines.slice(1)) {
    if (line === "") continue;
    const sp = line.indexOf(" ");
    if (sp <= 0) return null;
    const key = line.slice(0, sp);
    const value = line.slice(sp + 1);
    if (key === "oid") {
      const m = /^sha256:([0-9a-f]{64})$/.exec(value);
      if (!m || oid !== undefined) return null;
      oid = m[1];
    } else if (key === "size") {
      if (!/^\d+$/.test(value) || size !== undefined) return null;
      size = Number(value);
      if (!Number.isSafeInteger(size)) return null;
    }
    // Other keys (e.g. ext-0-…) are allowed by the spec and carry nothing we need.
  }
  return oid !== undefined && size !== undefined ? { oid, size } : null;
}

/** True when `text` claims to be an LFS pointer, so a parse failure is an error and not content. */
export function looksLikeLfsPointer(text: string): boolean {
  return text.startsWith(LFS_POINTER_VERSION_LINE);
}

/** Whether the file at `file` has exactly the pointer's size and sha256 (false if unreadable). */
export async function fileMatchesLfsPointer(file: string, pointer: LfsPointer): Promise<boolean> {
  try {
    if ((await fs.promises.stat(file)).size !== pointer.size) return false;
    const hash = createHash("sha256");
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
    return hash.digest("hex") === pointer.oid;
  } catch {
    return false;
  }
}

/** Words for a fetch() rejection; undici hides the useful part (ECONNREFUSED …) in `cause`. */
function describeNetworkError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
    return `no response within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`;
  }
  let e: unknown = err;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    if (e.message) return e.message;
    if (code) return code;
  }
  return String(err);
}

/** Download links are often pre-signed; their query strings are credentials and stay out of messages. */
function withoutQuery(url: string): string {
  const q = url.search(/[?#]/);
  return q < 0 ? url : `${url.slice(0, q)}?…`;
}

/** Server-side trouble worth waiting out; other statuses will not change on a retry. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * One HTTP request; any status but 2xx becomes an UpstreamFetchError marked retryable or not.
 * Exported for fetch.ts so both hosts share timeout handling and error wording.
 */
export async function upstreamRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<Response> {
  const timeoutMs = init.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? "GET",
      headers: { "User-Agent": USER_AGENT, ...init.headers },
      body: init.body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "follow",
    });
  } catch (err) {
    const cause = describeNetworkError(err, timeoutMs);
    throw new UpstreamFetchError("network", url, cause, { retryable: true });
  }
  if (res.ok) return res;
  // Drain so the connection can be reused; the body of an error page is of no interest.
  await res.arrayBuffer().catch(() => undefined);
  const cause = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`;
  const kind: UpstreamFailureKind = res.status === 404 ? "not-found" : "http";
  throw new UpstreamFetchError(kind, url, cause, {
    status: res.status,
    retryable: isRetryableStatus(res.status),
    retryAfterMs: parseRetryAfter(res.headers.get("retry-after")) ?? undefined,
  });
}

/** The whole body; a connection dropped mid-body is a network failure and so retryable. */
export async function readBody(res: Response, url: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Buffer> {
  try {
    return Buffer.from(await res.arrayBuffer());
  } catch (err) {
    const cause = describeNetworkError(err, timeoutMs);
    throw new UpstreamFetchError("network", url, cause, { retryable: true });
  }
}

/**
 * Read a download, keeping at most `size` bytes but hashing and counting all of them, so a
 * misbehaving server cannot fill memory and the error can still report the actual size and hash.
 */
async function readVerified(res: Response, url: string, pointer: LfsPointer, timeoutMs: number): Promise<Buffer> {
  const hash = createHash("sha256");
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let total = 0;
  try {
    if (res.body) {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        hash.update(chunk);
        total += chunk.length;
        if (keptBytes < pointer.size) {
          const piece = Buffer.from(chunk.subarray(0, pointer.size - keptBytes));
          kept.push(piece);
          keptBytes += piece.length;
        }
      }
    }
  } catch (err) {
    const cause = describeNetworkError(err, timeoutMs);
    throw new UpstreamFetchError("network", url, cause, { retryable: true });
  }
  const actualOid = hash.digest("hex");
  let cause: string | undefined;
  if (total !== pointer.size) {
    cause = `LFS object ${pointer.oid} has the wrong size: expected ${pointer.size} bytes, got ${total}`;
  } else if (actualOid !== pointer.oid) {
    cause = `downloaded LFS object has the wrong sha256: expected ${pointer.oid}, got ${actualOid}`;
  }
  if (cause) throw new UpstreamFetchError("integrity", url, cause);
  return Buffer.concat(kept, keptBytes);
}

function lfsProtocolError(url: string, cause: string): UpstreamFetchError {
  return new UpstreamFetchError("lfs", url, cause);
}

/** Reads the download action for the one object we asked for, or explains why there is none. */
function downloadAction(json: unknown, url: string, pointer: LfsPointer): { href: string; headers: Record<string, string> } {
  const objects = (json as { objects?: unknown } | null)?.objects;
  if (!Array.isArray(objects) || objects.length === 0) {
    throw lfsProtocolError(url, `LFS batch response for object ${pointer.oid} lists no objects`);
  }
  const obj = objects[0] as {
    oid?: unknown;
    error?: { code?: unknown; message?: unknown };
    actions?: { download?: { href?: unknown; header?: unknown } };
  };
  if (obj.error) {
    const code = typeof obj.error.code === "number" ? ` (code ${obj.error.code})` : "";
    const msg = typeof obj.error.message === "string" ? obj.error.message : "no message";
    throw lfsProtocolError(url, `LFS server refused object ${pointer.oid}: ${msg}${code}`);
  }
  const dl = obj.actions?.download;
  if (!dl || typeof dl.href !== "string" || dl.href === "") {
    throw lfsProtocolError(url, `LFS batch response gives no download link for object ${pointer.oid}`);
  }
  const headers: Record<string, string> = {};
  if (dl.header && typeof dl.header === "object") {
    for (const [k, v] of Object.entries(dl.header as Record<string, unknown>)) {
      if (typeof v === "string") headers[k] = v;
    }
  }
  return { href: dl.href, headers };
}

/**
 * Download the object behind `pointer` through the LFS batch API and return its verified bytes.
 * One attempt only: the caller retries the whole exchange, since download links expire.
 * Objects here are leaderboards (a few MB at most), so returning them in memory is fine.
 */
export async function resolveLfsObject(
  pointer: LfsPointer,
  opts: { lfsBaseUrl: string; repo: string; timeoutMs?: number },
): Promise<Buffer> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const batchUrl = `${opts.lfsBaseUrl.replace(/\/+$/, "")}/${opts.repo}.git/info/lfs/objects/batch`;
  const lfsType = "application/vnd.git-lfs+json";
  const res = await upstreamRequest(batchUrl, {
    method: "POST",
    headers: { Accept: lfsType, "Content-Type": lfsType },
    body: JSON.stringify({
      operation: "download",
      transfers: ["basic"],
      objects: [{ oid: pointer.oid, size: pointer.size }],
    }),
    timeoutMs,
  });
  const text = (await readBody(res, batchUrl, timeoutMs)).toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw lfsProtocolError(batchUrl, `LFS batch response for object ${pointer.oid} is not JSON`);
  }
  const action = downloadAction(json, batchUrl, pointer);
  const dl = await upstreamRequest(action.href, { headers: action.headers, timeoutMs });
  return readVerified(dl, action.href, pointer, timeoutMs);
}
