/**
 * An allow-list HTTP proxy on a Unix socket. Sandboxes have no network; agents that call LLM
 * APIs themselves get HTTPS_PROXY=http://127.0.0.1:3128, which init.mjs forwards here, so the
 * only hosts they can reach are the ones the run's configuration names.
 */
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { builtSibling } from "../core/built.js";
import { startServiceProcess } from "./service-process.js";
import { listenOnSocket } from "./socket.js";

/** A running egress proxy. */
export interface EgressProxy {
  socketPath: string;
  /** Stop listening, cut open tunnels and remove the socket file. */
  close(): Promise<void>;
}

/** Options of {@link startEgressProxy}. */
export interface EgressProxyOptions {
  socketPath: string;
  /** Entries: `host`, `host:port`, `*.suffix` or `*.suffix:port`. */
  allow: string[];
  /** Append one JSON line per connection attempt here. */
  logFile?: string;
  /** Open client connections at once; more are closed as they arrive (default 256). */
  maxConnections?: number;
}

/** One parsed allow-list entry; port null means "the scheme's default port". */
export interface AllowRule {
  host: string;
  wildcard: boolean;
  port: number | null;
}

/** Parse an allow-list entry, or throw saying what form is expected. */
export function parseAllowEntry(entry: string): AllowRule {
  let text = entry.trim().toLowerCase();
  let port: number | null = null;
  const m = /^(.*):(\d+)$/.exec(text);
  if (m) {
    port = Number(m[2]);
    text = m[1];
    if (!(port >= 1 && port <= 65535)) throw new Error(`Egress allow entry "${entry}": port must be 1-65535.`);
  }
  const wildcard = text.startsWith("*.");
  const host = stripDot(wildcard ? text.slice(2) : text);
  if (!host || !/^[a-z0-9_.-]+$/.test(host) || host.startsWith(".") || host.includes("..")) {
    throw new Error(
      `Egress allow entry "${entry}" is not valid; use host, host:port, *.suffix or *.suffix:port ` +
        `(e.g. api.openai.com or *.anthropic.com:443).`,
    );
  }
  return { host, wildcard, port };
}

function stripDot(host: string): string {
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

/**
 * Whether `host:port` is allowed. Entries without a port allow only `defaultPort` (443 for
 * CONNECT, 80 for plain http), so an entry meant for an API cannot open arbitrary ports.
 */
export function isAllowed(host: string, port: number, allow: string[], defaultPort = 443): boolean {
  const h = stripDot(host.trim().toLowerCase());
  if (!h) return false;
  return allow.some((entry) => {
    let rule: AllowRule;
    try {
      rule = parseAllowEntry(entry);
    } catch {
      return false;
    }
    if ((rule.port ?? defaultPort) !== port) return false;
    // Label-wise suffix match: "*.openai.com" must not match "evil-openai.com" nor "openai.com".
    return rule.wildcard ? h.endsWith("." + rule.host) : h === rule.host;
  });
}

/** Split a CONNECT target "host:port" or "[v6]:port"; null when malformed. */
function splitTarget(target: string): { host: string; port: number } | null {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(target) ?? /^([^:[\]]+):(\d+)$/.exec(target);
  if (!m) return null;
  const port = Number(m[2]);
  if (!(port >= 1 && port <= 65535)) return null;
  return { host: m[1], port };
}

function denial(host: string, port: number): string {
  return (
    `Egress to ${host}:${port} is blocked by the benchmark's network allow-list. ` +
    `To allow it, pass --allow-host ${host}:${port} or add "${host}:${port}" to network.allow in the agent config.\n`
  );
}

// Headers that describe one hop, not the request; forwarding them would confuse the origin.
const HOP_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Start the proxy on a Unix socket the sandbox's (non-root) user can connect to. */
export async function startEgressProxy(opts: EgressProxyOptions): Promise<EgressProxy> {
  // Fail at startup on a typo rather than silently denying everything at run time.
  for (const entry of opts.allow) parseAllowEntry(entry);
  const allow = [...opts.allow];
  const tunnels = new Set<Duplex>();

  const log = (host: string, port: number, allowed: boolean) => {
    if (!opts.logFile) return;
    const line = JSON.stringify({ time: new Date().toISOString(), host, port, allowed });
    fs.promises.appendFile(opts.logFile, line + "\n").catch(() => {});
  };

  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400, { "Content-Type": "text/plain" });
      res.end("This is an HTTP proxy: send absolute-form requests (http://host/path) or CONNECT host:port.\n");
      return;
    }
    if (url.protocol !== "http:") {
      res.writeHead(400, { "Content-Type": "text/plain" });
      res.end(`Only http:// URLs can be proxied directly; use CONNECT for ${url.protocol}// URLs.\n`);
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const port = url.port ? Number(url.port) : 80;
    const allowed = isAllowed(host, port, allow, 80);
    log(host, port, allowed);
    if (!allowed) {
      res.writeHead(403, { "Content-Type": "text/plain" });
      res.end(denial(host, port));
      return;
    }
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP_HEADERS.has(k) && v !== undefined) headers[k] = v;
    const upstream = http.request(
      { host, port, method: req.method, path: url.pathname + url.search, headers },
      (up) => {
        const out: http.OutgoingHttpHeaders = {};
        for (const [k, v] of Object.entries(up.headers)) if (!HOP_HEADERS.has(k) && v !== undefined) out[k] = v;
        res.writeHead(up.statusCode ?? 502, up.statusMessage, out);
        up.pipe(res);
      },
    );
    upstream.on("error", (e) => {
      if (!res.headersSent) {
        res.writeHead(502, { "Content-Type": "text/plain" });
        res.end(`Could not reach ${host}:${port}: ${e.message}\n`);
      } else res.destroy();
    });
    req.pipe(upstream);
  });

  server.on("connect", (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    tunnels.add(client);
    client.on("close", () => tunnels.delete(client));
    client.on("error", () => {});
    const target = splitTarget(req.url ?? "");
    if (!target) {
      client.end("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n" +
        "CONNECT needs a host:port target.\n");
      return;
    }
    const { host, port } = target;
    const allowed = isAllowed(host, port, allow, 443);
    log(host, port, allowed);
    if (!allowed) {
      const head403 = "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n";
      client.end(head403 + denial(host, port));
      return;
    }
    const upstream = net.connect({ host, port });
    tunnels.add(upstream);
    upstream.on("close", () => tunnels.delete(upstream));
    let connected = false;
    upstream.once("connect", () => {
      connected = true;
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", (e) => {
      if (!connected) {
        client.end(`HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n` +
          `Could not connect to ${host}:${port}: ${e.message}\n`);
      } else client.destroy();
    });
    // A vanished client must not leave an upstream connection open; the other direction is
    // handled by pipe(), which ends the client only after its pending bytes are written.
    client.on("close", () => upstream.destroy());
  });

  // Past this many open connections new ones are closed at once: a flood only blocks its own run.
  server.maxConnections = opts.maxConnections ?? 256;
  await listenOnSocket(server, opts.socketPath);

  let closed: Promise<void> | null = null;
  return {
    socketPath: opts.socketPath,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of tunnels) s.destroy();
      }).then(() => fs.rmSync(opts.socketPath, { force: true }));
      return closed;
    },
  };
}

/** Options of {@link startEgressProcess}: the proxy's, plus the process it runs in. */
export interface EgressProcessOptions extends EgressProxyOptions {
  /** The run's memory limit, bytes: the proxy's process gets a memory cgroup of that size where cgroups are writable. */
  memoryBytes?: number | null;
  /** Name of that cgroup. */
  cgroupName?: string;
  /** Lines worth the run's log. */
  log?: (line: string) => void;
}

/** The proxy as a process of its own (egress-child.ts), so no tunnel flood reaches the harness's event loop. */
export async function startEgressProcess(opts: EgressProcessOptions): Promise<EgressProxy> {
  // A typo is refused here, before a process is started for it.
  for (const entry of opts.allow) parseAllowEntry(entry);
  const { memoryBytes, cgroupName, log, ...proxy } = opts;
  const service = await startServiceProcess({
    name: "egress proxy",
    entry: builtSibling(import.meta.url, "egress-child.js"),
    config: proxy,
    heapMb: 256,
    cgroup: cgroupName && memoryBytes ? { name: cgroupName, memoryBytes } : undefined,
    log,
  });
  let closed: Promise<void> | null = null;
  return {
    socketPath: opts.socketPath,
    close() {
      closed ??= service.close().then(() => fs.rmSync(opts.socketPath, { force: true }));
      return closed;
    },
  };
}
