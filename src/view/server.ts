/**
 * `mlebench view`'s HTTP server: the page, its script and a JSON API over run groups. It binds to
 * loopback by default and accepts only its own Host names there (so another site cannot reach it
 * through DNS rebinding); bound elsewhere, every request must carry the token. Nothing it sends
 * loads anything from another origin.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { findGroups, type ViewGroup } from "./groups.js";
import { groupView, LOG_FILES, MAX_RANGE_BYTES, readLogRange, runView, taskOf, type LogFile } from "./data.js";
import { callEntry, callPage, MAX_CALLS_PAGE } from "./llm-calls.js";
import { PAGE, SCRIPT } from "./page.js";

/** Options of {@link startViewServer}. */
export interface ViewOptions {
  roots: string[];
  host: string;
  port: number;
  /** Required on every request when set; made up when binding beyond loopback and none is given. */
  token?: string;
  warn?: (m: string) => void;
}

/** A running viewer. */
export interface ViewServer {
  url: string;
  port: number;
  token: string | null;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** Whether a host name or address is this machine's loopback. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

const SECURITY_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

function send(res: http.ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

const json = (res: http.ServerResponse, status: number, value: unknown) => send(res, status, "application/json; charset=utf-8", JSON.stringify(value));

function tokenMatches(given: string | null, token: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Start the viewer; resolves once it listens. */
export async function startViewServer(opts: ViewOptions): Promise<ViewServer> {
  const warn = opts.warn ?? (() => {});
  const token = opts.token ?? (isLoopback(opts.host) ? null : randomBytes(18).toString("base64url"));
  // Fails early, with the message, on a root that holds no group.
  findGroups(opts.roots, warn);
  const lookup = (id: string): ViewGroup | undefined => findGroups(opts.roots, warn).find((g) => g.id === id);
  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://viewer");
    if (req.method !== "GET") return json(res, 405, { error: `${req.method} is not allowed; the viewer only reads` });
    if (isLoopback(opts.host) && !allowedHosts().has(req.headers.host ?? "")) return json(res, 403, { error: "unexpected Host header" });
    if (token !== null) {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null;
      if (!tokenMatches(url.searchParams.get("token") ?? bearer, token)) return json(res, 401, { error: "a valid token is needed (?token=…)" });
    }
    const parts = url.pathname.split("/").filter(Boolean).map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return "\0";
      }
    });
    try {
      if (parts.length === 0) return send(res, 200, "text/html; charset=utf-8", PAGE);
      if (parts.length === 1 && parts[0] === "app.js") return send(res, 200, "text/javascript; charset=utf-8", SCRIPT);
      if (parts[0] !== "api") return json(res, 404, { error: `no such page: ${url.pathname}` });
      if (parts.length === 2 && parts[1] === "groups") return json(res, 200, findGroups(opts.roots, warn).map((g) => { const v = groupView(g); return { id: v.id, run_group: v.run_group, agent_id: v.agent_id, created_at: v.created_at, totals: v.totals }; }));
      if (parts[1] !== "groups" || parts.length < 3) return json(res, 404, { error: `no such API: ${url.pathname}` });
      const g = lookup(parts[2]);
      if (!g) return json(res, 404, { error: `no run group "${parts[2]}"` });
      if (parts.length === 3) return json(res, 200, groupView(g));
      if (parts[3] !== "runs" || parts.length < 5) return json(res, 404, { error: `no such API: ${url.pathname}` });
      const task = taskOf(g, parts[4]);
      if (!task) return json(res, 404, { error: `run group "${g.id}" has no run "${parts[4]}"` });
      if (parts.length === 5) return json(res, 200, runView(g, task));
      if (parts.length === 7 && parts[5] === "logs") {
        const name = parts[6] as LogFile;
        if (!LOG_FILES.includes(name)) return json(res, 404, { error: `no log "${parts[6]}"; logs: ${LOG_FILES.join(", ")}` });
        const offset = Number(url.searchParams.get("offset") ?? "0");
        const limit = Number(url.searchParams.get("limit") ?? String(MAX_RANGE_BYTES));
        if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(limit) || limit < 0) return json(res, 400, { error: "offset and limit must be whole numbers ≥ 0" });
        const range = readLogRange(g, task, name, offset, limit);
        return json(res, "error" in range ? 404 : 200, range);
      }
      if (parts[5] === "llm" && (parts.length === 6 || parts.length === 7)) {
        const runDir = path.join(g.dir, task.run_id);
        if (parts.length === 7) {
          const i = Number(parts[6]);
          if (!Number.isSafeInteger(i) || i < 0) return json(res, 400, { error: "a call is named by its index, a whole number ≥ 0" });
          const one = callEntry(runDir, i);
          return json(res, "error" in one ? 404 : 200, one);
        }
        const from = Number(url.searchParams.get("from") ?? "0");
        const limit = Number(url.searchParams.get("limit") ?? String(MAX_CALLS_PAGE));
        if (!Number.isSafeInteger(from) || from < 0 || !Number.isSafeInteger(limit) || limit < 0) return json(res, 400, { error: "from and limit must be whole numbers ≥ 0" });
        const page = callPage(runDir, from, limit);
        return json(res, "error" in page ? 404 : 200, page);
      }
      return json(res, 404, { error: `no such API: ${url.pathname}` });
    } catch (e) {
      warn(`view: ${url.pathname}: ${(e as Error).message}`);
      return json(res, 500, { error: "the viewer could not read this" });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${port}/${token !== null ? `?token=${token}` : ""}`,
    port,
    token,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
