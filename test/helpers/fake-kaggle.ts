/**
 * A fake Kaggle (or storage) HTTP server on 127.0.0.1 for tests: each path gets a handler, and
 * every request is recorded so tests can check what was sent where.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the fake server saw it. */
export interface RecordedRequest {
  method: string;
  /** Path plus query string, as sent. */
  url: string;
  pathname: string;
  headers: http.IncomingHttpHeaders;
}

/** Handles one request; `hit` counts requests to this path, from 1, so handlers can fail first and succeed later. */
export type FakeHandler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  hit: number,
) => void | Promise<void>;

/** A running fake server. */
export interface FakeServer {
  /** Origin, e.g. http://127.0.0.1:40123. */
  origin: string;
  requests: RecordedRequest[];
  /** Set (or replace) the handler for an exact pathname. */
  on(pathname: string, handler: FakeHandler): void;
  /** Requests whose pathname is `pathname`. */
  requestsTo(pathname: string): RecordedRequest[];
  /** Forget handlers, hit counts and recorded requests between tests. */
  reset(): void;
  close(): Promise<void>;
}

/** Start a fake server on an ephemeral port; unknown paths get a Kaggle-style 404. */
export async function startFakeServer(): Promise<FakeServer> {
  const handlers = new Map<string, FakeHandler>();
  const hits = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://x").pathname;
    requests.push({ method: req.method ?? "GET", url: req.url ?? "/", pathname, headers: req.headers });
    const hit = (hits.get(pathname) ?? 0) + 1;
    hits.set(pathname, hit);
    const handler = handlers.get(pathname);
    if (!handler) {
      sendJson(res, 404, { code: 404, message: "Not found" });
      return;
    }
    Promise.resolve(handler(req, res, hit)).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { code: 500, message: String(err) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    on: (pathname, handler) => void handlers.set(pathname, handler),
    requestsTo: (pathname) => requests.filter((r) => r.pathname === pathname),
    reset() {
      handlers.clear();
      hits.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answer with a JSON body. */
export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** How {@link sendFile} serves bytes. */
export interface SendFileOptions {
  /** Answer `Range: bytes=N-` with 206; otherwise Range is ignored and the whole file sent with 200. */
  supportRange?: boolean;
  /** Declare the full Content-Length but close the connection after this many body bytes. */
  cutAfter?: number;
  /** Called after the first part of a cut body is on the wire, before the connection closes. */
  beforeCut?: () => void | Promise<void>;
  headers?: Record<string, string>;
}

/** Serve `data` as a download, optionally honouring Range and optionally cutting the body short. */
export async function sendFile(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  data: Buffer,
  options: SendFileOptions = {},
): Promise<void> {
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
  let body = data;
  if (options.supportRange && range) {
    const start = Number(range[1]);
    if (start >= data.length) {
      res.writeHead(416, { "content-range": `bytes */${data.length}` });
      res.end();
      return;
    }
    body = data.subarray(start);
    res.writeHead(206, {
      "content-type": "application/zip",
      "content-length": String(body.length),
      "content-range": `bytes ${start}-${data.length - 1}/${data.length}`,
      ...options.headers,
    });
  } else {
    res.writeHead(200, {
      "content-type": "application/zip",
      "content-length": String(body.length),
      "accept-ranges": options.supportRange ? "bytes" : "none",
      ...options.headers,
    });
  }
  if (options.cutAfter === undefined || options.cutAfter >= body.length) {
    res.end(body);
    return;
  }
  await new Promise<void>((resolve) => res.write(body.subarray(0, options.cutAfter), () => resolve()));
  await options.beforeCut?.();
  // A half-close (FIN after the bytes already written) rather than a reset, which can discard bytes the
  // client has not read yet under load; the client still sees the body end short of Content-Length.
  await new Promise((resolve) => setTimeout(resolve, 30));
  res.socket?.end();
}
