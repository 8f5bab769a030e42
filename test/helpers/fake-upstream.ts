/**
 * Stand-ins for GitHub's raw-content host and Git LFS server on 127.0.0.1, so the upstream
 * fetcher can be tested without a network: every request is recorded, and each path can be
 * scripted to fail, flap or lie about its content.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { UPSTREAM_COMMIT, UPSTREAM_REPO } from "../../src/sources/upstream/index.js";

/** One request as the fake servers saw it. */
export interface FakeRequest {
  host: "raw" | "lfs";
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A scripted answer; "drop" closes the connection without any response, "hang" never answers. */
export type FakeReply = { status: number; body?: string | Buffer; headers?: Record<string, string> } | "drop" | "hang";

/** How the LFS host should treat one object. */
export interface FakeLfsObject {
  content: Buffer;
  /** Served by the download link instead of `content`, to simulate a corrupt transfer. */
  serve?: Buffer;
  /** Returned in the batch response instead of a download action. */
  batchError?: { code: number; message: string };
}

/** Both fake hosts and the scripts behind them. */
export interface FakeUpstream {
  rawUrl: string;
  lfsUrl: string;
  requests: FakeRequest[];
  /**
   * Script the raw host's answers for one file; the last reply repeats once the list runs out.
   * A string or Buffer is served as the body, except the words "drop" and "hang".
   */
  setRaw(competitionId: string, name: string, replies: string | Buffer | FakeReply | FakeReply[], commit?: string): void;
  /** Keep `content` on the LFS host and serve its pointer from the raw host; returns the pointer. */
  setLfs(
    competitionId: string,
    name: string,
    content: string | Buffer,
    extra?: Omit<FakeLfsObject, "content">,
  ): { oid: string; size: number; text: string };
  /** Requests so far, optionally only those to `host` whose path contains `pathPart`. */
  count(host?: "raw" | "lfs", pathPart?: string): number;
  close(): Promise<void>;
}

/** The raw-host path the fetcher asks for, for assertions. */
export function rawPath(competitionId: string, name: string, commit = UPSTREAM_COMMIT): string {
  return `/${UPSTREAM_REPO}/${commit}/mlebench/competitions/${competitionId}/${name}`;
}

/** The pointer file git would commit for `content`. */
export function lfsPointerFor(content: Buffer): { oid: string; size: number; text: string } {
  const oid = createHash("sha256").update(content).digest("hex");
  const text = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${content.length}\n`;
  return { oid, size: content.length, text };
}

function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}` });
    });
  });
}

function send(res: http.ServerResponse, reply: FakeReply): void {
  if (reply === "hang") return; // close() ends the connection.
  if (reply === "drop") {
    res.socket?.destroy();
    return;
  }
  res.writeHead(reply.status, reply.headers);
  res.end(reply.body ?? "");
}

function readAll(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Start both fake hosts on ephemeral ports. */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const requests: FakeRequest[] = [];
  const raw = new Map<string, FakeReply[]>();
  const objects = new Map<string, FakeLfsObject>();

  const rawHost = await listen(async (req, res) => {
    const body = await readAll(req);
    const p = req.url ?? "/";
    requests.push({ host: "raw", method: req.method ?? "", path: p, headers: req.headers, body });
    const script = raw.get(p);
    if (!script || script.length === 0) return send(res, { status: 404, body: "404: Not Found" });
    send(res, script.length > 1 ? script.shift()! : script[0]);
  });

  // Download links carry a per-object token so the test sees the batch API's headers forwarded.
  const token = (oid: string) => `RemoteAuth token-${oid.slice(0, 12)}`;

  const lfsHost = await listen(async (req, res) => {
    const body = await readAll(req);
    const p = req.url ?? "/";
    requests.push({ host: "lfs", method: req.method ?? "", path: p, headers: req.headers, body });
    if (req.method === "POST" && p === `/${UPSTREAM_REPO}.git/info/lfs/objects/batch`) {
      const asked = JSON.parse(body) as { objects: { oid: string; size: number }[] };
      const answer = asked.objects.map(({ oid, size }) => {
        const obj = objects.get(oid);
        if (!obj) return { oid, size, error: { code: 404, message: "Object does not exist" } };
        if (obj.batchError) return { oid, size, error: obj.batchError };
        return {
          oid,
          size,
          authenticated: true,
          actions: {
            download: { href: `${lfsHost.url}/objects/${oid}?sig=secret`, header: { Authorization: token(oid) }, expires_in: 3600 },
          },
        };
      });
      return send(res, {
        status: 200,
        headers: { "Content-Type": "application/vnd.git-lfs+json" },
        body: JSON.stringify({ transfer: "basic", objects: answer }),
      });
    }
    const m = /^\/objects\/([0-9a-f]{64})(\?.*)?$/.exec(p);
    if (req.method === "GET" && m) {
      const obj = objects.get(m[1]);
      if (!obj) return send(res, { status: 404 });
      if (req.headers.authorization !== token(m[1])) return send(res, { status: 401, body: "missing token" });
      return send(res, { status: 200, body: obj.serve ?? obj.content });
    }
    send(res, { status: 404 });
  });

  const toReplies = (r: string | Buffer | FakeReply | FakeReply[]): FakeReply[] => {
    if (r === "drop" || r === "hang") return [r];
    if (typeof r === "string" || Buffer.isBuffer(r)) return [{ status: 200, body: r }];
    return Array.isArray(r) ? [...r] : [r];
  };

  return {
    rawUrl: rawHost.url,
    lfsUrl: lfsHost.url,
    requests,
    setRaw(competitionId, name, replies, commit) {
      raw.set(rawPath(competitionId, name, commit), toReplies(replies));
    },
    setLfs(competitionId, name, content, extra = {}) {
      const buf = Buffer.isBuffer(content) ? content : Buffer.from(content, "utf8");
      const pointer = lfsPointerFor(buf);
      objects.set(pointer.oid, { content: buf, ...extra });
      raw.set(rawPath(competitionId, name), [{ status: 200, body: pointer.text }]);
      return pointer;
    },
    count(host, pathPart) {
      return requests.filter((r) => (!host || r.host === host) && (!pathPart || r.path.includes(pathPart))).length;
    },
    async close() {
      for (const { server } of [rawHost, lfsHost]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

/** A 127.0.0.1 URL on which nothing listens, for "connection refused". */
export async function closedPortUrl(): Promise<string> {
  const { server, url } = await listen(() => undefined);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return url;
}
