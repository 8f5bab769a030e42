import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { listFiles } from "../../src/io/extract.js";
import { extractSevenZip, listSevenZip, writeSevenZip } from "../../src/io/sevenzip.js";
import { tempDir } from "../helpers/data-dir.js";

// Archives made by 7-Zip itself (p7zip 16.02) from the same four files:
//   lzma2.7z            7z a x.7z dir emptydir "héllo 😀.txt"        (LZMA2 3 MB dictionary, solid, header LZMA-packed)
//   lzma-small-dict.7z  7z a -m0=LZMA:d=64k ...                       (a 64 KiB window over 2.6 MB of output)
//   non-solid.7z        7z a -m0=LZMA2 -ms=off ...                    (one folder per file)
//   copy.7z             7z a -m0=Copy -mhc=off dir/sub dir/empty.txt "héllo 😀.txt"
//   ppmd.7z             7z a -m0=PPMd "héllo 😀.txt"
const FIXTURES = decodeURIComponent(new URL("../fixtures/sevenzip/", import.meta.url).pathname);
const MD5: Record<string, string> = {
  "dir/log.txt": "8c9cbc61ae5e24fa6515a320cab46f49",
  "dir/empty.txt": "d41d8cd98f00b204e9800998ecf8427e",
  "dir/sub/noise.bin": "bb3c2895c40d3abd8e64072b07ae40d2",
  "héllo 😀.txt": "da10994f87c7514c904ccec33f8c04ff",
};

function md5Tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of listFiles(dir)) out[f] = crypto.createHash("md5").update(fs.readFileSync(path.join(dir, f))).digest("hex");
  return out;
}

/** Member names in archive order, read straight from `7z l -slt` (not through the module under test). */
function sltNames(archive: string): string[] {
  const text = execFileSync("7z", ["l", "-slt", "-sccUTF-8", "--", archive], { encoding: "utf8" });
  const members = text.slice(text.indexOf("\n----------\n"));
  return [...members.matchAll(/^Path = (.*)$/gm)].map((m) => m[1]);
}

const CASES = decodeURIComponent(new URL("../../scripts/golden/preparer_cases/", import.meta.url).pathname);

/** Run Python code with the oracles' 7z helpers (scripts/golden/preparer_cases/_sevenzip.py) importable. */
function python(code: string, ...args: string[]): void {
  const script = ["import sys", "sys.path.insert(0, sys.argv[1])", code].join("\n");
  execFileSync("/usr/bin/python3", ["-c", script, CASES, ...args], { env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
}

/** The bytes the oracles' own writer of 7-Zip's stored layout gives for non-empty members. */
function oracleArchive(members: { source: string; name: string }[]): Buffer {
  const out = path.join(tempDir(), "oracle.7z");
  const code = [
    "import json",
    "from _sevenzip import write_stored_7z",
    "members = json.loads(sys.argv[3])",
    "write_stored_7z(sys.argv[2], [(m['name'], open(m['source'], 'rb').read()) for m in members])",
  ].join("\n");
  python(code, out, JSON.stringify(members));
  return fs.readFileSync(out);
}

/** Files under `dir` whose names start with "." (the writer's temporary folders). */
function leftovers(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.startsWith("."));
}

/** Run `fn` with a PATH that holds no 7z. */
async function without7z<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = tempDir();
  try {
    return await fn();
  } finally {
    process.env.PATH = saved;
  }
}

describe("extractSevenZip", () => {
  it.each(["lzma2.7z", "lzma-small-dict.7z", "non-solid.7z"])("unpacks %s to 7-Zip's bytes", async (name) => {
    const dest = tempDir();
    expect(await extractSevenZip(path.join(FIXTURES, name), dest)).toEqual(Object.keys(MD5).sort());
    expect(md5Tree(dest)).toEqual(MD5);
    if (name === "lzma2.7z") expect(fs.statSync(path.join(dest, "emptydir")).isDirectory()).toBe(true);
  });

  it("unpacks stored and PPMd members (coders the old built-in reader lacked)", async () => {
    const copy = tempDir();
    await extractSevenZip(path.join(FIXTURES, "copy.7z"), copy);
    const { "dir/log.txt": _skip, ...rest } = MD5;
    expect(md5Tree(copy)).toEqual(rest);
    const ppmd = tempDir();
    await extractSevenZip(path.join(FIXTURES, "ppmd.7z"), ppmd);
    expect(md5Tree(ppmd)).toEqual({ "héllo 😀.txt": MD5["héllo 😀.txt"] });
  });

  it("keeps members named with .. or a leading / inside the destination", async () => {
    const dir = tempDir();
    const evil = path.join(dir, "evil.7z");
    // An archive no honest 7z writer makes, built by the oracles' own 7z code.
    python("from _sevenzip import write_kaggle_7z\nwrite_kaggle_7z(sys.argv[2], [('../escape.txt', b'x'), ('/abs.txt', b'y')])", evil);
    const dest = path.join(dir, "out", "here");
    expect(await extractSevenZip(evil, dest)).toEqual(["abs.txt", "escape.txt"]);
    expect(fs.readdirSync(path.join(dir, "out"))).toEqual(["here"]);
  });

  it("names the archive and shows 7z's own words when it is damaged or not a 7z at all", async () => {
    const dir = tempDir();
    const bad = path.join(dir, "bad.7z");
    fs.writeFileSync(bad, fs.readFileSync(path.join(FIXTURES, "lzma2.7z")).subarray(0, 2000));
    const truncated = extractSevenZip(bad, path.join(dir, "out"));
    await expect(truncated).rejects.toThrow(UserError);
    await expect(truncated).rejects.toThrow(/^Cannot extract .*\/bad\.7z: 7z exited with 2: .*Unexpected end of archive/);
    fs.writeFileSync(path.join(dir, "plain.7z"), "not an archive");
    await expect(extractSevenZip(path.join(dir, "plain.7z"), path.join(dir, "o2"))).rejects.toThrow(
      /plain\.7z: 7z exited with 2: .*Cannot open the file as \[7z\] archive.*Is not archive/,
    );
    await expect(extractSevenZip(path.join(dir, "none.7z"), path.join(dir, "o3"))).rejects.toThrow(/none\.7z: it does not exist/);
  });

  it("says how to install 7z when it is missing", async () => {
    const archive = path.join(FIXTURES, "copy.7z");
    const err = await without7z(() => extractSevenZip(archive, tempDir()).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      `Cannot extract ${archive}: 7z is not available (spawn 7z ENOENT); install it with: sudo apt-get install p7zip-full`,
    );
  });
});

describe("listSevenZip", () => {
  it("lists members in the archive's order, with sizes and folders", async () => {
    const entries = await listSevenZip(path.join(FIXTURES, "lzma2.7z"));
    expect(entries.map((e) => e.name)).toEqual(sltNames(path.join(FIXTURES, "lzma2.7z")));
    expect(entries.find((e) => e.name === "dir/log.txt")).toEqual({ name: "dir/log.txt", size: 2653283, isDirectory: false });
    expect(entries.find((e) => e.name === "emptydir")).toEqual({ name: "emptydir", size: 0, isDirectory: true });
    expect(entries.filter((e) => e.isDirectory).map((e) => e.name).sort()).toEqual(["dir", "dir/sub", "emptydir"]);
  });
});

describe("writeSevenZip", () => {
  it("writes the one layout: stored, no times, no attributes, unpacked header", async () => {
    const dir = tempDir();
    const src = path.join(dir, "s.csv");
    fs.writeFileSync(src, "id,x\n1,0.5\n");
    await writeSevenZip(path.join(dir, "s.7z"), [{ source: src, name: "s.csv" }]);
    const expected = [
      "377abcaf271c 0004", // signature, format version 0.4
      "14455fbd 0b00000000000000 2e00000000000000 d7d6df2d", // start header: its CRC, header offset 11, header size 46, header CRC
      "69642c780a312c302e350a", // the member, as is
      "01 04 060001090b00", // header, main streams: one packed stream of 11 bytes at 0
      "070b0100010100 0c0b00", // one folder, one coder: Copy (id 00), unpacking to 11 bytes
      "080a0169b7196c00 00", // the member's CRC
      "0501 110d00 73002e00630073007600 0000 0000", // one file, its UTF-16 name "s.csv"; no time or attribute records
    ].join("");
    expect(fs.readFileSync(path.join(dir, "s.7z")).toString("hex")).toBe(expected.replace(/ /g, ""));
  });

  it("round-trips members byte for byte, with their names and order", async () => {
    const dir = tempDir();
    const files: Record<string, Buffer> = {
      "a.json": Buffer.from('{"x": [1.5, "é"]}'),
      "empty.txt": Buffer.alloc(0),
      "noise.bin": crypto.randomBytes(70_000),
      "ppmd.7z": fs.readFileSync(path.join(FIXTURES, "ppmd.7z")),
    };
    for (const [f, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), bytes);
    const members = [
      { source: path.join(dir, "a.json"), name: "a.json" },
      { source: path.join(dir, "noise.bin"), name: " naïve 😀 .bin" },
      { source: path.join(dir, "ppmd.7z"), name: "sub/deeper/inner.7z" },
      { source: path.join(dir, "empty.txt"), name: "sub/empty.txt" },
      { source: path.join(dir, "a.json"), name: "z-again.json" },
    ];
    const archive = path.join(dir, "out.7z");
    await writeSevenZip(archive, members);
    // 7-Zip lists empty files first; the rest keep the given order.
    expect(sltNames(archive)).toEqual(["sub/empty.txt", "a.json", " naïve 😀 .bin", "sub/deeper/inner.7z", "z-again.json"]);
    expect((await listSevenZip(archive)).map((e) => [e.name, e.size])).toEqual([
      ["sub/empty.txt", 0],
      ["a.json", 18],
      [" naïve 😀 .bin", 70_000],
      ["sub/deeper/inner.7z", files["ppmd.7z"].length],
      ["z-again.json", 18],
    ]);
    const dest = path.join(dir, "x");
    expect(await extractSevenZip(archive, dest)).toEqual([" naïve 😀 .bin", "a.json", "sub/deeper/inner.7z", "sub/empty.txt", "z-again.json"]);
    for (const m of members) expect(fs.readFileSync(path.join(dest, m.name)).equals(fs.readFileSync(m.source)), m.name).toBe(true);
  });

  it("keeps an order that is not 7-Zip's own (sorted by name)", async () => {
    const dir = tempDir();
    const names = ["train/10.jpg", "train/9.jpg", "B.txt", "a.txt", "train/1.jpg", "Z/y.txt"];
    const members = names.map((name, i) => {
      const source = path.join(dir, `src${i}`);
      fs.writeFileSync(source, `member ${i}: ${name}\n`);
      return { source, name };
    });
    const archive = path.join(dir, "o.7z");
    await writeSevenZip(archive, members);
    expect(sltNames(archive)).toEqual(names);
    const dest = path.join(dir, "x");
    await extractSevenZip(archive, dest);
    names.forEach((name, i) => expect(fs.readFileSync(path.join(dest, name), "utf8")).toBe(`member ${i}: ${name}\n`));
    // Renaming in place leaves the layout a direct write would have: the oracles' independent writer agrees.
    expect(fs.readFileSync(archive).equals(oracleArchive(members))).toBe(true);
  });

  it("writes the same bytes for the same members, whatever the files' times, modes or paths", async () => {
    const dir = tempDir();
    const one = path.join(dir, "one.csv");
    const two = path.join(dir, "elsewhere", "two.csv");
    fs.mkdirSync(path.dirname(two));
    for (const f of [one, two]) fs.writeFileSync(f, "id,x\n1,0.5\n2,0.25\n");
    fs.writeFileSync(path.join(dir, "b.txt"), "b");
    fs.utimesSync(two, new Date("2001-02-03T04:05:06Z"), new Date("2001-02-03T04:05:06Z"));
    fs.chmodSync(two, 0o600);
    const a = path.join(dir, "1.7z");
    const b = path.join(dir, "2.7z");
    await writeSevenZip(a, [{ source: one, name: "s.csv" }, { source: path.join(dir, "b.txt"), name: "t/b.txt" }]);
    await new Promise((r) => setTimeout(r, 1100));
    await writeSevenZip(b, [{ source: two, name: "s.csv" }, { source: path.join(dir, "b.txt"), name: "t/b.txt" }]);
    expect(fs.readFileSync(a).equals(fs.readFileSync(b))).toBe(true);
    expect(fs.readFileSync(a).equals(oracleArchive([{ source: one, name: "s.csv" }, { source: path.join(dir, "b.txt"), name: "t/b.txt" }]))).toBe(true);
  });

  it("replaces an existing archive whole and leaves no temporary files", async () => {
    const dir = tempDir();
    const src = path.join(dir, "s.txt");
    fs.writeFileSync(src, "new");
    const archive = path.join(dir, "out.7z");
    fs.writeFileSync(archive, "old contents");
    await writeSevenZip(archive, [{ source: src, name: "s.txt" }]);
    expect(sltNames(archive)).toEqual(["s.txt"]);
    expect(leftovers(dir)).toEqual([]);
    // A failure leaves the old archive as it was.
    await expect(writeSevenZip(archive, [{ source: path.join(dir, "missing"), name: "m" }])).rejects.toThrow(/out\.7z: .*missing \(member "m"\) is not a file/);
    expect(sltNames(archive)).toEqual(["s.txt"]);
    expect(leftovers(dir)).toEqual([]);
  });

  it("refuses names 7z would store otherwise, or that cannot all be files", async () => {
    const dir = tempDir();
    const src = path.join(dir, "s.txt");
    fs.writeFileSync(src, "x");
    const archive = path.join(dir, "bad.7z");
    for (const name of ["../escape.txt", "/abs.txt", "a\\b.txt", "a//b.txt", "./a.txt", "a/", ""]) {
      await expect(writeSevenZip(archive, [{ source: src, name }]), JSON.stringify(name)).rejects.toThrow(/bad\.7z: member name .* is not a plain relative path/);
    }
    for (const name of ['say "hi".txt', "two\nlines.txt"]) {
      await expect(writeSevenZip(archive, [{ source: src, name }])).rejects.toThrow(/has a double quote or line break/);
    }
    await expect(writeSevenZip(archive, [{ source: src, name: "a" }, { source: src, name: "a" }])).rejects.toThrow(/"a" appears twice/);
    await expect(writeSevenZip(archive, [{ source: src, name: "a" }, { source: src, name: "a/b" }])).rejects.toThrow(
      /"a" is both a member and the folder of member "a\/b"/,
    );
    await expect(writeSevenZip(archive, [{ source: dir, name: "d" }])).rejects.toThrow(/is not a file/);
    expect(fs.existsSync(archive)).toBe(false);
    expect(leftovers(dir)).toEqual([]);
  });

  it("writes an empty archive for no members", async () => {
    const dir = tempDir();
    await writeSevenZip(path.join(dir, "empty.7z"), []);
    expect(await listSevenZip(path.join(dir, "empty.7z"))).toEqual([]);
    expect(fs.statSync(path.join(dir, "empty.7z")).size).toBe(32);
  });

  it("says how to install 7z when it is missing, and leaves nothing behind", async () => {
    const dir = tempDir();
    const src = path.join(dir, "s.txt");
    fs.writeFileSync(src, "x");
    const archive = path.join(dir, "out.7z");
    const err = await without7z(() => writeSevenZip(archive, [{ source: src, name: "s.txt" }]).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      `Cannot write ${archive}: 7z is not available (spawn 7z ENOENT); install it with: sudo apt-get install p7zip-full`,
    );
    expect(fs.readdirSync(dir)).toEqual(["s.txt"]);
  });
});
