import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import {
  authHeader,
  describeAuth,
  KaggleClient,
  KaggleError,
  loadKaggleCredentials,
  missingCredentialsMessage,
  rulesUrl,
  type KaggleAuth,
  type KaggleClientOptions,
  type KaggleRetryInfo,
} from "../../src/sources/kaggle/index.js";
import { sendFile, sendJson, startFakeServer, type FakeServer } from "../helpers/fake-kaggle.js";

const KEY = "s3cr3t-KEY-0123456789";
const TOKEN = "tok-SECRET-abcdef";
const BASIC: KaggleAuth = { kind: "basic", username: "alice", key: KEY, source: "KAGGLE_USERNAME/KAGGLE_KEY" };
const BEARER: KaggleAuth = { kind: "bearer", token: TOKEN, source: "KAGGLE_API_TOKEN" };
const SECRETS = [KEY, TOKEN, authHeader(BASIC).split(" ")[1], authHeader(BEARER).split(" ")[1]];

let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-kaggle-"));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Every text an error could show a user, down its cause chain. */
function textsOf(err: unknown): string[] {
  const out: string[] = [];
  for (let cur = err, depth = 0; cur !== undefined && depth < 10; depth++) {
    out.push(String(cur));
    if (cur instanceof Error) out.push(cur.message, cur.stack ?? "");
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return out;
}

function expectNoSecrets(...things: unknown[]): void {
  for (const thing of things) {
    const texts = typeof thing === "string" ? [thing] : textsOf(thing);
    for (const text of texts) for (const secret of SECRETS) expect(text).not.toContain(secret);
  }
}

/** The KaggleError a promise rejects with, after checking it leaks nothing. */
async function kaggleError(promise: Promise<unknown>): Promise<KaggleError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(KaggleError);
  expect(err).toBeInstanceOf(UserError);
  expectNoSecrets(err);
  return err as KaggleError;
}

describe("loadKaggleCredentials", () => {
  let n = 0;
  function home(): string {
    const dir = path.join(tmp, `home-${++n}`);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }
  function writeKaggleJson(dir: string, text: string): string {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "kaggle.json");
    fs.writeFileSync(file, text);
    return file;
  }

  it("prefers KAGGLE_API_TOKEN, then KAGGLE_USERNAME + KAGGLE_KEY, then kaggle.json", () => {
    const h = home();
    writeKaggleJson(path.join(h, ".kaggle"), JSON.stringify({ username: "filer", key: "filekey" }));
    const env = { KAGGLE_API_TOKEN: TOKEN, KAGGLE_USERNAME: "alice", KAGGLE_KEY: KEY };
    expect(loadKaggleCredentials(env, h)).toEqual({ kind: "bearer", token: TOKEN, source: "KAGGLE_API_TOKEN" });
    expect(loadKaggleCredentials({ KAGGLE_USERNAME: "alice", KAGGLE_KEY: KEY }, h)).toEqual(BASIC);
    expect(loadKaggleCredentials({}, h)).toEqual({
      kind: "basic",
      username: "filer",
      key: "filekey",
      source: path.join("~", ".kaggle", "kaggle.json"),
    });
  });

  it("reads $KAGGLE_CONFIG_DIR/kaggle.json instead of ~/.kaggle", () => {
    const h = home();
    writeKaggleJson(path.join(h, ".kaggle"), JSON.stringify({ username: "home", key: "k1" }));
    const configDir = path.join(tmp, `config-${n}`);
    const file = writeKaggleJson(configDir, JSON.stringify({ username: "bob", key: KEY }));
    const auth = loadKaggleCredentials({ KAGGLE_CONFIG_DIR: configDir }, h);
    expect(auth).toEqual({ kind: "basic", username: "bob", key: KEY, source: file });
    expect(describeAuth(auth!)).toBe(`user bob from ${file}`);
  });

  it("returns null when there are no credentials, and says how to provide them", () => {
    expect(loadKaggleCredentials({}, home())).toBeNull();
    expect(loadKaggleCredentials({ KAGGLE_CONFIG_DIR: path.join(tmp, "nowhere") }, home())).toBeNull();
    const msg = missingCredentialsMessage();
    expect(msg).toContain("KAGGLE_API_TOKEN");
    expect(msg).toContain("KAGGLE_USERNAME and KAGGLE_KEY");
    expect(msg).toContain("kaggle.json");
    expect(msg).toContain("Settings → API → Create New Token");
  });

  it("treats empty variables as unset and rejects half a username/key pair", () => {
    expect(loadKaggleCredentials({ KAGGLE_API_TOKEN: "", KAGGLE_USERNAME: " " }, home())).toBeNull();
    expect(() => loadKaggleCredentials({ KAGGLE_USERNAME: "alice" }, home())).toThrow(
      new UserError(
        "KAGGLE_USERNAME is set but KAGGLE_KEY is not: set both, or unset KAGGLE_USERNAME to use kaggle.json.",
      ),
    );
  });

  it("rejects a malformed kaggle.json, naming the file and the expected shape, without quoting the key", () => {
    const h = home();
    const shown = path.join("~", ".kaggle", "kaggle.json");
    const shape =
      'expected a JSON object {"username": "<your Kaggle username>", "key": "<your API key>"} ' +
      "(kaggle.com → Settings → API → Create New Token downloads one).";
    const file = `The Kaggle credentials file ${shown}`;
    const cases: [string, string][] = [
      [`{"username": "alice", "key": "${KEY}"`, `${file} is not valid JSON; ${shape}`],
      [`["alice", "${KEY}"]`, `${file} does not hold a JSON object; ${shape}`],
      [`{"user": "alice", "key": "${KEY}"}`, `${file} has no non-empty "username" string; ${shape}`],
      ['{"username": "alice", "key": 12}', `${file} has no non-empty "key" string; ${shape}`],
    ];
    for (const [text, message] of cases) {
      writeKaggleJson(path.join(h, ".kaggle"), text);
      let caught: unknown;
      try {
        loadKaggleCredentials({}, h);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(UserError);
      expect((caught as Error).message).toBe(message);
      expectNoSecrets(caught);
    }
  });

  it("builds Authorization headers and describes credentials without the secret", () => {
    expect(authHeader(BASIC)).toBe(`Basic ${Buffer.from(`alice:${KEY}`).toString("base64")}`);
    expect(authHeader(BEARER)).toBe(`Bearer ${TOKEN}`);
    expect(describeAuth(BASIC)).toBe("user alice from KAGGLE_USERNAME/KAGGLE_KEY");
    expect(describeAuth(BEARER)).toBe("API token from KAGGLE_API_TOKEN");
    expectNoSecrets(describeAuth(BASIC), describeAuth(BEARER));
  });
});

describe("KaggleClient", () => {
  let api: FakeServer;
  let storage: FakeServer;
  let base: string;
  const COMP = "spaceship-titanic";
  const ZIP = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => (i * 31 + 7) % 251));
  let out: string;
  let n = 0;

  beforeAll(async () => {
    [api, storage] = await Promise.all([startFakeServer(), startFakeServer()]);
    base = `${api.origin}/api/v1`;
  });
  afterAll(async () => {
    await Promise.all([api.close(), storage.close()]);
  });
  beforeEach(() => {
    out = path.join(tmp, `out-${++n}`);
  });
  afterEach(() => {
    api.reset();
    storage.reset();
  });

  function client(options: Partial<KaggleClientOptions> = {}): KaggleClient {
    return new KaggleClient({ auth: BASIC, baseUrl: base, retries: 3, backoffMs: 5, timeoutMs: 2000, ...options });
  }
  const apiPath = (p: string) => `/api/v1${p}`;

  it("lists files from a plain JSON array", async () => {
    api.on(apiPath(`/competitions/data/list/${COMP}`), (_req, res) =>
      sendJson(res, 200, [
        { name: "train.csv", totalBytes: 805421 },
        { name: "test.csv", total_bytes: 372487 },
        { name: "sample_submission.csv", size: "59902" },
      ]),
    );
    expect(await client().listFiles(COMP)).toEqual([
      { name: "train.csv", size: 805421 },
      { name: "test.csv", size: 372487 },
      { name: "sample_submission.csv", size: 59902 },
    ]);
    const [req] = api.requests;
    expect(req.headers.authorization).toBe(authHeader(BASIC));
    expect(req.headers.accept).toBe("application/json");
  });

  it("follows nextPageToken paging", async () => {
    api.on(apiPath(`/competitions/data/list/${COMP}`), (req, res) => {
      const token = new URL(req.url!, "http://x").searchParams.get("pageToken");
      if (token === null) sendJson(res, 200, { files: [{ name: "a.csv", totalBytes: 1 }], nextPageToken: "p 2" });
      else if (token === "p 2") sendJson(res, 200, { files: [{ name: "b.csv", totalBytes: 2 }], nextPageToken: "p3" });
      else sendJson(res, 200, { files: [{ name: "c.csv", totalBytes: 3 }], nextPageToken: "" });
    });
    const files = await client({ auth: BEARER }).listFiles(COMP);
    expect(files.map((f) => f.name)).toEqual(["a.csv", "b.csv", "c.csv"]);
    expect(api.requests.map((r) => r.url)).toEqual([
      apiPath(`/competitions/data/list/${COMP}`),
      apiPath(`/competitions/data/list/${COMP}?pageToken=p%202`),
      apiPath(`/competitions/data/list/${COMP}?pageToken=p3`),
    ]);
    expect(api.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it("downloads all data through a redirect to another host without sending it the credentials", async () => {
    api.on(apiPath(`/competitions/data/download-all/${COMP}`), (_req, res) => {
      res.writeHead(302, { location: `${storage.origin}/bucket/${COMP}.zip?X-Goog-Signature=abc` });
      res.end();
    });
    storage.on(`/bucket/${COMP}.zip`, (req, res) => sendFile(req, res, ZIP));
    const dest = path.join(out, "nested", "data.zip");
    const progress: [number, number | null][] = [];
    const result = await client().downloadAll(COMP, dest, { onProgress: (d, t) => progress.push([d, t]) });

    expect(result).toEqual({ bytes: ZIP.length });
    expect(fs.readFileSync(dest).equals(ZIP)).toBe(true);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0].headers.authorization).toBe(authHeader(BASIC));
    expect(storage.requests).toHaveLength(1);
    expect(storage.requests[0].headers.authorization).toBeUndefined();
    expect(storage.requests[0].url).toBe(`/bucket/${COMP}.zip?X-Goog-Signature=abc`);
    expect(progress.at(-1)).toEqual([ZIP.length, ZIP.length]);
    expect(fs.readdirSync(path.join(out, "nested"))).toEqual(["data.zip"]);
  });

  it("asks the API again when the storage host refuses an (expired) signed URL", async () => {
    api.on(apiPath(`/competitions/data/download-all/${COMP}`), (_req, res, hit) => {
      res.writeHead(302, { location: `${storage.origin}/bucket/${hit}.zip?sig=${hit}` });
      res.end();
    });
    storage.on("/bucket/1.zip", (_req, res) => {
      res.writeHead(403, { "content-type": "application/xml" });
      res.end("<Error><Code>ExpiredToken</Code><Message>Please accept our apologies</Message></Error>");
    });
    storage.on("/bucket/2.zip", (req, res) => sendFile(req, res, ZIP));
    const dest = path.join(out, "data.zip");
    expect(await client().downloadAll(COMP, dest)).toEqual({ bytes: ZIP.length });
    expect(api.requests).toHaveLength(2);
    expect(storage.requests.map((r) => [r.url, r.headers.authorization])).toEqual([
      ["/bucket/1.zip?sig=1", undefined],
      ["/bucket/2.zip?sig=2", undefined],
    ]);
  });

  it("keeps the credentials on a redirect within the API's own origin", async () => {
    api.on(apiPath(`/competitions/${COMP}/leaderboard/download`), (_req, res) => {
      res.writeHead(307, { location: "/files/leaderboard.zip" });
      res.end();
    });
    api.on("/files/leaderboard.zip", (req, res) => sendFile(req, res, Buffer.from("PK-leaderboard")));
    const dest = path.join(out, "lb.zip");
    expect(await client().leaderboardCsv(COMP, dest)).toEqual({ bytes: 14 });
    expect(fs.readFileSync(dest, "utf8")).toBe("PK-leaderboard");
    expect(api.requestsTo("/files/leaderboard.zip")[0].headers.authorization).toBe(authHeader(BASIC));
  });

  it("downloads one file with its name URL-encoded", async () => {
    const encoded = apiPath(`/competitions/data/download/${COMP}/${encodeURIComponent("train/a b.csv")}`);
    api.on(encoded, (req, res) => sendFile(req, res, Buffer.from("id,x\n1,2\n")));
    const dest = path.join(out, "a b.csv");
    await client().downloadFile(COMP, "train/a b.csv", dest);
    expect(fs.readFileSync(dest, "utf8")).toBe("id,x\n1,2\n");
    expect(api.requests[0].url).toBe(encoded);
  });

  it("retries 429 twice, waiting as long as Retry-After says", async () => {
    api.on(apiPath(`/competitions/data/list/${COMP}`), (_req, res, hit) => {
      if (hit <= 2) sendJson(res, 429, { code: 429, message: "Too many requests" }, { "retry-after": "0.15" });
      else sendJson(res, 200, [{ name: "train.csv", totalBytes: 10 }]);
    });
    const retries: KaggleRetryInfo[] = [];
    const started = Date.now();
    const files = await client({ onRetry: (info) => retries.push(info) }).listFiles(COMP);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(files).toEqual([{ name: "train.csv", size: 10 }]);
    expect(api.requests).toHaveLength(3);
    expect(retries.map((r) => [r.attempt, r.delayMs, r.reason])).toEqual([
      [1, 150, "HTTP 429 (Too many requests)"],
      [2, 150, "HTTP 429 (Too many requests)"],
    ]);
  });

  it("retries a 500 and parses the leaderboard in camelCase and snake_case", async () => {
    api.on(apiPath(`/competitions/${COMP}/leaderboard/view`), (_req, res, hit) => {
      if (hit === 1) sendJson(res, 500, { code: 500, message: "Internal error" });
      else
        sendJson(res, 200, {
          submissions: [
            { teamId: 7, teamName: "Seven", submissionDate: "2023-01-02T03:04:05Z", score: "0.81234" },
            { team_id: 9, team_name: "Nine", submission_date: "2023-01-03T00:00:00Z", score: 0.8 },
            { teamId: 11, teamName: "No score", submissionDate: "2023-01-04T00:00:00Z" },
          ],
        });
    });
    expect(await client().leaderboard(COMP)).toEqual([
      { teamId: 7, teamName: "Seven", submissionDate: "2023-01-02T03:04:05Z", score: 0.81234, scoreText: "0.81234" },
      { teamId: 9, teamName: "Nine", submissionDate: "2023-01-03T00:00:00Z", score: 0.8, scoreText: "0.8" },
      { teamId: 11, teamName: "No score", submissionDate: "2023-01-04T00:00:00Z", score: null, scoreText: "" },
    ]);
    expect(api.requests).toHaveLength(2);
  });

  it("defaults the API root to $MLEBENCH_KAGGLE_API_URL and rejects answers that are not JSON", async () => {
    const saved = process.env.MLEBENCH_KAGGLE_API_URL;
    process.env.MLEBENCH_KAGGLE_API_URL = `${base}/`;
    try {
      expect(new KaggleClient({ auth: BASIC }).baseUrl).toBe(base);
    } finally {
      if (saved === undefined) delete process.env.MLEBENCH_KAGGLE_API_URL;
      else process.env.MLEBENCH_KAGGLE_API_URL = saved;
    }
    api.on(apiPath(`/competitions/data/list/${COMP}`), (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>Sign in</html>");
    });
    const err = await kaggleError(client().listFiles(COMP));
    expect(err.kind).toBe("protocol");
    expect(err.message).toBe(`Kaggle sent an unexpected answer for ${base}/competitions/data/list/${COMP}: expected JSON.`);
  });

  it("reports rejected credentials once, without retrying", async () => {
    api.on(apiPath(`/competitions/data/list/${COMP}`), (_req, res) =>
      sendJson(res, 401, { code: 401, message: "Unauthenticated" }),
    );
    const err = await kaggleError(client().listFiles(COMP));
    expect(err.kind).toBe("auth");
    expect(err.message).toBe(
      "Kaggle rejected the credentials (user alice from KAGGLE_USERNAME/KAGGLE_KEY). Check them, " +
        "or create a new token at kaggle.com → Settings → API → Create New Token.",
    );
    expect(api.requests).toHaveLength(1);
  });

  it("reports an unknown competition or file", async () => {
    const err = await kaggleError(client().downloadAll("no-such-comp", path.join(out, "x.zip")));
    expect(err.kind).toBe("not-found");
    expect(err.message).toBe(
      `No Kaggle competition no-such-comp at ${base}/competitions/data/download-all/no-such-comp`,
    );
    const fileErr = await kaggleError(client().downloadFile(COMP, "nope.csv", path.join(out, "nope.csv")));
    expect(fileErr.message).toBe(
      `No Kaggle competition ${COMP} (or no file nope.csv in it) ` +
        `at ${base}/competitions/data/download/${COMP}/nope.csv`,
    );
    expect(api.requests).toHaveLength(2);
    expect(fs.existsSync(path.join(out, "x.zip"))).toBe(false);
  });

  it("tells the user to accept the rules, with the rules URL", async () => {
    api.on(apiPath(`/competitions/data/download-all/${COMP}`), (_req, res) =>
      sendJson(res, 403, {
        code: 403,
        message: "You must accept this competition's rules before you'll be able to download files.",
      }),
    );
    const err = await kaggleError(client().downloadAll(COMP, path.join(out, "d.zip")));
    expect(err.kind).toBe("rules");
    expect(err.message).toBe(
      `You must accept this competition's rules before downloading: https://www.kaggle.com/c/${COMP}/rules`,
    );
    expect(rulesUrl(COMP)).toBe(`https://www.kaggle.com/c/${COMP}/rules`);
    expect(api.requests).toHaveLength(1);
  });

  it("reports other 403s as forbidden, scrubbing a server that echoes the credentials", async () => {
    api.on(apiPath(`/competitions/${COMP}/leaderboard/view`), (req, res) =>
      sendJson(res, 403, { code: 403, message: `Permission denied for ${req.headers.authorization}` }),
    );
    const err = await kaggleError(client().leaderboard(COMP));
    expect(err.kind).toBe("forbidden");
    expect(err.message).toBe(
      `Kaggle refused access to competition ${COMP} (HTTP 403: Permission denied for Basic ***) ` +
        "for user alice from KAGGLE_USERNAME/KAGGLE_KEY.",
    );
  });

  it("gives up after the retries, naming the URL and the last error", async () => {
    api.on(apiPath(`/competitions/data/list/${COMP}`), (_req, res) =>
      sendJson(res, 503, { code: 503, message: "Service unavailable" }),
    );
    const err = await kaggleError(client({ retries: 2 }).listFiles(COMP));
    expect(err.kind).toBe("network");
    expect(err.message).toBe(
      `Could not get ${base}/competitions/data/list/${COMP} from Kaggle after 3 attempts; ` +
        "last error: HTTP 503 (Service unavailable)",
    );
    expect(api.requests).toHaveLength(3);
  });

  it("retries refused connections and stalled responses", async () => {
    const closed = await startFakeServer();
    const closedOrigin = closed.origin;
    await closed.close();
    const refused = await kaggleError(client({ baseUrl: closedOrigin, retries: 1 }).listFiles(COMP));
    expect(refused.kind).toBe("network");
    expect(refused.message).toMatch(
      new RegExp(
        `^Could not get ${closedOrigin}/competitions/data/list/${COMP} from Kaggle after 2 attempts; ` +
          "last error: .*ECONNREFUSED",
      ),
    );

    api.on(apiPath(`/competitions/data/list/${COMP}`), () => {
      // Never answers.
    });
    const stalled = await kaggleError(client({ retries: 1, timeoutMs: 100 }).listFiles(COMP));
    expect(stalled.kind).toBe("network");
    expect(stalled.message).toContain("after 2 attempts; last error: no data for 0.1s (timed out)");
    expect(api.requests).toHaveLength(2);
  });

  describe("cut-short downloads", () => {
    const half = ZIP.length / 2;
    const route = apiPath(`/competitions/data/download-all/${COMP}`);

    it("resumes with a Range request when the server supports it", async () => {
      const dest = path.join(out, "data.zip");
      const seenDuring: boolean[] = [];
      api.on(route, (req, res, hit) =>
        sendFile(req, res, ZIP, {
          supportRange: true,
          cutAfter: hit === 1 ? half : undefined,
          beforeCut: () => void seenDuring.push(fs.existsSync(dest)),
        }),
      );
      const result = await client({
        onRetry: () => seenDuring.push(fs.existsSync(dest)),
      }).downloadAll(COMP, dest, { onProgress: (done) => done < ZIP.length && seenDuring.push(fs.existsSync(dest)) });
      expect(result).toEqual({ bytes: ZIP.length });
      expect(fs.readFileSync(dest).equals(ZIP)).toBe(true);
      expect(seenDuring.length).toBeGreaterThan(2);
      expect(seenDuring.every((exists) => !exists)).toBe(true);
      const requests = api.requestsTo(route);
      expect(requests.map((r) => r.headers.range)).toEqual([undefined, `bytes=${half}-`]);
      expect(requests.every((r) => r.headers.authorization === authHeader(BASIC))).toBe(true);
      expect(fs.readdirSync(out)).toEqual(["data.zip"]);
    });

    it("restarts from zero when the server ignores Range", async () => {
      const dest = path.join(out, "data.zip");
      api.on(route, (req, res, hit) => sendFile(req, res, ZIP, { cutAfter: hit === 1 ? half : undefined }));
      const progress: number[] = [];
      const result = await client().downloadAll(COMP, dest, { onProgress: (done) => progress.push(done) });
      expect(result).toEqual({ bytes: ZIP.length });
      expect(fs.readFileSync(dest).equals(ZIP)).toBe(true);
      const requests = api.requestsTo(route);
      expect(requests.map((r) => r.headers.range)).toEqual([undefined, `bytes=${half}-`]);
      // The second answer started again at zero, and so did the progress.
      expect(progress.filter((d) => d === 0)).toHaveLength(2);
      expect(fs.readdirSync(out)).toEqual(["data.zip"]);
    });

    it("never leaves a partial file at the destination, and leaves an old one alone until done", async () => {
      const dest = path.join(out, "data.zip");
      fs.mkdirSync(out, { recursive: true });
      fs.writeFileSync(dest, "old complete file");
      const seenDuring: string[] = [];
      api.on(route, (req, res) =>
        sendFile(req, res, ZIP, {
          supportRange: true,
          cutAfter: 1000,
          beforeCut: () => void seenDuring.push(fs.readFileSync(dest, "utf8")),
        }),
      );
      const retries: KaggleRetryInfo[] = [];
      const err = await kaggleError(client({ retries: 2, onRetry: (r) => retries.push(r) }).downloadAll(COMP, dest));
      expect(err.kind).toBe("network");
      expect(err.message).toMatch(
        new RegExp(
          `^Could not get ${base}/competitions/data/download-all/${COMP} from Kaggle after 3 attempts; ` +
            "last error: download cut short: received \\d+ of 65536 bytes",
        ),
      );
      expect(retries.map((r) => r.reason)).toHaveLength(2);
      expect(seenDuring).toEqual(Array(3).fill("old complete file"));
      expect(fs.readFileSync(dest, "utf8")).toBe("old complete file");
      // Each attempt resumed where the last one stopped.
      expect(api.requestsTo(route).map((r) => r.headers.range)).toEqual([undefined, "bytes=1000-", "bytes=2000-"]);
      expect(fs.statSync(`${dest}.part`).size).toBe(3000);

      // A later run picks the .part up again and completes it.
      api.on(route, (req, res) => sendFile(req, res, ZIP, { supportRange: true }));
      expect(await client().downloadAll(COMP, dest)).toEqual({ bytes: ZIP.length });
      expect(fs.readFileSync(dest).equals(ZIP)).toBe(true);
      expect(api.requestsTo(route).at(-1)!.headers.range).toBe("bytes=3000-");
      expect(fs.readdirSync(out)).toEqual(["data.zip"]);
    });

    it("starts over when a 206 does not continue where the .part ends", async () => {
      const dest = path.join(out, "data.zip");
      api.on(route, (req, res, hit) => {
        if (hit === 2) {
          // A broken cache: claims a range but sends the wrong one.
          res.writeHead(206, { "content-range": `bytes 10-${ZIP.length - 1}/${ZIP.length}` });
          res.end(ZIP.subarray(10));
          return;
        }
        return sendFile(req, res, ZIP, { cutAfter: hit === 1 ? half : undefined });
      });
      expect(await client().downloadAll(COMP, dest)).toEqual({ bytes: ZIP.length });
      expect(fs.readFileSync(dest).equals(ZIP)).toBe(true);
      expect(api.requestsTo(route).map((r) => r.headers.range)).toEqual([undefined, `bytes=${half}-`, undefined]);
    });

    it("does not resume a .part left by a different download", async () => {
      const dest = path.join(out, "data.zip");
      fs.mkdirSync(out, { recursive: true });
      fs.writeFileSync(`${dest}.part`, "leftover bytes of something else");
      api.on(route, (req, res) => sendFile(req, res, ZIP, { supportRange: true }));
      await client().downloadAll(COMP, dest);
      expect(fs.readFileSync(dest).equals(ZIP)).toBe(true);
      expect(api.requests[0].headers.range).toBeUndefined();
    });
  });
});
