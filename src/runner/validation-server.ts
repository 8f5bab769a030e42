/**
 * The submission validation server agents reach from inside the sandbox (upstream MLE-bench's
 * `validate_submission.sh` endpoint). It runs the real grader so format errors are reported in
 * the grader's own words, but it only ever says "valid" or "invalid": the score, and anything
 * derived from it, must not leak to the agent.
 */
import fs from "node:fs";
import http from "node:http";
import type { Answers, Competition } from "../core/competition.js";
import { CsvParseError, InvalidSubmissionError } from "../core/errors.js";
import { parseCsv } from "../io/csv-read.js";
import { listenOnSocket } from "./socket.js";

/** A running validation server. */
export interface ValidationServer {
  socketPath: string;
  /** Requests answered so far (any route), for run statistics. */
  requests(): number;
  /** Stop listening, drop open connections and remove the socket file. */
  close(): Promise<void>;
}

/** Options of {@link startValidationServer}. */
export interface ValidationServerOptions {
  socketPath: string;
  competition: Competition;
  answers: Answers;
  /** Largest accepted request body, bytes (default 256 MiB). */
  maxUploadBytes?: number;
  /** Append one JSON line per request here (never the score). */
  logFile?: string;
  /** Validations buffered at once; more are answered 503 (default 4), so uploads cannot exhaust the harness's memory. */
  maxConcurrent?: number;
}

/** Upstream's wording, kept verbatim because agents' prompts and parsers expect it. */
export const VALID_MESSAGE = "Submission is valid.";
/** Upstream's prefix of an invalid verdict; the grader's reason follows it. */
export const INVALID_PREFIX =
  "Submission invalid! The attempt to grade the submission has resulted in the following error message:\n";

const DEFAULT_MAX_UPLOAD = 256 * 1024 * 1024;
const USAGE = 'Send the submission as multipart/form-data in a field named "file", e.g. ' +
  'curl -X POST -F "file=@submission.csv" http://localhost:5000/validate';

/** Routes and the one method each accepts. */
const ROUTES: Record<string, string> = { "/health": "GET", "/validate": "POST" };

/** Outcome of one request, for the log line. */
interface Answered {
  status: number;
  bytes: number;
  valid: boolean | null;
}

/** Whether a submission passes the grader; the reason is the grader's message, never a score. */
export function judgeSubmission(
  competition: Competition,
  answers: Answers,
  bytes: Uint8Array,
): { valid: true } | { valid: false; reason: string } {
  let table;
  try {
    // A fixed neutral name: error messages must not reveal host paths or echo the upload's name.
    table = parseCsv(bytes, { file: "submission.csv" });
  } catch (e) {
    const msg = e instanceof CsvParseError ? e.message : `could not read it (${errorText(e)})`;
    return { valid: false, reason: `Submission is not a readable CSV: ${msg}` };
  }
  try {
    competition.grade(table, answers);
    return { valid: true };
  } catch (e) {
    if (e instanceof InvalidSubmissionError) return { valid: false, reason: e.message };
    return { valid: false, reason: `Submission could not be scored: ${errorText(e)}` };
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Start the server on a Unix socket that the sandbox's (non-root) user can connect to. */
export async function startValidationServer(opts: ValidationServerOptions): Promise<ValidationServer> {
  const maxUpload = opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD;
  const maxConcurrent = opts.maxConcurrent ?? 4;
  let count = 0;
  let active = 0;

  const log = (route: string, a: Answered) => {
    if (!opts.logFile) return;
    const time = new Date().toISOString();
    const line = JSON.stringify({ time, route, status: a.status, bytes: a.bytes, valid: a.valid });
    // Logging must never break validation, so write failures are dropped.
    fs.promises.appendFile(opts.logFile, line + "\n").catch(() => {});
  };

  const server = http.createServer((req, res) => {
    count++;
    let route = "/";
    try {
      route = new URL(req.url ?? "/", "http://localhost").pathname;
    } catch {
      route = req.url ?? "/";
    }
    if (route === "/validate" && active >= maxConcurrent) {
      res.setHeader("Connection", "close");
      res.setHeader("Retry-After", "1");
      sendJson(res, 503, { error: `Busy: ${maxConcurrent} validations are already running; retry in a moment.` });
      log(route, { status: 503, bytes: 0, valid: null });
      return;
    }
    if (route === "/validate") active++;
    handle(req, res, route, opts.competition, opts.answers, maxUpload)
      .finally(() => {
        if (route === "/validate") active--;
      })
      .catch((): Answered => {
        // No details: an exception text could carry paths or data the agent must not see.
        if (!res.headersSent) sendJson(res, 500, { error: "An unexpected error occurred." });
        else res.destroy();
        return { status: 500, bytes: 0, valid: null };
      })
      .then((a) => log(route, a));
  });

  await listenOnSocket(server, opts.socketPath);

  let closed: Promise<void> | null = null;
  return {
    socketPath: opts.socketPath,
    requests: () => count,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => fs.rmSync(opts.socketPath, { force: true }));
      return closed;
    },
  };
}

async function handle(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  route: string,
  competition: Competition,
  answers: Answers,
  maxUpload: number,
): Promise<Answered> {
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

  const contentType = req.headers["content-type"] ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    sendJson(res, 400, { error: `Expected a multipart/form-data request. ${USAGE}` });
    return { status: 400, bytes: 0, valid: null };
  }
  const body = await readBounded(req, maxUpload);
  if (body.tooLarge) {
    // Closing the connection is what stops the client's upload; the rest is never read.
    res.setHeader("Connection", "close");
    sendJson(res, 413, {
      error: `Upload too large: the limit is ${maxUpload} bytes. Submissions larger than that cannot be validated.`,
    });
    return { status: 413, bytes: body.bytes, valid: null };
  }

  let form: FormData;
  try {
    form = await new Request("http://localhost/validate", {
      method: "POST",
      headers: { "content-type": contentType },
      body: body.data,
    }).formData();
  } catch {
    sendJson(res, 400, { error: `The multipart body could not be parsed. ${USAGE}` });
    return { status: 400, bytes: body.bytes, valid: null };
  }
  const field = form.get("file");
  if (field === null) {
    sendJson(res, 400, { error: `No "file" field in the upload. ${USAGE}` });
    return { status: 400, bytes: body.bytes, valid: null };
  }
  // The upload's filename is deliberately ignored: only its bytes matter.
  const bytes = typeof field === "string" ? Buffer.from(field, "utf8") : new Uint8Array(await field.arrayBuffer());
  const verdict = judgeSubmission(competition, answers, bytes);
  const result = verdict.valid ? VALID_MESSAGE : INVALID_PREFIX + verdict.reason;
  sendJson(res, 200, { result });
  return { status: 200, bytes: body.bytes, valid: verdict.valid };
}

type BoundedBody = { tooLarge: false; data: Buffer; bytes: number } | { tooLarge: true; bytes: number };

/** Collect a request body, giving up (without buffering the rest) once it exceeds `max` bytes. */
function readBounded(req: http.IncomingMessage, max: number): Promise<BoundedBody> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ tooLarge: true, bytes: declared });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > max) {
        settled = true;
        req.off("data", onData);
        req.pause();
        resolve({ tooLarge: true, bytes: total });
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => {
      if (settled) return;
      settled = true;
      resolve({ tooLarge: false, data: Buffer.concat(chunks, total), bytes: total });
    });
    req.once("error", (e) => {
      if (settled) return;
      settled = true;
      reject(e);
    });
    req.once("close", () => {
      if (settled) return;
      settled = true;
      reject(new Error("client closed the connection during the upload"));
    });
  });
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}
