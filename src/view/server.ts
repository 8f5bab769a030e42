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
import { findGroups, type ViewGroup, type ViewRun } from "./groups.js";
import { groupView, LOG_FILES, MAX_RANGE_BYTES, readLogRange, runView, taskOf, type LogFile } from "./data.js";
import { callEntry, callPage, MAX_CALLS_PAGE } from "./llm-calls.js";
import { codeVersions, diffCode, finalCodeRef, previousRef, readCode } from "./code.js";
import { searchRuns, type SearchQuery } from "./search.js";
import { aideTree, researchSteps } from "./trajectory.js";
import { runIntegrity, runSnapshots, runTimeline } from "./run-details.js";
import { groupsReport } from "./report.js";
import { SnapshotScorer } from "./snapshots.js";
import { UserError } from "../core/errors.js";
import { PAGE, SCRIPT } from "./page.js";

/** Options of {@link startViewServer}. */
export interface ViewOptions {
  roots: string[];
  host: string;
  port: number;
  /** Required on every request when set; made up when binding beyond loopback and none is given. */
  token?: string;
  /** Where answers are, to grade snapshots and to report; null: snapshots are listed ungraded and no report is made. */
  dataDir?: string | null;
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
  const scorer = new SnapshotScorer(opts.dataDir ?? null);
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
    if (parts.length === 0) return send(res, 200, "text/html; charset=utf-8", PAGE);
    if (parts.length === 1 && parts[0] === "app.js") return send(res, 200, "text/javascript; charset=utf-8", SCRIPT);
    if (parts[0] !== "api") return json(res, 404, { error: `no such page: ${url.pathname}` });
    api(parts.slice(1), url.searchParams)
      .then(([status, value]) => json(res, status, value))
      .catch((e: unknown) => {
        if (e instanceof UserError) return json(res, 400, { error: e.message });
        warn(`view: ${url.pathname}: ${(e as Error).message}`);
        return json(res, 500, { error: "the viewer could not read this" });
      });
  });

  type Answer = [number, unknown];
  const notFound = (what: string): Answer => [404, { error: what }];
  const orError = (v: object): Answer => ["error" in v ? 404 : 200, v];
  const wholeParam = (q: URLSearchParams, name: string, dflt: number): number => {
    const v = Number(q.get(name) ?? String(dflt));
    if (!Number.isSafeInteger(v) || v < 0) throw new UserError(`${name} must be a whole number ≥ 0`);
    return v;
  };
  /** A run named by group id and run id, both checked against the groups' own lists. */
  const runOf = (groupId: string | null, runId: string | null): { g: ViewGroup; task: ViewRun; runDir: string } | string => {
    const g = groupId === null ? undefined : lookup(groupId);
    if (!g) return `no run group "${groupId ?? ""}"`;
    const task = runId === null ? null : taskOf(g, runId);
    if (!task) return `run group "${g.id}" has no run "${runId ?? ""}"`;
    return { g, task, runDir: path.join(g.dir, task.run_id) };
  };

  async function api(p: string[], q: URLSearchParams): Promise<Answer> {
    if (p.length === 1 && p[0] === "groups") return [200, findGroups(opts.roots, warn).map((g) => { const v = groupView(g); return { id: v.id, kind: v.kind, run_group: v.run_group, agent_id: v.agent_id, created_at: v.created_at, totals: v.totals }; })];
    if (p.length === 1 && p[0] === "report") {
      if (opts.dataDir === null || opts.dataDir === undefined) return notFound("no data dir was given, so no report is made");
      const wanted = q.get("groups");
      const all = findGroups(opts.roots, warn);
      const chosen = wanted === null ? all : wanted.split(",").map((id) => all.find((g) => g.id === id) ?? id);
      const unknown = chosen.find((g): g is string => typeof g === "string");
      if (unknown !== undefined) return notFound(`no run group "${unknown}"`);
      return orError(await groupsReport(chosen as ViewGroup[], opts.dataDir));
    }
    if (p.length === 1 && p[0] === "search") {
      const query: SearchQuery = { text: q.get("q") ?? "", in: (q.get("in") ?? "code") as SearchQuery["in"], retried: q.get("retried") === "1", limit: q.has("limit") ? wholeParam(q, "limit", 200) : undefined };
      return [200, searchRuns(findGroups(opts.roots, warn), query)];
    }
    if (p.length === 1 && p[0] === "diff") {
      const a = runOf(q.get("ag"), q.get("ar"));
      if (typeof a === "string") return notFound(a);
      const aRef = q.get("aref") ?? finalCodeRef(a.runDir, a.g.kind);
      if (aRef === null) return notFound(`run "${a.task.run_id}" has no code to compare`);
      let b = a;
      let bRef: string | null;
      if (q.has("bg") || q.has("br")) {
        const other = runOf(q.get("bg"), q.get("br"));
        if (typeof other === "string") return notFound(other);
        b = other;
        bRef = q.get("bref") ?? finalCodeRef(b.runDir, b.g.kind);
      } else bRef = q.get("bref") ?? previousRef(a.runDir, a.g.kind, aRef);
      if (bRef === null) return notFound(`no version to compare ${aRef} with`);
      // Shown as the change from b (the earlier or other version) to a.
      return orError(diffCode({ runDir: b.runDir, kind: b.g.kind, ref: bRef }, { runDir: a.runDir, kind: a.g.kind, ref: aRef }));
    }
    if (p[0] !== "groups" || p.length < 2) return notFound(`no such API: /api/${p.join("/")}`);
    const g = lookup(p[1]);
    if (!g) return notFound(`no run group "${p[1]}"`);
    if (p.length === 2) return [200, groupView(g)];
    if (p[2] !== "runs" || p.length < 4) return notFound(`no such API: /api/${p.join("/")}`);
    const task = taskOf(g, p[3]);
    if (!task) return notFound(`run group "${g.id}" has no run "${p[3]}"`);
    const runDir = path.join(g.dir, task.run_id);
    if (p.length === 4) return [200, { ...runView(g, task), integrity: runIntegrity(g, task) }];
    const what = p[4];
    // A log below logs/ may itself be in a folder (agent/main_log), sent as one segment or two.
    if (what === "logs" && (p.length === 6 || p.length === 7)) {
      const name = p.slice(5).join("/") as LogFile;
      if (!LOG_FILES.includes(name)) return notFound(`no log "${name}"; logs: ${LOG_FILES.join(", ")}`);
      return orError(readLogRange(g, task, name, wholeParam(q, "offset", 0), wholeParam(q, "limit", MAX_RANGE_BYTES)));
    }
    if (what === "llm" && p.length === 6) {
      const i = Number(p[5]);
      if (!Number.isSafeInteger(i) || i < 0) throw new UserError("a call is named by its index, a whole number ≥ 0");
      return orError(callEntry(runDir, i));
    }
    if (what === "llm" && p.length === 5) return orError(callPage(runDir, wholeParam(q, "from", 0), wholeParam(q, "limit", MAX_CALLS_PAGE)));
    if (p.length === 5 && what === "timeline") return [200, runTimeline(g, task)];
    if (p.length === 5 && what === "aide") return [200, g.kind === "mle" ? aideTree(runDir) : null];
    if (p.length === 5 && what === "steps") return [200, researchSteps(runDir, g.kind)];
    if (p.length === 5 && what === "snapshots") return [200, await runSnapshots(g, task, scorer)];
    if (what === "code" && p.length === 5) return [200, { final: finalCodeRef(runDir, g.kind), versions: codeVersions(runDir, g.kind) }];
    if (what === "code" && p.length > 5) {
      const ref = p.slice(5).join("/");
      const code = readCode(runDir, g.kind, ref);
      return "error" in code ? [404, code] : [200, { ...code, previous: previousRef(runDir, g.kind, ref) }];
    }
    return notFound(`no such API: /api/${p.join("/")}`);
  }

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
