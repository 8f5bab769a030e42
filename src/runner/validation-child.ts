/**
 * The validation server as a process of its own, one per run (started by validation-server.ts).
 * Everything an agent can send it (huge or degenerate uploads, floods of idle connections,
 * checks that take minutes) costs this process's memory, descriptors and time, never the
 * harness's: the harness keeps its deadlines and its other runs whatever happens here.
 * Uploads stream to a private temporary file (never buffered whole); a grading thread judges one
 * file at a time and is replaced when a check runs past its time.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import busboy from "busboy";
import { listenOnSocket } from "./socket.js";
import { UploadFingerprinter, type UploadFingerprint } from "./upload-fingerprint.js";
import { verdictText, type Verdict } from "./validation-judge.js";
import type { WorkerConfig, WorkerJob, WorkerReply } from "./validation-worker.js";

/** Settings the parent passes as the first argument (JSON). */
export interface ChildConfig extends WorkerConfig {
  socketPath: string;
  logFile: string | null;
  maxUploadBytes: number;
  maxConcurrent: number;
  maxConnections: number;
  /** Longest one check may take once its upload is in, ms. */
  checkTimeoutMs: number;
  /** Longest an upload may take to arrive, ms. */
  uploadTimeoutMs: number;
  /** Old-generation heap of the grading thread, MiB. */
  workerHeapMb: number;
}

/** Messages between parent and child over the IPC channel. */
export type ParentMessage = { type: "count"; id: number } | { type: "close" };
export type ChildMessage =
  | { type: "ready" }
  | { type: "count"; id: number; requests: number }
  | { type: "note"; line: string }
  | { type: "failed"; message: string };

const USAGE = 'Send the submission as multipart/form-data in a field named "file", e.g. ' +
  'curl -X POST -F "file=@submission.csv" http://localhost:5000/validate';

/** Routes and the one method each accepts. */
const ROUTES: Record<string, string> = { "/health": "GET", "/validate": "POST" };

/** What one request came to, for its log line. */
interface Answered {
  status: number;
  bytes: number;
  valid: boolean | null;
  /** Of an upload received whole. */
  fingerprint?: UploadFingerprint | null;
}

const config = JSON.parse(process.argv[2] ?? "{}") as ChildConfig;
const send = (m: ChildMessage) => process.send?.(m);
const uploads = fs.mkdtempSync(path.join(os.tmpdir(), "mlb-uploads-"));

/** The grading thread, restarted after a timeout or a crash; jobs run one at a time. */
class Grader {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private nextId = 0;

  private start(): Promise<void> {
    const worker = new Worker(new URL("./validation-worker.js", import.meta.url), {
      workerData: { competitionId: config.competitionId, answersFile: config.answersFile } satisfies WorkerConfig,
      resourceLimits: { maxOldGenerationSizeMb: config.workerHeapMb },
    });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (m: { ready?: boolean }) => {
        if (m.ready) {
          worker.off("error", reject);
          resolve();
        }
      };
      worker.on("message", onMessage);
      worker.once("error", reject);
    });
    // A failed start is reported to the job that waits for it; the next job tries again.
    this.ready.catch(() => this.drop(worker));
    return this.ready;
  }

  private drop(worker: Worker): void {
    if (this.worker === worker) {
      this.worker = null;
      this.ready = null;
    }
    void worker.terminate();
  }

  /** Judge the file; the thread is ended and replaced if it takes longer than the check time. */
  judge(file: string): Promise<Verdict | { error: string; status: number }> {
    const run = async (): Promise<Verdict | { error: string; status: number }> => {
      try {
        await (this.ready ?? this.start());
      } catch (e) {
        send({ type: "note", line: `validation server: the answers could not be loaded: ${(e as Error).message}` });
        return { status: 500, error: "The validation server could not load the competition's answers." };
      }
      const worker = this.worker!;
      const id = ++this.nextId;
      return new Promise((resolve) => {
        const done = (r: Verdict | { error: string; status: number }) => {
          clearTimeout(timer);
          worker.off("message", onMessage);
          worker.off("error", onError);
          resolve(r);
        };
        const onMessage = (m: WorkerReply) => {
          if (m.id === id) done(m.verdict);
        };
        const onError = (e: Error) => {
          this.drop(worker);
          const memory = (e as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY";
          done({
            status: 503,
            error: memory
              ? `The submission could not be checked: checking it needs more than the validation server's ${config.workerHeapMb} MiB.`
              : "The submission could not be checked: the validation server's grader failed.",
          });
        };
        const timer = setTimeout(() => {
          this.drop(worker);
          const limit = config.checkTimeoutMs < 1000 ? `${config.checkTimeoutMs} ms` : `${Math.round(config.checkTimeoutMs / 1000)} s`;
          done({ status: 504, error: `The submission could not be checked within ${limit}; it is too large or too slow to grade.` });
        }, config.checkTimeoutMs);
        worker.on("message", onMessage);
        worker.on("error", onError);
        worker.postMessage({ id, file } satisfies WorkerJob);
      });
    };
    const result = this.chain.then(run, run);
    this.chain = result;
    return result;
  }

  close(): void {
    if (this.worker) void this.worker.terminate();
  }
}

const grader = new Grader();
let requests = 0;
let active = 0;
let uploadSeq = 0;
const fingerprints = new UploadFingerprinter();

function logLine(route: string, a: Answered): void {
  if (!config.logFile) return;
  const f = a.fingerprint ?? null;
  const line = JSON.stringify({
    time: new Date().toISOString(),
    route,
    status: a.status,
    bytes: a.bytes,
    valid: a.valid,
    sha256: f?.sha256 ?? null,
    lines: f?.lines ?? null,
    changed_lines: f?.changed_lines ?? null,
  });
  // Logging must never break validation, so write failures are dropped.
  fs.promises.appendFile(config.logFile, line + "\n").catch(() => {});
}

function sendJson(res: http.ServerResponse, status: number, value: unknown, close = false): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(value);
  const headers: http.OutgoingHttpHeaders = { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) };
  if (close) headers.Connection = "close";
  res.writeHead(status, headers);
  res.end(text);
}

/** Stream the "file" part of a multipart body into a private file; at most `max` bytes. */
function receiveUpload(
  req: http.IncomingMessage,
  max: number,
): Promise<{ file: string; bytes: number } | { status: number; error: string; bytes: number }> {
  return new Promise((resolve) => {
    let bytes = 0;
    let settled = false;
    let target: string | null = null;
    let writing: Promise<void> = Promise.resolve();
    const finish = (r: { file: string; bytes: number } | { status: number; error: string; bytes: number }) => {
      if (settled) return;
      settled = true;
      if ("error" in r && target) fs.rm(target, { force: true }, () => {});
      resolve(r);
    };
    const tooLarge = () => {
      // Closing the connection (see sendJson) is what stops the client; the rest is never read.
      req.unpipe();
      req.pause();
      finish({ status: 413, error: `Upload too large: the limit is ${max} bytes. Submissions larger than that cannot be validated.`, bytes });
    };
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: max, fields: 20, fieldSize: Math.min(max, 16 << 20), parts: 40, headerPairs: 100 },
      });
    } catch {
      finish({ status: 400, error: `The multipart body could not be parsed. ${USAGE}`, bytes });
      return;
    }
    req.on("data", (c: Buffer) => {
      bytes += c.length;
      // The other parts may not smuggle in more than the file could carry.
      if (bytes > max + (1 << 20) && !settled) tooLarge();
    });
    const open = (): string => {
      target = path.join(uploads, `u-${++uploadSeq}`);
      return target;
    };
    bb.on("file", (name, stream) => {
      if (name !== "file" || target !== null) {
        stream.resume();
        return;
      }
      const out = fs.createWriteStream(open(), { flags: "wx", mode: 0o600 });
      writing = new Promise((done, fail) => {
        out.on("finish", done);
        out.on("error", fail);
      });
      stream.on("limit", tooLarge);
      stream.pipe(out);
    });
    bb.on("field", (name, value, info) => {
      if (name !== "file" || target !== null) return;
      if (info.valueTruncated) {
        tooLarge();
        return;
      }
      const file = open();
      writing = fs.promises.writeFile(file, value, { flag: "wx", mode: 0o600 });
    });
    bb.on("error", () => finish({ status: 400, error: `The multipart body could not be parsed. ${USAGE}`, bytes }));
    bb.on("close", () => {
      writing.then(
        () => finish(target ? { file: target, bytes } : { status: 400, error: `No "file" field in the upload. ${USAGE}`, bytes }),
        () => finish({ status: 500, error: "The upload could not be stored.", bytes }),
      );
    });
    req.on("aborted", () => finish({ status: 400, error: "The client closed the connection during the upload.", bytes }));
    req.pipe(bb);
  });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, route: string): Promise<Answered> {
  const method = ROUTES[route];
  if (method === undefined) {
    sendJson(res, 404, { error: `Not found: ${route}. Routes: GET /health, POST /validate.` });
    return { status: 404, bytes: 0, valid: null };
  }
  if (req.method !== method) {
    res.setHeader("Allow", method);
    sendJson(res, 405, { error: `Method ${req.method} not allowed on ${route}; use ${method}.` });
    return { status: 405, bytes: 0, valid: null };
  }
  if (route === "/health") {
    sendJson(res, 200, { status: "running" });
    return { status: 200, bytes: 0, valid: null };
  }
  if (!/^multipart\/form-data\s*;/i.test(req.headers["content-type"] ?? "")) {
    sendJson(res, 400, { error: `Expected a multipart/form-data request. ${USAGE}` });
    return { status: 400, bytes: 0, valid: null };
  }
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > config.maxUploadBytes + (1 << 20)) {
    // Closing the connection is what stops the client's upload; the body is never read.
    sendJson(res, 413, { error: `Upload too large: the limit is ${config.maxUploadBytes} bytes. Submissions larger than that cannot be validated.` }, true);
    return { status: 413, bytes: declared, valid: null };
  }
  const upload = await receiveUpload(req, config.maxUploadBytes);
  if ("error" in upload) {
    sendJson(res, upload.status, { error: upload.error }, upload.status === 413);
    return { status: upload.status, bytes: upload.bytes, valid: null };
  }
  try {
    // Taken in the order uploads arrive, so each is compared with the one received before it.
    const fingerprint = await fingerprints.fingerprint(upload.file).catch(() => null);
    const verdict = await grader.judge(upload.file);
    if ("error" in verdict) {
      sendJson(res, verdict.status, { error: verdict.error });
      return { status: verdict.status, bytes: upload.bytes, valid: null, fingerprint };
    }
    sendJson(res, 200, { result: verdictText(verdict) });
    return { status: 200, bytes: upload.bytes, valid: verdict.valid, fingerprint };
  } finally {
    fs.rm(upload.file, { force: true }, () => {});
  }
}

const server = http.createServer({ requestTimeout: config.uploadTimeoutMs, headersTimeout: 30_000 }, (req, res) => {
  requests++;
  let route: string;
  try {
    route = new URL(req.url ?? "/", "http://localhost").pathname;
  } catch {
    route = req.url ?? "/";
  }
  if (route === "/validate" && active >= config.maxConcurrent) {
    res.setHeader("Retry-After", "1");
    sendJson(res, 503, { error: `Busy: ${config.maxConcurrent} validations are already running; retry in a moment.` }, true);
    logLine(route, { status: 503, bytes: 0, valid: null });
    return;
  }
  if (route === "/validate") active++;
  handle(req, res, route)
    .catch((): Answered => {
      // No details: an exception text could carry paths or data the agent must not see.
      sendJson(res, 500, { error: "An unexpected error occurred." });
      return { status: 500, bytes: 0, valid: null };
    })
    .then((a) => {
      if (route === "/validate") active--;
      logLine(route, a);
    });
});
// Past this many open connections new ones are closed at once: a flood only blocks its own run.
server.maxConnections = config.maxConnections;
server.keepAliveTimeout = 5_000;

let closing = false;
function shutdown(code: number): void {
  if (closing) return;
  closing = true;
  grader.close();
  server.close();
  server.closeAllConnections();
  fs.rmSync(config.socketPath, { force: true });
  fs.rmSync(uploads, { recursive: true, force: true });
  process.exit(code);
}

process.on("message", (m: ParentMessage) => {
  if (m.type === "count") send({ type: "count", id: m.id, requests });
  else if (m.type === "close") shutdown(0);
});
// Without its harness this server has no one to serve.
process.on("disconnect", () => shutdown(0));

listenOnSocket(server, config.socketPath).then(
  () => send({ type: "ready" }),
  (e: Error) => {
    send({ type: "failed", message: `cannot listen on ${config.socketPath}: ${e.message}` });
    process.exit(1);
  },
);
