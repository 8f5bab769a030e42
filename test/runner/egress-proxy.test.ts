import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAllowed, parseAllowEntry, startEgressProxy, type EgressProxy } from "../../src/runner/egress-proxy.js";

let dir: string;
let logFile: string;
let echo: net.Server;
let echoPort: number;
let web: http.Server;
let webPort: number;
let closedPort: number;
let proxy: EgressProxy;

function listenTcp(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port)));
}

/** Send CONNECT through the proxy; returns the status line and the tunnel socket. */
function connect(target: string): Promise<{ status: number; socket: net.Socket; head: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: proxy.socketPath, method: "CONNECT", path: target });
    req.on("connect", (res: http.IncomingMessage, socket: net.Socket, head: Buffer) =>
      resolve({ status: res.statusCode ?? 0, socket, head }),
    );
    req.on("error", reject);
    req.end();
  });
}

function readAll(socket: net.Socket, head: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const chunks = [head];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

function proxiedGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: proxy.socketPath, method: "GET", path: url }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-egress-"));
  logFile = path.join(dir, "egress.log");
  echo = net.createServer((s) => s.pipe(s));
  echoPort = await listenTcp(echo);
  web = http.createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.end(`hello from ${req.url}`);
  });
  webPort = await listenTcp(web);
  const tmp = net.createServer();
  closedPort = await listenTcp(tmp);
  await new Promise<void>((r) => tmp.close(() => r()));
  proxy = await startEgressProxy({
    socketPath: path.join(dir, "egress.sock"),
    allow: [`127.0.0.1:${echoPort}`, `127.0.0.1:${webPort}`, `127.0.0.1:${closedPort}`, "*.openai.com"],
    logFile,
  });
});

afterAll(async () => {
  await proxy?.close();
  echo?.close();
  web?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("isAllowed", () => {
  const allow = ["*.openai.com", "api.anthropic.com", "example.org:8443", "*.internal.test:8080"];
  it.each([
    ["api.openai.com", 443, true],
    ["API.OpenAI.com", 443, true],
    ["api.openai.com.", 443, true],
    ["a.b.openai.com", 443, true],
    ["openai.com", 443, false],
    ["evil-openai.com", 443, false],
    ["api.openai.com.evil.net", 443, false],
    ["api.openai.com", 80, false],
    ["api.openai.com", 8443, false],
    ["api.anthropic.com", 443, true],
    ["x.api.anthropic.com", 443, false],
    ["anthropic.com", 443, false],
    ["example.org", 8443, true],
    ["example.org", 443, false],
    ["svc.internal.test", 8080, true],
    ["internal.test", 8080, false],
    ["", 443, false],
  ] as const)("%s:%d → %s", (host, port, expected) => {
    expect(isAllowed(host, port, [...allow])).toBe(expected);
  });

  it("uses port 80 for plain http entries without a port", () => {
    expect(isAllowed("api.anthropic.com", 80, ["api.anthropic.com"], 80)).toBe(true);
    expect(isAllowed("api.anthropic.com", 443, ["api.anthropic.com"], 80)).toBe(false);
  });

  it("rejects malformed entries", () => {
    expect(() => parseAllowEntry("http://x.com")).toThrow(/host:port/);
    expect(() => parseAllowEntry("x.com:99999")).toThrow(/port/);
    expect(() => parseAllowEntry("*")).toThrow();
    expect(parseAllowEntry("*.OpenAI.com:443")).toEqual({ host: "openai.com", wildcard: true, port: 443 });
  });
});

describe("egress proxy", () => {
  it("makes its socket usable by the sandbox user", () => {
    expect(fs.statSync(proxy.socketPath).mode & 0o777).toBe(0o666);
  });

  it("tunnels CONNECT to an allowed host", async () => {
    const { status, socket, head } = await connect(`127.0.0.1:${echoPort}`);
    expect(status).toBe(200);
    const reply = readAll(socket, head);
    socket.end("ping through the tunnel");
    expect(await reply).toBe("ping through the tunnel");
  });

  it("refuses CONNECT to a host not on the list, saying how to allow it", async () => {
    const { status, socket, head } = await connect("evil-openai.com:443");
    expect(status).toBe(403);
    const body = await readAll(socket, head);
    expect(body).toContain("evil-openai.com:443");
    expect(body).toContain("--allow-host");
    expect(body).toContain("network.allow");
  });

  it("answers 502 when an allowed host cannot be reached", async () => {
    const { status, socket, head } = await connect(`127.0.0.1:${closedPort}`);
    expect(status).toBe(502);
    socket.destroy();
    void head;
  });

  it("forwards plain http requests to allowed hosts only", async () => {
    const ok = await proxiedGet(`http://127.0.0.1:${webPort}/path?q=1`);
    expect(ok).toEqual({ status: 200, body: "hello from /path?q=1" });
    const denied = await proxiedGet("http://example.com/");
    expect(denied.status).toBe(403);
    expect(denied.body).toContain("example.com:80");
    const down = await proxiedGet(`http://127.0.0.1:${closedPort}/`);
    expect(down.status).toBe(502);
  });

  it("logs one line per connection", async () => {
    await new Promise((r) => setTimeout(r, 100));
    const lines = fs.readFileSync(logFile, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ host: "127.0.0.1", port: echoPort, allowed: true }));
    expect(lines).toContainEqual(expect.objectContaining({ host: "evil-openai.com", port: 443, allowed: false }));
    for (const l of lines) expect(Object.keys(l).sort()).toEqual(["allowed", "host", "port", "time"]);
  });

  it("refuses to start with a malformed allow entry", async () => {
    await expect(startEgressProxy({ socketPath: path.join(dir, "bad.sock"), allow: ["https://x.com"] })).rejects.toThrow(
      /not valid/,
    );
  });
});
