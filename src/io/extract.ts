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

/** How {@link runTool} names the program's job in its errors: "Cannot <verb> <file>: ...". */
export interface ToolJob {
  verb: string;
  file: string;
  /** What to do when the program is missing, e.g. the apt-get command that installs it. */
  hint: string;
  cwd?: string;
  /** Return the program's standard output instead of discarding it. */
  captureStdout?: boolean;
}

/** The hint for a missing `7z` (Debian packages 7-Zip as p7zip-full). */
export const SEVEN_ZIP_HINT = "install it with: sudo apt-get install p7zip-full";

// Only the end of stderr is shown; a runaway program must not grow the buffer without bound.
const STDERR_KEEP = 64 * 1024;

/** The last few non-empty lines of a program's stderr, on one line, for an error message. */
function stderrTail(err: string): string {
  const lines = err.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "");
  const tail = lines.slice(-5).join(" | ");
  return tail.length > 1000 ? `...${tail.slice(-1000)}` : tail;
}

/**
 * Run an external program to completion; rejects with a UserError naming `job.file` when the
 * program is missing (with `job.hint`) or fails (with the tail of its stderr).
 */
export function runTool(cmd: string, args: string[], job: ToolJob): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: job.cwd, stdio: ["ignore", job.captureStdout ? "pipe" : "ignore", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    child.stdout?.on("data", (d: Buffer) => out.push(d));
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (d: string) => {
      err += d;
      if (err.length > 2 * STDERR_KEEP) err = err.slice(-STDERR_KEEP);
    });
    child.on("error", (e) => reject(new UserError(`Cannot ${job.verb} ${job.file}: ${cmd} is not available (${e.message}); ${job.hint}`)));
    child.on("close", (code, signal) => {
      if (code === 0) return resolve(Buffer.concat(out).toString("utf8"));
      const how = code === null ? `was killed by ${signal}` : `exited with ${code}`;
      const tail = stderrTail(err);
      reject(new UserError(`Cannot ${job.verb} ${job.file}: ${cmd} ${how}${tail ? `: ${tail}` : ""}`));
    });
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
 * that would escape `dest` (absolute paths, "..", symbolic links) are refused. `kind` overrides
 * the kind the file name implies.
 */
export async function extractArchive(file: string, dest: string, kind: ArchiveKind | null = archiveKind(file)): Promise<string[]> {
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
    await runTool("tar", ["-xf", file, "-C", dest, "--no-same-owner"], { verb: "extract", file, hint: "install tar" });
  } else if (kind === "7z") {
    // 7-Zip itself drops ".." and leading "/" from member paths; symbolic links are checked below.
    await runTool("7z", ["x", "-y", "-bd", `-o${dest}`, "--", file], { verb: "extract", file, hint: SEVEN_ZIP_HINT });
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
