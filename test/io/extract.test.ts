import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { archiveKind, extractArchive, safeMemberPath } from "../../src/io/extract.js";
import { tempDir } from "../helpers/data-dir.js";

/** Write a zip with Python's zipfile (an independent writer), members given as name → text. */
function makeZip(file: string, members: Record<string, string>, symlink?: [string, string]): void {
  const script = [
    "import sys, json, zipfile",
    "members = json.loads(sys.argv[2])",
    "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:",
    "    for name, text in members.items():",
    "        z.writestr(name, text)",
    "    if len(sys.argv) > 3:",
    "        info = zipfile.ZipInfo(sys.argv[3])",
    "        info.external_attr = (0o120777 << 16)",
    "        z.writestr(info, sys.argv[4])",
  ].join("\n");
  execFileSync("/usr/bin/python3", ["-c", script, file, JSON.stringify(members), ...(symlink ?? [])]);
}

describe("extractArchive", () => {
  it("unpacks a zip with folders, byte for byte", async () => {
    const dir = tempDir();
    const zip = path.join(dir, "comp.zip");
    makeZip(zip, { "train.csv": "id,y\n1,2\n", "images/a.txt": "A", "images/b/c.txt": "C".repeat(100_000) });
    const dest = path.join(dir, "raw");
    expect((await extractArchive(zip, dest)).sort()).toEqual(["images/a.txt", "images/b/c.txt", "train.csv"]);
    expect(fs.readFileSync(path.join(dest, "train.csv"), "utf8")).toBe("id,y\n1,2\n");
    expect(fs.readFileSync(path.join(dest, "images/b/c.txt"), "utf8")).toBe("C".repeat(100_000));
  });

  it("refuses members that would escape the destination", async () => {
    const dir = tempDir();
    const zip = path.join(dir, "evil.zip");
    makeZip(zip, { "ok.txt": "x", "../escape.txt": "y" });
    await expect(extractArchive(zip, path.join(dir, "raw"))).rejects.toThrow(/refusing member "\.\.\/escape\.txt"/);
    expect(fs.existsSync(path.join(dir, "escape.txt"))).toBe(false);
    const link = path.join(dir, "link.zip");
    makeZip(link, { "ok.txt": "x" }, ["passwd", "/etc/passwd"]);
    await expect(extractArchive(link, path.join(dir, "raw2"))).rejects.toThrow('refusing symbolic link member "passwd"');
  });

  // p7zip-full comes from scripts/setup-system.sh; upstream ships some Kaggle data as .7z.
  it("unpacks a .7z archive with folders, and refuses a damaged one", async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, "src/train/yes"), { recursive: true });
    fs.writeFileSync(path.join(dir, "src/train/yes/a.wav"), Buffer.from([0, 1, 2, 255]));
    fs.writeFileSync(path.join(dir, "src/train/list.txt"), "yes/a.wav\n");
    execFileSync("7z", ["a", "-bd", "-y", path.join(dir, "train.7z"), "train"], { cwd: path.join(dir, "src"), stdio: "ignore" });
    const out = path.join(dir, "out");
    expect((await extractArchive(path.join(dir, "train.7z"), out)).sort()).toEqual(["train/list.txt", "train/yes/a.wav"]);
    expect([...fs.readFileSync(path.join(out, "train/yes/a.wav"))]).toEqual([0, 1, 2, 255]);
    fs.writeFileSync(path.join(dir, "bad.7z"), "not an archive");
    await expect(extractArchive(path.join(dir, "bad.7z"), path.join(dir, "o2"))).rejects.toThrow(/Cannot extract .*bad\.7z: 7z exited with 2/);
  });

  it("unpacks by an explicit kind whatever the name, and quotes the end of the program's stderr", async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, "src"));
    fs.writeFileSync(path.join(dir, "src/a.txt"), "A");
    execFileSync("7z", ["a", "-bd", "-y", path.join(dir, "download.bin"), "a.txt"], { cwd: path.join(dir, "src"), stdio: "ignore" });
    await expect(extractArchive(path.join(dir, "download.bin"), path.join(dir, "o1"))).rejects.toThrow(/not a \.zip/);
    expect(await extractArchive(path.join(dir, "download.bin"), path.join(dir, "o2"), "7z")).toEqual(["a.txt"]);
    expect(fs.readFileSync(path.join(dir, "o2/a.txt"), "utf8")).toBe("A");
    fs.writeFileSync(path.join(dir, "bad.tar"), "junk");
    await expect(extractArchive(path.join(dir, "bad.tar"), path.join(dir, "o3"))).rejects.toThrow(
      `Cannot extract ${path.join(dir, "bad.tar")}: tar exited with 2: tar: This does not look like a tar archive | tar: Exiting with failure status due to previous errors`,
    );
  });

  it("unpacks tar.gz and .gz, and names damaged or unknown files", async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, "src/sub"), { recursive: true });
    fs.writeFileSync(path.join(dir, "src/sub/x.csv"), "a\n1\n");
    execFileSync("tar", ["-czf", path.join(dir, "d.tar.gz"), "-C", path.join(dir, "src"), "sub"]);
    expect(await extractArchive(path.join(dir, "d.tar.gz"), path.join(dir, "out"))).toEqual(["sub/x.csv"]);
    fs.writeFileSync(path.join(dir, "t.csv.gz"), zlib.gzipSync("q\n"));
    expect(await extractArchive(path.join(dir, "t.csv.gz"), path.join(dir, "out2"))).toEqual(["t.csv"]);
    expect(fs.readFileSync(path.join(dir, "out2/t.csv"), "utf8")).toBe("q\n");
    fs.writeFileSync(path.join(dir, "bad.zip"), "not a zip");
    await expect(extractArchive(path.join(dir, "bad.zip"), path.join(dir, "o3"))).rejects.toThrow(/bad\.zip is not a readable zip archive/);
    await expect(extractArchive(path.join(dir, "x.rar"), path.join(dir, "o4"))).rejects.toThrow(/does not exist/);
  });

  it("knows archive kinds by name and keeps member paths inside", () => {
    expect(["a.zip", "a.tar.gz", "a.tgz", "a.7z", "a.csv.gz", "a.csv"].map(archiveKind)).toEqual(["zip", "tar", "tar", "7z", "gz", null]);
    expect(safeMemberPath("a/./b\\c.txt", "z")).toBe("a/b/c.txt");
    expect(() => safeMemberPath("/etc/passwd", "z")).toThrow(/outside the extraction folder/);
    expect(() => safeMemberPath("C:\\x", "z")).toThrow(/outside/);
  });
});
