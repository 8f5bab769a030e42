import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { UserError } from "../../src/core/errors.js";
import {
  fetchUpstreamFile,
  fetchUpstreamMetadata,
  parseChecksumsYaml,
  parseLfsPointer,
  resolveLfsObject,
  resolveUpstreamCommit,
  UPSTREAM_COMMIT,
  UPSTREAM_REPO,
  UpstreamFetchError,
  type UpstreamFetchOptions,
} from "../../src/sources/upstream/index.js";
import { tempDir } from "../helpers/data-dir.js";
import { closedPortUrl, lfsPointerFor, rawPath, startFakeUpstream, type FakeUpstream } from "../helpers/fake-upstream.js";

let fake: FakeUpstream;
let counter = 0;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(async () => {
  await fake.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** Each test gets its own competition id and data dir, so scripts and caches never cross. */
function setup(): { id: string; opts: UpstreamFetchOptions; dataDir: string } {
  const id = `comp-${++counter}`;
  const dataDir = tempDir("mlebench-upstream-");
  return { id, dataDir, opts: { dataDir, rawBaseUrl: fake.rawUrl, lfsBaseUrl: fake.lfsUrl, retries: 2, backoffMs: 1 } };
}

// The fake LFS host keys objects by sha256, so every test that stores one uses its own content.
let LEADERBOARD = "";
beforeEach(() => {
  LEADERBOARD = `scoreNullable,teamId,hasTeamName,submissionDate,score,hasScore\n0.82,${counter + 1},True,2022-03-01,0.82,True\n`;
});

function cachePath(dataDir: string, id: string, name: string): string {
  return path.join(dataDir, id, "upstream", UPSTREAM_COMMIT, name);
}

/** Assert `p` rejects with an UpstreamFetchError and hand it back for closer checks. */
async function fetchError(p: Promise<unknown>): Promise<UpstreamFetchError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamFetchError);
  return err as UpstreamFetchError;
}

describe("fetchUpstreamFile", () => {
  it("downloads a plain file once and serves later calls from the cache", async () => {
    const { id, opts, dataDir } = setup();
    fake.setRaw(id, "description.md", "# Spaceship\nPredict who was transported.\n");
    const first = await fetchUpstreamFile(id, "description.md", opts);
    expect(first).toEqual({ path: cachePath(dataDir, id, "description.md"), fromCache: false });
    expect(fs.readFileSync(first.path, "utf8")).toBe("# Spaceship\nPredict who was transported.\n");
    const before = fake.requests.length;
    const second = await fetchUpstreamFile(id, "description.md", opts);
    expect(second).toEqual({ path: first.path, fromCache: true });
    expect(fake.requests.length).toBe(before);
    expect(fake.count("raw", rawPath(id, "description.md"))).toBe(1);
    // Nothing half-written is left beside the file.
    expect(fs.readdirSync(path.dirname(first.path))).toEqual(["description.md"]);
  });

  it("resolves a Git LFS pointer through the batch API and verifies the object", async () => {
    const { id, opts, dataDir } = setup();
    const pointer = fake.setLfs(id, "leaderboard.csv", LEADERBOARD);
    const got = await fetchUpstreamFile(id, "leaderboard.csv", opts);
    expect(got.fromCache).toBe(false);
    expect(fs.readFileSync(got.path, "utf8")).toBe(LEADERBOARD);
    expect(got.path).toBe(cachePath(dataDir, id, "leaderboard.csv"));

    const batch = fake.requests.find((r) => r.host === "lfs" && r.method === "POST")!;
    expect(batch.path).toBe(`/${UPSTREAM_REPO}.git/info/lfs/objects/batch`);
    expect(batch.headers.accept).toBe("application/vnd.git-lfs+json");
    expect(batch.headers["content-type"]).toBe("application/vnd.git-lfs+json");
    expect(JSON.parse(batch.body)).toEqual({
      operation: "download",
      transfers: ["basic"],
      objects: [{ oid: pointer.oid, size: pointer.size }],
    });
    // The fake host answers 401 unless the batch response's header map was sent along.
    expect(fake.count("lfs", `/objects/${pointer.oid}`)).toBe(1);

    const before = fake.requests.length;
    expect(await fetchUpstreamFile(id, "leaderboard.csv", opts)).toEqual({ path: got.path, fromCache: true });
    expect(fake.requests.length).toBe(before);
  });

  it("refetches a cached LFS object whose bytes no longer match the pointer", async () => {
    const { id, opts } = setup();
    fake.setLfs(id, "leaderboard.csv", LEADERBOARD);
    const { path: file } = await fetchUpstreamFile(id, "leaderboard.csv", opts);
    fs.writeFileSync(file, LEADERBOARD.replace("0.82", "0.99"));
    const before = fake.count("lfs");
    const again = await fetchUpstreamFile(id, "leaderboard.csv", opts);
    expect(again.fromCache).toBe(false);
    expect(fs.readFileSync(file, "utf8")).toBe(LEADERBOARD);
    expect(fake.count("lfs") - before).toBe(2);
  });

  it("rejects an LFS object of the wrong size, naming expected and actual", async () => {
    const { id, opts, dataDir } = setup();
    const pointer = fake.setLfs(id, "leaderboard.csv", LEADERBOARD, { serve: Buffer.from(LEADERBOARD.slice(0, 20)) });
    const err = await fetchError(fetchUpstreamFile(id, "leaderboard.csv", opts));
    expect(err.kind).toBe("integrity");
    expect(err.message).toBe(
      `Could not fetch upstream leaderboard.csv for ${id} from ${fake.rawUrl}${rawPath(id, "leaderboard.csv")}: ` +
        `${fake.lfsUrl}/objects/${pointer.oid}?…: LFS object ${pointer.oid} has the wrong size: ` +
        `expected ${pointer.size} bytes, got 20`,
    );
    // The pre-signed part of the download link stays out of messages.
    expect(err.message).not.toContain("secret");
    expect(fs.existsSync(cachePath(dataDir, id, "leaderboard.csv"))).toBe(false);
  });

  it("rejects an LFS object of the right size but the wrong sha256", async () => {
    const { id, opts } = setup();
    const tampered = Buffer.from(LEADERBOARD.replace("0.82", "0.99"));
    const pointer = fake.setLfs(id, "leaderboard.csv", LEADERBOARD, { serve: tampered });
    const err = await fetchError(fetchUpstreamFile(id, "leaderboard.csv", opts));
    expect(err.reason).toBe(
      `${fake.lfsUrl}/objects/${pointer.oid}?…: downloaded LFS object has the wrong sha256: ` +
        `expected ${pointer.oid}, got ${lfsPointerFor(tampered).oid}`,
    );
    // Integrity failures are not retried: the same server would send the same bytes.
    expect(fake.count("lfs", `/objects/${pointer.oid}`)).toBe(1);
  });

  it("reports an error object in the batch response with the oid and the server's message", async () => {
    const { id, opts } = setup();
    const pointer = fake.setLfs(id, "leaderboard.csv", LEADERBOARD, {
      batchError: { code: 410, message: "Object was removed by the owner" },
    });
    const err = await fetchError(fetchUpstreamFile(id, "leaderboard.csv", opts));
    expect(err.kind).toBe("lfs");
    expect(err.message).toContain(`LFS server refused object ${pointer.oid}: Object was removed by the owner (code 410)`);
  });

  it("refuses a file that claims to be an LFS pointer but is malformed", async () => {
    const { id, opts } = setup();
    fake.setRaw(id, "leaderboard.csv", "version https://git-lfs.github.com/spec/v1\noid md5:abc\nsize 12\n");
    const err = await fetchError(fetchUpstreamFile(id, "leaderboard.csv", opts));
    expect(err.kind).toBe("invalid");
    expect(err.message).toContain("looks like a Git LFS pointer");
  });

  it("retries a 503 and succeeds on the third attempt", async () => {
    const { id, opts } = setup();
    fake.setRaw(id, "checksums.yaml", [{ status: 503 }, { status: 503 }, { status: 200, body: "zip: 67c177886736583aff9b947e121395a9\n" }]);
    const got = await fetchUpstreamFile(id, "checksums.yaml", opts);
    expect(fs.readFileSync(got.path, "utf8")).toContain("zip:");
    expect(fake.count("raw", rawPath(id, "checksums.yaml"))).toBe(3);
  });

  it("gives up after the configured retries and says how many attempts it made", async () => {
    const { id, opts } = setup();
    fake.setRaw(id, "checksums.yaml", { status: 429 });
    const err = await fetchError(fetchUpstreamFile(id, "checksums.yaml", { ...opts, retries: 1 }));
    expect(err.reason).toBe("HTTP 429 Too Many Requests (gave up after 2 attempts)");
    expect(fake.count("raw", rawPath(id, "checksums.yaml"))).toBe(2);
  });

  it("retries a connection dropped without a response", async () => {
    const { id, opts } = setup();
    fake.setRaw(id, "kernels.txt", ["drop", { status: 200, body: "someone/some-kernel\n" }]);
    const got = await fetchUpstreamFile(id, "kernels.txt", opts);
    expect(fs.readFileSync(got.path, "utf8")).toBe("someone/some-kernel\n");
  });

  it("treats a server that never answers as a network failure", async () => {
    const { id, opts } = setup();
    fake.setRaw(id, "kernels.txt", "hang");
    const err = await fetchError(fetchUpstreamFile(id, "kernels.txt", { ...opts, retries: 0, timeoutMs: 100 }));
    expect(err.kind).toBe("network");
    expect(err.reason).toBe("no response within 100 ms");
    expect(err.message).toContain(`mlebench prepare -c ${id}`);
  });

  it("does not retry a 404 and calls the file absent upstream", async () => {
    const { id, opts } = setup();
    const err = await fetchError(fetchUpstreamFile(id, "kernels.txt", opts));
    expect(err.kind).toBe("not-found");
    expect(err.reason).toBe("absent upstream (HTTP 404 Not Found)");
    expect(fake.count("raw", rawPath(id, "kernels.txt"))).toBe(1);
  });

  it("says the metadata can be fetched later when the host cannot be reached", async () => {
    const { id, opts } = setup();
    const closed = await closedPortUrl();
    const err = await fetchError(fetchUpstreamFile(id, "description.md", { ...opts, rawBaseUrl: closed, retries: 1 }));
    expect(err.kind).toBe("network");
    expect(err.message).toContain(`${closed}${rawPath(id, "description.md")}`);
    expect(err.message).toContain("ECONNREFUSED");
    expect(err.message).toContain(`fetched later, once online, with \`mlebench prepare -c ${id}\``);
  });

  it("takes the commit from MLEBENCH_UPSTREAM_COMMIT when no option is given", async () => {
    const { id, opts, dataDir } = setup();
    vi.stubEnv("MLEBENCH_UPSTREAM_COMMIT", "0123456789abcdef0123456789abcdef01234567");
    expect(resolveUpstreamCommit()).toBe("0123456789abcdef0123456789abcdef01234567");
    expect(resolveUpstreamCommit("abc123")).toBe("abc123");
    fake.setRaw(id, "description.md", "other commit\n", "0123456789abcdef0123456789abcdef01234567");
    const got = await fetchUpstreamFile(id, "description.md", opts);
    expect(got.path).toBe(path.join(dataDir, id, "upstream", "0123456789abcdef0123456789abcdef01234567", "description.md"));
    vi.stubEnv("MLEBENCH_UPSTREAM_COMMIT", "../escape");
    expect(() => resolveUpstreamCommit()).toThrow(/MLEBENCH_UPSTREAM_COMMIT/);
  });

  it("refuses competition ids and names that could leave the data dir", async () => {
    const { opts } = setup();
    await expect(fetchUpstreamFile("../etc", "description.md", opts)).rejects.toThrow(UserError);
    await expect(fetchUpstreamFile("spaceship-titanic", "../config.yaml", opts)).rejects.toThrow(/upstream file name/);
  });
});

describe("fetchUpstreamMetadata", () => {
  const CHECKSUMS = "private:\n  test.csv: 1cb99c65efecaba968128577722a83ef\nzip: 67c177886736583aff9b947e121395a9\n";

  it("records optional files missing upstream as absent and remembers that offline", async () => {
    const { id, opts, dataDir } = setup();
    fake.setRaw(id, "description.md", "# Desc\n");
    fake.setRaw(id, "description_obfuscated.md", "# Obfuscated\n");
    fake.setRaw(id, "checksums.yaml", CHECKSUMS);
    fake.setLfs(id, "leaderboard.csv", LEADERBOARD);
    const meta = await fetchUpstreamMetadata(id, opts);
    expect(meta.commit).toBe(UPSTREAM_COMMIT);
    expect(meta.dir).toBe(path.join(dataDir, id, "upstream", UPSTREAM_COMMIT));
    expect(meta.files["kernels.txt"]).toEqual({
      ok: false,
      absent: true,
      error: `${fake.rawUrl}${rawPath(id, "kernels.txt")}: absent upstream (HTTP 404 Not Found)`,
    });
    for (const name of ["description.md", "description_obfuscated.md", "checksums.yaml", "leaderboard.csv"] as const) {
      expect(meta.files[name]).toEqual({ ok: true, path: path.join(meta.dir, name), fromCache: false });
    }
    expect(fs.readFileSync(path.join(meta.dir, "leaderboard.csv"), "utf8")).toBe(LEADERBOARD);

    // Everything, including the 404, is now known locally: no request, even to a dead host.
    const before = fake.requests.length;
    const again = await fetchUpstreamMetadata(id, { ...opts, rawBaseUrl: await closedPortUrl() });
    expect(fake.requests.length).toBe(before);
    expect(again.files["kernels.txt"]).toMatchObject({ ok: false, absent: true });
    expect(again.files["leaderboard.csv"]).toMatchObject({ ok: true, fromCache: true });
  });

  it("throws naming the URL when a required file is missing upstream", async () => {
    const { id, opts, dataDir } = setup();
    fake.setRaw(id, "checksums.yaml", CHECKSUMS);
    fake.setLfs(id, "leaderboard.csv", LEADERBOARD);
    const err = await fetchUpstreamMetadata(id, opts).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(UserError);
    expect(err!.message).toBe(
      `Could not fetch the upstream metadata of ${id} (${UPSTREAM_REPO} at ${UPSTREAM_COMMIT}):\n` +
        `  - description.md: ${fake.rawUrl}${rawPath(id, "description.md")}: absent upstream (HTTP 404 Not Found)`,
    );
    // An id upstream may not know gets no absence markers.
    expect(fs.readdirSync(path.join(dataDir, id, "upstream", UPSTREAM_COMMIT)).filter((f) => f.startsWith("."))).toEqual([
      ".leaderboard.csv.lfs-pointer",
    ]);
  });

  it("throws with the offline hint when the hosts cannot be reached", async () => {
    const { id, opts } = setup();
    const closed = await closedPortUrl();
    const err = await fetchUpstreamMetadata(id, { ...opts, rawBaseUrl: closed, retries: 0 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(UserError);
    const lines = err!.message.split("\n");
    expect(lines[0]).toBe(`Could not fetch the upstream metadata of ${id} (${UPSTREAM_REPO} at ${UPSTREAM_COMMIT}):`);
    expect(lines.slice(1, 4).map((l) => l.split(":")[0])).toEqual(["  - description.md", "  - checksums.yaml", "  - leaderboard.csv"]);
    expect(lines[1]).toContain(`${closed}${rawPath(id, "description.md")}: connect ECONNREFUSED`);
    expect(lines[4]).toBe(`The upstream metadata can be fetched later, once online, with \`mlebench prepare -c ${id}\`.`);
    expect(lines).toHaveLength(5);
  });
});

describe("resolveLfsObject", () => {
  it("names the oid when the server does not know the object", async () => {
    const content = Buffer.from("never uploaded\n");
    const pointer = lfsPointerFor(content);
    await expect(resolveLfsObject(pointer, { lfsBaseUrl: fake.lfsUrl, repo: UPSTREAM_REPO })).rejects.toThrow(
      `LFS server refused object ${pointer.oid}: Object does not exist (code 404)`,
    );
  });
});

describe("parseLfsPointer", () => {
  const oid = "e071aca01cb968fa45344d94a60553e97d1429d3b0de05910e72012248168619";

  it("reads upstream's pointer format", () => {
    expect(parseLfsPointer(`version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 125841\n`)).toEqual({
      oid,
      size: 125841,
    });
    expect(parseLfsPointer(`version https://git-lfs.github.com/spec/v1\r\noid sha256:${oid}\r\nsize 0\r\n`)).toEqual({
      oid,
      size: 0,
    });
  });

  it("returns null for content and broken pointers", () => {
    expect(parseLfsPointer("teamId,score\n1,0.5\n")).toBeNull();
    expect(parseLfsPointer(`version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\n`)).toBeNull();
    expect(parseLfsPointer(`version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 3\n`)).toBeNull();
    expect(parseLfsPointer(`version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize -1\n`)).toBeNull();
  });
});

describe("parseChecksumsYaml", () => {
  it("flattens upstream's shape: zip at the top, files under public and private", () => {
    // As in upstream's spaceship-titanic/checksums.yaml.
    const text = [
      "private:",
      "  test.csv: 1cb99c65efecaba968128577722a83ef",
      "public:",
      "  sample_submission.csv: 5414b5da6ebcff454de1c9ed39b73774",
      "  test.csv: 8186bd4048aece25f1ed45708f8f34e1",
      "  train.csv: 564a1614ecef9d9611cec4efdce4c412",
      "zip: 67c177886736583aff9b947e121395a9",
      "",
    ].join("\n");
    expect(parseChecksumsYaml(text, "checksums.yaml")).toEqual({
      "private/test.csv": "1cb99c65efecaba968128577722a83ef",
      "public/sample_submission.csv": "5414b5da6ebcff454de1c9ed39b73774",
      "public/test.csv": "8186bd4048aece25f1ed45708f8f34e1",
      "public/train.csv": "564a1614ecef9d9611cec4efdce4c412",
      zip: "67c177886736583aff9b947e121395a9",
    });
  });

  it("accepts an empty public map, path keys, deeper nesting and digit-only md5s", () => {
    // Upstream writes `public: {}` where a competition keeps no checksummed public file.
    const text = [
      "private:",
      "  answers.csv: 88ADAC005790552CBD7530E14C88525A",
      "public: {}",
      "public/extra/a.json: d41d8cd98f00b204e9800998ecf8427e",
      "nested:",
      "  deeper:",
      "    b.csv: '12345678901234567890123456789012'",
      "    c.csv: 12345678901234567890123456789012",
      "zip: 904c5f3195cc47eae83d4334ad9c20e6",
    ].join("\n");
    expect(parseChecksumsYaml(text, "c.yaml")).toEqual({
      "private/answers.csv": "88adac005790552cbd7530e14c88525a",
      "public/extra/a.json": "d41d8cd98f00b204e9800998ecf8427e",
      "nested/deeper/b.csv": "12345678901234567890123456789012",
      "nested/deeper/c.csv": "12345678901234567890123456789012",
      zip: "904c5f3195cc47eae83d4334ad9c20e6",
    });
  });

  it("names the file and key for a value that is not an md5", () => {
    expect(() => parseChecksumsYaml("public:\n  train.csv: not-a-hash\n", "x/checksums.yaml")).toThrow(
      new UserError('x/checksums.yaml: checksum for "public/train.csv" must be an md5 (32 hex digits), got "not-a-hash".'),
    );
    expect(() => parseChecksumsYaml("zip:\n", "c.yaml")).toThrow(/checksum for "zip" .* got nothing/);
    expect(() => parseChecksumsYaml("public:\n  - a.csv\n", "c.yaml")).toThrow(/"public" .* got a list/);
  });

  it("rejects bad YAML, a non-mapping document, unsafe keys and duplicates", () => {
    expect(() => parseChecksumsYaml("public: [unclosed\n", "bad.yaml")).toThrow(/^bad\.yaml is not valid YAML: /);
    expect(() => parseChecksumsYaml("zip: a\nzip: b\n", "dup.yaml")).toThrow(/dup\.yaml is not valid YAML: Map keys must be unique/);
    expect(() => parseChecksumsYaml("", "empty.yaml")).toThrow("empty.yaml: expected a mapping");
    expect(() => parseChecksumsYaml("- a\n", "list.yaml")).toThrow("list.yaml: expected a mapping");
    expect(() => parseChecksumsYaml("../x.csv: d41d8cd98f00b204e9800998ecf8427e\n", "k.yaml")).toThrow(
      'k.yaml: key "../x.csv" is not a relative file path.',
    );
    expect(() =>
      parseChecksumsYaml(
        "public/a.csv: d41d8cd98f00b204e9800998ecf8427e\npublic:\n  a.csv: d41d8cd98f00b204e9800998ecf8427e\n",
        "twice.yaml",
      ),
    ).toThrow('twice.yaml: "public/a.csv" is listed twice.');
  });
});
