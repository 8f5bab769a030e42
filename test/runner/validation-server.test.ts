import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCompetition } from "../../src/competitions/registry.js";
import { loadAnswers } from "../../src/grading/grade.js";
import { parseCsv } from "../../src/io/csv-read.js";
import { validateScript, VALIDATE_SOCKET_NAME } from "../../src/runner/validate-script.js";
import { startValidationServer, type ValidationServer } from "../../src/runner/validation-server.js";

const VALID = "Submission is valid.";
const INVALID =
  "Submission invalid! The attempt to grade the submission has resulted in the following error message:\n";

const competition = await loadCompetition("spaceship-titanic");
const ANSWERS_CSV = "PassengerId,Transported\n0001_01,True\n0002_01,False\n0003_01,True\n0004_01,False\n0005_01,True\n";
// Three of five right: accuracy 0.6, which must never show up in a response.
const GOOD_CSV = "PassengerId,Transported\n0001_01,True\n0002_01,False\n0003_01,True\n0004_01,True\n0005_01,False\n";
const WRONG_COLUMNS_CSV = "PassengerId,Prediction\n0001_01,True\n0002_01,False\n0003_01,True\n0004_01,True\n0005_01,False\n";

let dir: string;
let answers: ReturnType<typeof loadAnswers>;
let server: ValidationServer;
let small: ValidationServer;
let logFile: string;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request over a Unix socket. */
function request(
  socketPath: string,
  method: string,
  route: string,
  body?: Buffer,
  headers: http.OutgoingHttpHeaders = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method, path: route, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A multipart body built by the platform's own encoder, as curl -F would send it. */
async function multipart(fields: Record<string, { data: string | Uint8Array; filename?: string } | string>) {
  const form = new FormData();
  for (const [name, v] of Object.entries(fields)) {
    if (typeof v === "string") form.append(name, v);
    else form.append(name, new Blob([v.data]), v.filename ?? "submission.csv");
  }
  const r = new Request("http://localhost/", { method: "POST", body: form });
  return { body: Buffer.from(await r.arrayBuffer()), headers: { "content-type": r.headers.get("content-type")! } };
}

async function validate(socketPath: string, data: string | Uint8Array, filename?: string): Promise<Reply> {
  const m = await multipart({ file: { data, filename } });
  return request(socketPath, "POST", "/validate", m.body, m.headers);
}

/** The grader's own message for a submission it rejects. */
function graderReason(csv: string): string {
  try {
    competition.grade(parseCsv(csv), answers);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected the grader to reject this submission");
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-vs-"));
  fs.writeFileSync(path.join(dir, "answers.csv"), ANSWERS_CSV);
  answers = loadAnswers(path.join(dir, "answers.csv"));
  logFile = path.join(dir, "validate.log");
  fs.writeFileSync(path.join(dir, "validate.sock"), "stale");
  server = await startValidationServer({ socketPath: path.join(dir, "validate.sock"), competitionId: competition.id, answersFile: path.join(dir, "answers.csv"), logFile });
  small = await startValidationServer({ socketPath: path.join(dir, "small.sock"), competitionId: competition.id, answersFile: path.join(dir, "answers.csv"), maxUploadBytes: 1024 });
});

afterAll(async () => {
  await server?.close();
  await small?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("validation server", () => {
  it("replaces a stale socket file and makes the socket usable by other users", () => {
    const st = fs.statSync(server.socketPath);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o666);
  });

  it("answers /health", async () => {
    const r = await request(server.socketPath, "GET", "/health");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(r.body)).toEqual({ status: "running" });
  });

  it("accepts a valid submission without revealing its score", async () => {
    const score = competition.grade(parseCsv(GOOD_CSV), answers);
    expect(score).toBeCloseTo(0.6);
    const r = await validate(server.socketPath, GOOD_CSV);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ result: VALID });
    expect(r.body).not.toContain(String(score));
    expect(r.body).not.toContain("0.6");
    expect(r.body).not.toMatch(/\d/);
  });

  it("ignores the uploaded filename, even a hostile one", async () => {
    const r = await validate(server.socketPath, GOOD_CSV, "../../../../etc/passwd");
    expect(JSON.parse(r.body)).toEqual({ result: VALID });
    expect(fs.existsSync(path.join(dir, "passwd"))).toBe(false);
  });

  it("reports the grader's reason for wrong columns", async () => {
    const r = await validate(server.socketPath, WRONG_COLUMNS_CSV);
    expect(r.status).toBe(200);
    const reason = graderReason(WRONG_COLUMNS_CSV);
    expect(reason).toMatch(/Transported/);
    expect(JSON.parse(r.body)).toEqual({ result: INVALID + reason });
  });

  it("reports non-CSV garbage as invalid", async () => {
    const garbage = new Uint8Array([0xff, 0xfe, 0x00, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xc3, 0x28]);
    const r = await validate(server.socketPath, garbage);
    expect(r.status).toBe(200);
    const { result } = JSON.parse(r.body) as { result: string };
    expect(result.startsWith(INVALID + "Submission is not a readable CSV: ")).toBe(true);
    expect(result).not.toContain(dir);
  });

  it("reports an empty file as invalid", async () => {
    const r = await validate(server.socketPath, "");
    const { result } = JSON.parse(r.body) as { result: string };
    expect(result.startsWith(INVALID)).toBe(true);
  });

  it("asks for the file field when it is missing", async () => {
    const m = await multipart({ other: "x" });
    const r = await request(server.socketPath, "POST", "/validate", m.body, m.headers);
    expect(r.status).toBe(400);
    const { error } = JSON.parse(r.body) as { error: string };
    expect(error).toContain('curl -X POST -F "file=@submission.csv" http://localhost:5000/validate');
    expect(error).toContain('"file"');
  });

  it("rejects a request that is not multipart", async () => {
    const r = await request(server.socketPath, "POST", "/validate", Buffer.from(GOOD_CSV), { "content-type": "text/csv" });
    expect(r.status).toBe(400);
    expect((JSON.parse(r.body) as { error: string }).error).toContain('curl -X POST -F "file=@submission.csv"');
  });

  it("rejects a broken multipart body", async () => {
    const r = await request(server.socketPath, "POST", "/validate", Buffer.from("not multipart at all"), {
      "content-type": "multipart/form-data; boundary=XYZ",
    });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toHaveProperty("error");
  });

  it("refuses an oversize upload with a declared length", async () => {
    const r = await validate(small.socketPath, GOOD_CSV + "0006_01,True\n".repeat(200));
    expect(r.status).toBe(413);
    expect((JSON.parse(r.body) as { error: string }).error).toContain("1024 bytes");
  });

  it("refuses an oversize chunked upload without reading it all", async () => {
    const m = await multipart({ file: { data: "x".repeat(64 * 1024) } });
    const r = await new Promise<Reply>((resolve, reject) => {
      const req = http.request(
        { socketPath: small.socketPath, method: "POST", path: "/validate", headers: { ...m.headers, "transfer-encoding": "chunked" } },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on("error", reject);
      req.end(m.body);
    });
    expect(r.status).toBe(413);
    expect(r.headers.connection).toBe("close");
  });

  it("answers 404 for unknown routes and 405 for wrong methods", async () => {
    const nf = await request(server.socketPath, "GET", "/grade");
    expect(nf.status).toBe(404);
    expect(JSON.parse(nf.body)).toHaveProperty("error");
    const wrong = await request(server.socketPath, "GET", "/validate");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe("POST");
    const wrong2 = await request(server.socketPath, "POST", "/health", Buffer.from("x"));
    expect(wrong2.status).toBe(405);
  });

  it("answers 8 concurrent validations independently", async () => {
    const inputs = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? GOOD_CSV : WRONG_COLUMNS_CSV));
    const replies = await Promise.all(inputs.map((csv) => validate(server.socketPath, csv)));
    const reason = graderReason(WRONG_COLUMNS_CSV);
    replies.forEach((r, i) => {
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toEqual({ result: i % 2 === 0 ? VALID : INVALID + reason });
    });
  });

  it("counts requests and logs one line per request without the score", async () => {
    const before = await server.requests();
    await request(server.socketPath, "GET", "/health");
    await validate(server.socketPath, GOOD_CSV);
    await validate(server.socketPath, GOOD_CSV);
    const edited = GOOD_CSV.replace("0004_01,True", "0004_01,False");
    await validate(server.socketPath, edited);
    expect(await server.requests()).toBe(before + 4);
    // Log writes are asynchronous (and slower on a loaded machine): wait until every request has its line.
    const total = await server.requests();
    // Complete lines only: the last one may be half written.
    const read = () => fs.readFileSync(logFile, "utf8").split("\n").slice(0, -1).map((l) => JSON.parse(l) as Record<string, unknown>);
    for (let i = 0; i < 200 && read().length < total; i++) await new Promise((r) => setTimeout(r, 25));
    const lines = read();
    expect(lines.length).toBe(total);
    for (const line of lines) {
      expect(Object.keys(line).sort()).toEqual(["bytes", "changed_lines", "lines", "route", "sha256", "status", "time", "valid"]);
      // The grader's score for GOOD_CSV is 0.6; no field but the clock's may hold it.
      const { time: _time, ...fields } = line;
      expect(JSON.stringify(fields)).not.toContain("0.6");
    }
    const sha = (text: string) => createHash("sha256").update(text).digest("hex");
    // Each upload is fingerprinted: its hash, its lines, and the lines that differ from the upload before.
    expect(lines.slice(-3)).toMatchObject([
      { route: "/validate", status: 200, valid: true, sha256: sha(GOOD_CSV), lines: 6 },
      { route: "/validate", status: 200, valid: true, sha256: sha(GOOD_CSV), lines: 6, changed_lines: 0 },
      { route: "/validate", status: 200, valid: true, sha256: sha(edited), lines: 6, changed_lines: 1 },
    ]);
    expect(lines.some((l) => l.route === "/health" && l.valid === null)).toBe(true);
  });

  it("removes its socket on close", async () => {
    const sock = path.join(dir, "extra.sock");
    const s = await startValidationServer({ socketPath: sock, competitionId: competition.id, answersFile: path.join(dir, "answers.csv") });
    await s.close();
    expect(fs.existsSync(sock)).toBe(false);
  });
});

const HAS_CURL = fs.existsSync("/usr/bin/curl") || fs.existsSync("/bin/curl");
const HAS_PYTHON = fs.existsSync("/usr/bin/python3");

describe("validate_submission.sh", () => {
  /** The script pointed at the test server's socket instead of /run/mlebench. */
  function script(): string {
    expect(validateScript()).toContain(`SOCKET='/run/mlebench/${VALIDATE_SOCKET_NAME}'\n`);
    expect(validateScript("/a b/it's.sock")).toContain(`SOCKET='/a b/it'\\''s.sock'\n`);
    const file = path.join(dir, "validate_submission.sh");
    fs.writeFileSync(file, validateScript(server.socketPath), { mode: 0o755 });
    return file;
  }

  function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string }> {
    return new Promise((resolve) => {
      execFile("/bin/bash", [script(), ...args], { env }, (err, stdout) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout });
      });
    });
  }

  it("prints usage without an argument and says when the file is missing", async () => {
    const usage = await run([]);
    expect(usage.code).toBe(1);
    expect(usage.stdout).toMatch(/^Usage: /);
    const missing = await run([path.join(dir, "nope.csv")]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe(`File ${path.join(dir, "nope.csv")} does not exist.\n`);
  });

  const cases: [string, boolean, NodeJS.ProcessEnv][] = [
    ["curl", HAS_CURL, process.env],
    // Without curl on PATH the script falls back to /usr/bin/python3.
    ["python3", HAS_PYTHON, { PATH: "/nonexistent" }],
  ];
  for (const [name, available, env] of cases) {
    it.skipIf(!available)(`posts the file with ${name}`, async () => {
      const good = path.join(dir, "good.csv");
      const bad = path.join(dir, "bad.csv");
      fs.writeFileSync(good, GOOD_CSV);
      fs.writeFileSync(bad, WRONG_COLUMNS_CSV);
      const ok = await run([good], env);
      expect(ok.code).toBe(0);
      expect(ok.stdout.endsWith("\n")).toBe(true);
      expect(JSON.parse(ok.stdout)).toEqual({ result: VALID });
      const no = await run([bad], env);
      expect(JSON.parse(no.stdout)).toEqual({ result: INVALID + graderReason(WRONG_COLUMNS_CSV) });
    });
  }
});

describe("validation server under load", () => {
  it("answers 503 once maxConcurrent uploads are in flight, and serves again after", async () => {
    const sock = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mlb-busy-")), "v.sock");
    const busy = await startValidationServer({ socketPath: sock, competitionId: competition.id, answersFile: path.join(dir, "answers.csv"), maxConcurrent: 1 });
    try {
      const m = await multipart({ file: { data: GOOD_CSV } });
      // A first upload that has sent its headers but not its body holds the only slot.
      const slow = http.request({ socketPath: sock, method: "POST", path: "/validate", headers: { ...m.headers, "content-length": m.body.length } });
      const slowReply = new Promise<Reply>((resolve) =>
        slow.on("response", (res) => {
          let b = "";
          res.on("data", (c) => (b += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b }));
        }),
      );
      slow.write(m.body.subarray(0, 10));
      await new Promise((r) => setTimeout(r, 200));
      const rejected = await validate(sock, GOOD_CSV);
      expect(rejected.status).toBe(503);
      expect(JSON.parse(rejected.body)).toEqual({ error: "Busy: 1 validations are already running; retry in a moment." });
      slow.end(m.body.subarray(10));
      expect(JSON.parse((await slowReply).body)).toEqual({ result: VALID });
      expect(JSON.parse((await validate(sock, GOOD_CSV)).body)).toEqual({ result: VALID });
    } finally {
      await busy.close();
    }
  });

  it("ends a check that runs past its time with 504, and checks the next upload with a fresh grader", async () => {
    const sock = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mlb-slow-")), "v.sock");
    const notes: string[] = [];
    const slow = await startValidationServer({
      socketPath: sock,
      competitionId: competition.id,
      answersFile: path.join(dir, "answers.csv"),
      checkTimeoutMs: 50,
      log: (l) => notes.push(l),
    });
    try {
      // About 20 MB of rows: parsing alone takes far longer than 50 ms.
      const big = "PassengerId,Transported\n" + "0001_01,True\n".repeat(1_500_000);
      const r = await validate(sock, big);
      expect(r.status).toBe(504);
      expect(JSON.parse(r.body)).toEqual({ error: "The submission could not be checked within 50 ms; it is too large or too slow to grade." });
      expect(JSON.parse((await validate(sock, GOOD_CSV)).body)).toEqual({ result: VALID });
      expect(notes).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it("keeps idle connections beyond its limit from piling up", async () => {
    const sock = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mlb-conn-")), "v.sock");
    const capped = await startValidationServer({ socketPath: sock, competitionId: competition.id, answersFile: path.join(dir, "answers.csv"), maxConnections: 4 });
    const net = await import("node:net");
    const held = await Promise.all(
      Array.from({ length: 12 }, () => new Promise<import("node:net").Socket>((resolve) => {
        const c = net.connect(sock, () => resolve(c));
        c.on("error", () => {});
      })),
    );
    try {
      // Connections past the limit are closed by the server at once.
      await new Promise((r) => setTimeout(r, 300));
      expect(held.filter((c) => !c.destroyed && c.readyState === "open").length).toBeLessThanOrEqual(4);
    } finally {
      for (const c of held) c.destroy();
      await capped.close();
    }
  });
});
