import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import yauzl from "yauzl";
import { UserError } from "../core/errors.js";

/** Archive kinds this module unpacks, by file name. */
export type ArchiveKind = "zip" | "tar" | "7z" | "gz";

/** The kind of archive a file name denotes, or null for a plain file. */
export function archiveKind(file: string): ArchiveKind | null {
  const f = file.toLowerCase();
  if (f.endsWith(".zip")) return "zip";
  if (/\.(tar|tar\.gz|tgz|tar\.bz2|tbz2|tar\.xz|txz)$/.test(f)) return "tar";
  if (f.endsWith(".7z")) return "7z";
  if (f.endsWith(".gz")) return "gz";
  return null;
}

/** A member path that stays inside the destination (no absolute paths, no "..", no drive letters). */
export function safeMemberPath(name: string, archive: string): string {
  const norm = name.replace(/\\/g, "/");
  const parts = norm.split("/").filter((p) => p !== "" && p !== ".");
  if (norm.startsWith("/") || /^[A-Za-z]:/.test(norm) || parts.includes("..")) {
    throw new UserError(`${archive}: refusing member "${name}", which would land outside the extraction folder`);
  }
  return parts.join("/");
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: true, strictFileNames: false }, (e, z) => (e || !z ? reject(e) : resolve(z))),
  );
}

async function extractZip(file: string, dest: string): Promise<string[]> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch (e) {
    throw new UserError(`${file} is not a readable zip archive (${(e as Error).message})`);
  }
  const out: string[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on("error", (e: Error) => {
      // yauzl checks member names itself; say why in the same words as our own check.
      const m = /(?:invalid relative path|absolute path): (.*)$/.exec(e.message);
      reject(
        new UserError(
          m ? `${file}: refusing member "${m[1]}", which would land outside the extraction folder` : `${file}: damaged zip archive (${e.message})`,
        ),
      );
    });
    zip.on("end", () => resolve());
    zip.on("entry", (entry: yauzl.Entry) => {
      let rel: string;
      try {
        rel = safeMemberPath(entry.fileName, file);
      } catch (e) {
        zip.close();
        reject(e);
        return;
      }
      const target = path.join(dest, rel);
      // Unix mode bits live in the high half of the external attributes; 0o120000 marks a symlink.
      const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
      if (mode === 0o120000) {
        zip.close();
        reject(new UserError(`${file}: refusing symbolic link member "${entry.fileName}"`));
        return;
      }
      if (entry.fileName.endsWith("/")) {
        fs.mkdirSync(target, { recursive: true });
        zip.readEntry();
        return;
      }
      fs.mkdirSync(path.dirname(target), { recursive: true });
      zip.openReadStream(entry, (e, stream) => {
        if (e || !stream) {
          reject(new UserError(`${file}: cannot read member "${entry.fileName}" (${e?.message})`));
          return;
        }
        pipeline(stream, fs.createWriteStream(target))
          .then(() => {
            out.push(rel);
            zip.readEntry();
          })
          .catch((err: Error) => reject(new UserError(`${file}: member "${entry.fileName}" is damaged (${err.message})`)));
      });
    });
    zip.readEntry();
  });
  return out;
}

function run(cmd: string, args: string[], what: string, hint: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("error", (e) =>
      reject(new UserError(`Cannot extract ${what}: ${cmd} is not available (${e.message}); ${hint}`)),
    );
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new UserError(`Cannot extract ${what}: ${cmd} exited with ${code}: ${err.trim().split("\n").at(-1) ?? ""}`)),
    );
  });
}

/** Every file under dir, relative, "/"-separated, sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else out.push(r);
    }
  };
  walk(dir, "");
  return out.sort();
}

/**
 * Unpack an archive into `dest` (created if needed) and return the files it produced. Members
 * that would escape `dest` (absolute paths, "..", symbolic links) are refused.
 */
export async function extractArchive(file: string, dest: string): Promise<string[]> {
  const kind = archiveKind(file);
  if (!fs.existsSync(file)) throw new UserError(`Cannot extract ${file}: it does not exist`);
  fs.mkdirSync(dest, { recursive: true });
  const before = new Set(listFiles(dest));
  if (kind === "zip") return extractZip(file, dest);
  if (kind === "gz") {
    const target = path.join(dest, path.basename(file).replace(/\.gz$/i, ""));
    await pipeline(fs.createReadStream(file), zlib.createGunzip(), fs.createWriteStream(target)).catch((e: Error) => {
      throw new UserError(`${file} is not a valid gzip file (${e.message})`);
    });
    return [path.basename(target)];
  }
  if (kind === "tar") {
    // GNU tar refuses ".." and strips leading "/" by default; symlinks are checked after.
    await run("tar", ["-xf", file, "-C", dest, "--no-same-owner"], file, "install tar");
  } else if (kind === "7z") {
    await run("7z", ["x", "-y", `-o${dest}`, file], file, "install it with: sudo apt-get install p7zip-full");
  } else {
    throw new UserError(`Cannot extract ${file}: not a .zip, .tar(.gz|.bz2|.xz), .7z or .gz file`);
  }
  const produced = listFiles(dest).filter((f) => !before.has(f));
  for (const f of produced) {
    if (fs.lstatSync(path.join(dest, f)).isSymbolicLink()) {
      fs.rmSync(path.join(dest, f));
      throw new UserError(`${file}: refusing symbolic link member "${f}"`);
    }
  }
  return produced;
}
