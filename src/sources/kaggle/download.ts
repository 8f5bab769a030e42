/**
 * HTTP plumbing for the Kaggle client: requests that follow redirects without leaking credentials,
 * an idle timeout, and downloads that land at their destination only when complete.
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { parseRetryAfter } from "../../core/retry.js";

/** Progress of a transfer in bytes; `total` is null when the server does not say how big the body is. */
export type ProgressFn = (done: number, total: number | null) => void;

/** A transfer that failed without an HTTP status; `retryable` says whether trying again may help. */
export class TransferError extends Error {
  override name = "TransferError";
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A non-2xx answer, kept with (the start of) its body so callers can tell one kind of refusal from another. */
export class HttpStatusError extends Error {
  override name = "HttpStatusError";
  constructor(
    readonly status: number,
    /** The requested URL, without query string. */
    readonly url: string,
    readonly body: string,
    readonly retryAfterMs: number | null,
    /** True when the answer came from another origin than the one asked (a storage host after a redirect). */
    readonly redirected: boolean,
  ) {
    super(`HTTP ${status} from ${url}`);
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;
// Codes that describe a flaky network rather than a wrong address or a bad certificate.
const RETRYABLE_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
// Enough of an error body to find the server's explanation; the rest is noise.
const MAX_ERROR_BODY = 4096;

/** A URL reduced to origin and path: signed storage URLs carry their signature in the query string. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

/** Turn whatever fetch threw into a TransferError that says what happened and whether to retry. */
export function networkError(err: unknown): TransferError {
  if (err instanceof TransferError) return err;
  // fetch wraps the socket error ("fetch failed" → cause ECONNREFUSED), so the useful part is deepest.
  let code: string | undefined;
  let message = err instanceof Error ? err.message : String(err);
  let cur: unknown = err;
  for (let depth = 0; cur instanceof Error && depth < 8; depth++) {
    const c = (cur as NodeJS.ErrnoException).code;
    if (typeof c === "string") code = c;
    if (cur.message) message = cur.message;
    cur = (cur as { cause?: unknown }).cause;
  }
  if (code && !message.includes(code)) message = `${message} (${code})`;
  return new TransferError(message, code !== undefined && RETRYABLE_CODES.has(code), { cause: err });
}

/**
 * Aborts a request that makes no progress for `ms`: a whole-request deadline would kill large
 * downloads that are merely slow, while a stalled connection should fail and be retried.
 */
class IdleTimer {
  readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ms: number) {
    this.kick();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  kick(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const err = new TransferError(`no data for ${this.ms / 1000}s (timed out)`, true);
      this.controller.abort(err);
    }, this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  /** The timeout error if the timer fired, since fetch reports its own abort less helpfully. */
  explain(err: unknown): TransferError {
    if (this.signal.aborted && this.signal.reason instanceof TransferError) return this.signal.reason;
    return networkError(err);
  }
}

interface Fetched {
  response: Response;
  /** Whether the final answer came from another origin than `url`. */
  crossOrigin: boolean;
}

/**
 * GET `url`, following redirects by hand so that the Authorization header goes only to the origin it
 * was meant for: signed storage URLs must never see the user's credentials.
 */
async function getFollowingRedirects(
  url: string,
  headers: Record<string, string>,
  timer: IdleTimer,
): Promise<Fetched> {
  const origin = new URL(url).origin;
  let current = url;
  let hopHeaders = lowerCaseKeys(headers);
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await fetch(current, { method: "GET", headers: hopHeaders, redirect: "manual", signal: timer.signal });
    } catch (err) {
      throw timer.explain(err);
    }
    timer.kick();
    const location = response.headers.get("location");
    if (!REDIRECT_STATUSES.has(response.status) || location === null) {
      return { response, crossOrigin: new URL(current).origin !== origin };
    }
    await discardBody(response);
    if (hop >= MAX_REDIRECTS) throw new TransferError(`too many redirects from ${redactUrl(url)}`, false);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new TransferError(`redirect from ${redactUrl(current)} to an invalid address`, false);
    }
    if (next.protocol !== "https:" && next.protocol !== "http:") {
      throw new TransferError(`redirect from ${redactUrl(current)} to unsupported ${next.protocol} URL`, false);
    }
    // Once dropped the header stays dropped, even if a later hop leads back to the original origin.
    if (next.origin !== origin) {
      const { authorization: _dropped, ...rest } = hopHeaders;
      hopHeaders = rest;
    }
    current = next.href;
  }
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  return out;
}

async function discardBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // The body is unwanted; failing to drain it changes nothing.
  }
}

// Yields the body's chunks, resetting the idle timer on each and naming failures as transfer errors.
async function* bodyChunks(response: Response, timer: IdleTimer): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  const iterator = response.body[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let step: IteratorResult<Uint8Array>;
      try {
        step = await iterator.next();
      } catch (err) {
        finished = true;
        throw timer.explain(err);
      }
      if (step.done) {
        finished = true;
        return;
      }
      timer.kick();
      yield step.value;
    }
  } finally {
    // The consumer stopped early (enough of an error body, a failed write): release the connection.
    if (!finished) await iterator.return?.().catch(() => {});
  }
}

async function readErrorBody(response: Response, timer: IdleTimer): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of bodyChunks(response, timer)) {
      parts.push(Buffer.from(chunk));
      size += chunk.length;
      if (size >= MAX_ERROR_BODY) break;
    }
  } catch {
    // An explanation cut short is still better than none.
  }
  return Buffer.concat(parts).toString("utf8").slice(0, MAX_ERROR_BODY);
}

async function statusError(url: string, fetched: Fetched, timer: IdleTimer): Promise<HttpStatusError> {
  const { response } = fetched;
  const body = await readErrorBody(response, timer);
  return new HttpStatusError(
    response.status,
    redactUrl(url),
    body,
    parseRetryAfter(response.headers.get("retry-after")),
    fetched.crossOrigin,
  );
}

function declaredLength(response: Response): number | null {
  // After decompression the byte count no longer matches Content-Length, so it cannot be checked.
  const encoding = response.headers.get("content-encoding");
  if (encoding && encoding.toLowerCase() !== "identity") return null;
  const raw = response.headers.get("content-length");
  return raw !== null && /^\d+$/.test(raw.trim()) ? Number(raw) : null;
}

/** GET `url` and return the whole body; HttpStatusError for non-2xx answers, TransferError for network trouble. */
export async function fetchBuffer(url: string, headers: Record<string, string>, timeoutMs: number): Promise<Buffer> {
  const timer = new IdleTimer(timeoutMs);
  try {
    const fetched = await getFollowingRedirects(url, headers, timer);
    if (!fetched.response.ok) throw await statusError(url, fetched, timer);
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of bodyChunks(fetched.response, timer)) {
      parts.push(Buffer.from(chunk));
      size += chunk.length;
    }
    const expected = declaredLength(fetched.response);
    if (expected !== null && size !== expected) {
      throw new TransferError(`response cut short: received ${size} of ${expected} bytes`, true);
    }
    return Buffer.concat(parts, size);
  } finally {
    timer.stop();
  }
}

/** Options for {@link downloadToFile}. */
export interface DownloadToFileOptions {
  url: string;
  /** Request headers; an Authorization header is dropped on a redirect to another origin. */
  headers?: Record<string, string>;
  dest: string;
  /** Give up on a connection that delivers nothing for this long (default 60 s). */
  timeoutMs?: number;
  onProgress?: ProgressFn;
  /** Continue a `.part` left by an earlier attempt with a Range request (default true). */
  resume?: boolean;
}

// What we know about the bytes in a .part, so a resume never splices two different files together.
interface PartMeta {
  url: string;
  total: number | null;
  validator: string | null;
}

function partPaths(dest: string): { part: string; meta: string } {
  return { part: `${dest}.part`, meta: `${dest}.part.json` };
}

async function readMeta(file: string): Promise<PartMeta | null> {
  try {
    const data = JSON.parse(await fsp.readFile(file, "utf8")) as Partial<PartMeta>;
    if (typeof data.url !== "string") return null;
    return {
      url: data.url,
      total: typeof data.total === "number" ? data.total : null,
      validator: typeof data.validator === "string" ? data.validator : null,
    };
  } catch {
    return null;
  }
}

async function discardPart(dest: string): Promise<void> {
  const { part, meta } = partPaths(dest);
  await fsp.rm(part, { force: true });
  await fsp.rm(meta, { force: true });
}

// A strong ETag, else Last-Modified: what If-Range accepts to guarantee the resumed bytes are the same file.
function validatorOf(response: Response): string | null {
  const etag = response.headers.get("etag");
  if (etag && !etag.startsWith("W/")) return etag;
  return response.headers.get("last-modified");
}

function parseContentRange(value: string | null): { start: number; total: number | null } | null {
  const m = value ? /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(value.trim()) : null;
  if (!m) return null;
  return { start: Number(m[1]), total: m[3] === "*" ? null : Number(m[3]) };
}

function fsyncDirBestEffort(dir: string): void {
  try {
    const fd = fs.openSync(dir, "r");
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not every platform lets a directory be opened; the rename has happened either way.
  }
}

/**
 * One attempt to download `url` to `dest`: the body streams into `<dest>.part`, which is fsynced and
 * renamed to `dest` only when complete, so `dest` never holds a partial file. A short body leaves the
 * `.part` behind and throws a retryable TransferError; the next attempt resumes it with a Range request.
 */
export async function downloadToFile(options: DownloadToFileOptions): Promise<{ bytes: number }> {
  const { url, dest, onProgress } = options;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const resume = options.resume ?? true;
  const { part, meta: metaFile } = partPaths(dest);
  const shownUrl = redactUrl(url);
  await fsp.mkdir(path.dirname(path.resolve(dest)), { recursive: true });

  // Two passes at most: the second starts from zero after the server declined to resume.
  for (let pass = 0; pass < 2; pass++) {
    let offset = 0;
    let meta: PartMeta | null = null;
    if (resume && pass === 0) {
      meta = await readMeta(metaFile);
      const size = await fsp.stat(part).then(
        (s) => s.size,
        () => 0,
      );
      if (meta && meta.url === shownUrl && size > 0) offset = size;
    }
    if (offset === 0) await discardPart(dest);

    // Identity encoding keeps the byte count comparable with Content-Length and with Range offsets.
    const headers: Record<string, string> = { ...lowerCaseKeys(options.headers ?? {}), "accept-encoding": "identity" };
    if (offset > 0) {
      headers.range = `bytes=${offset}-`;
      if (meta?.validator) headers["if-range"] = meta.validator;
    }

    const timer = new IdleTimer(timeoutMs);
    try {
      const fetched = await getFollowingRedirects(url, headers, timer);
      const { response } = fetched;
      if (response.status === 416 && offset > 0) {
        await discardBody(response);
        continue;
      }
      if (!response.ok) throw await statusError(url, fetched, timer);

      let start = 0;
      let total: number | null;
      if (response.status === 206) {
        const range = parseContentRange(response.headers.get("content-range"));
        const consistent =
          offset > 0 &&
          range !== null &&
          range.start === offset &&
          (range.total === null || meta?.total == null || range.total === meta.total);
        if (!consistent) {
          await discardBody(response);
          if (offset > 0) continue;
          throw new TransferError("unexpected partial answer (HTTP 206) to a request for the whole file", true);
        }
        start = offset;
        total = range.total ?? meta?.total ?? null;
      } else {
        // A 200 is the whole file from byte zero, whatever we asked for.
        total = declaredLength(response);
        const fresh: PartMeta = { url: shownUrl, total, validator: validatorOf(response) };
        await fsp.writeFile(metaFile, JSON.stringify(fresh));
      }

      const handle = await fsp.open(part, start > 0 ? "a" : "w");
      let done = start;
      try {
        onProgress?.(done, total);
        try {
          for await (const chunk of bodyChunks(response, timer)) {
            await handle.write(chunk);
            done += chunk.length;
            onProgress?.(done, total);
          }
        } catch (err) {
          // "other side closed" alone hides how far the download got, which is what the user wants to know.
          if (err instanceof TransferError && total !== null && done < total) {
            const message = `download cut short: received ${done} of ${total} bytes (${err.message})`;
            throw new TransferError(message, err.retryable, { cause: err });
          }
          throw err;
        }
        if (total !== null && done !== total) {
          if (done > total) {
            await handle.close().catch(() => {});
            await discardPart(dest);
            throw new TransferError(`received ${done} bytes but ${total} were announced`, true);
          }
          throw new TransferError(`download cut short: received ${done} of ${total} bytes`, true);
        }
        await handle.sync();
      } finally {
        await handle.close().catch(() => {});
      }
      await fsp.rename(part, dest);
      await fsp.rm(metaFile, { force: true });
      fsyncDirBestEffort(path.dirname(path.resolve(dest)));
      return { bytes: done };
    } finally {
      timer.stop();
    }
  }
  throw new TransferError(`could not restart the download of ${shownUrl}`, true);
}
