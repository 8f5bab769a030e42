/**
 * 7z archives through the `7z` program (7-Zip; Debian's p7zip-full, installed by
 * scripts/setup-system.sh): Kaggle's .7z downloads are unpacked with `7z x`, and the .7z files
 * upstream's preparers write with py7zr are written with `7z a`.
 *
 * Written archives store their members uncompressed, in one solid folder, with no times, no
 * attributes and an uncompressed header. py7zr compresses with LZMA2, and LZMA2 bytes depend on
 * the encoder (liblzma there) and its settings, so no archive written here could match upstream's
 * byte for byte anyway. Stored members make the archive depend on nothing but the members' names,
 * order and bytes: the same members always give the same file, whatever the machine or the moment.
 */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.js";
import { extractArchive, runTool, safeMemberPath, SEVEN_ZIP_HINT } from "./extract.js";

/** A file to archive: the bytes of `source`, stored under `name` ("/"-separated, relative). */
export interface SevenZipMember {
  source: string;
  name: string;
}

/** A member as `7z l -slt` reports it, in the archive's order. */
export interface SevenZipEntry {
  name: string;
  size: number;
  isDirectory: boolean;
}

// -m0=Copy stores; -ms=1t makes one solid folder (7-Zip otherwise gives each stored file a folder of
// its own); -mhc=off keeps the header unpacked; -mtm/-mtc/-mta/-mtr=off drop times and attributes,
// the only machine-dependent fields; -spd takes names literally, never as wildcards; -sse fails
// rather than skipping an unreadable file; -scsUTF-8 is the list file's encoding.
const WRITE_SWITCHES = ["-t7z", "-bd", "-y", "-m0=Copy", "-ms=1t", "-mhc=off", "-mtm=off", "-mtc=off", "-mta=off", "-mtr=off", "-spd", "-sse", "-scsUTF-8"];

/** Unpack a .7z into `dest` (created if needed) with `7z x`; returns the files it produced, sorted. */
export function extractSevenZip(archive: string, dest: string): Promise<string[]> {
  return extractArchive(archive, dest, "7z");
}

/** The members of a .7z, in the archive's order, as `7z l -slt` lists them. */
export async function listSevenZip(archive: string): Promise<SevenZipEntry[]> {
  if (!fs.existsSync(archive)) throw new UserError(`Cannot list ${archive}: it does not exist`);
  const text = await runTool("7z", ["l", "-slt", "-sccUTF-8", "--", archive], {
    verb: "list",
    file: archive,
    hint: SEVEN_ZIP_HINT,
    captureStdout: true,
  });
  // Before the "----------" line 7z describes the archive itself; after it, one block per member.
  const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
  const start = lines.indexOf("----------");
  if (start < 0) throw new UserError(`Cannot list ${archive}: 7z printed no member list`);
  const entries: SevenZipEntry[] = [];
  let fields = new Map<string, string>();
  const flush = () => {
    const name = fields.get("Path");
    if (name !== undefined) {
      const attributes = fields.get("Attributes") ?? "";
      entries.push({ name, size: Number(fields.get("Size") ?? 0), isDirectory: fields.get("Folder") === "+" || attributes.startsWith("D") });
    }
    fields = new Map();
  };
  for (const line of lines.slice(start + 1)) {
    if (line === "") flush();
    else {
      const eq = line.indexOf(" = ");
      if (eq > 0) fields.set(line.slice(0, eq), line.slice(eq + 3));
    }
  }
  flush();
  return entries;
}

/** Refuse names 7z would store differently from how they are given, or that cannot be staged as files. */
function checkMembers(archive: string, members: readonly SevenZipMember[]): void {
  const names = new Set<string>();
  for (const { name, source } of members) {
    // List files carry one name per line between double quotes: a quote or line break has no spelling there.
    if (/["\r\n\0]/.test(name)) throw new UserError(`Cannot write ${archive}: member name ${JSON.stringify(name)} has a double quote or line break`);
    let canonical: string | null;
    try {
      canonical = safeMemberPath(name, archive);
    } catch {
      canonical = null;
    }
    if (canonical !== name || name === "") {
      throw new UserError(`Cannot write ${archive}: member name "${name}" is not a plain relative path ("/"-separated, no "." or ".." parts, no backslash)`);
    }
    if (names.has(name)) throw new UserError(`Cannot write ${archive}: member name "${name}" appears twice`);
    names.add(name);
    if (!fs.statSync(source, { throwIfNoEntry: false })?.isFile()) throw new UserError(`Cannot write ${archive}: ${source} (member "${name}") is not a file`);
  }
  for (const name of names) {
    const parts = name.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (names.has(dir)) throw new UserError(`Cannot write ${archive}: "${dir}" is both a member and the folder of member "${name}"`);
    }
  }
}

/** Lay `files` ([source, name]) out under `root` as hard links where possible, copies otherwise. */
function stage(root: string, files: [string, string][]): void {
  fs.mkdirSync(root, { recursive: true });
  for (const [source, name] of files) {
    const target = path.join(root, name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    try {
      // link(2) does not follow a symbolic link, so link what it points to.
      fs.linkSync(fs.realpathSync(source), target);
    } catch {
      fs.copyFileSync(source, target);
    }
  }
}

/** A 7z list file: one double-quoted name per line (unquoted, 7z trims spaces at either end). */
function writeListFile(file: string, names: string[]): void {
  fs.writeFileSync(file, names.map((n) => `"${n}"\n`).join(""));
}

/** `7z a` of the staged names into a new archive `out`; the names are relative to `root`. */
async function addStaged(out: string, root: string, names: string[], listFile: string, archive: string): Promise<void> {
  writeListFile(listFile, names);
  await runTool("7z", ["a", ...WRITE_SWITCHES, out, `@${listFile}`], { verb: "write", file: archive, hint: SEVEN_ZIP_HINT, cwd: root });
}

function sameNames(entries: SevenZipEntry[], want: string[]): boolean {
  return entries.length === want.length && entries.every((e, i) => e.name === want[i] && !e.isDirectory);
}

/**
 * Write `members` to a new .7z at `archive` with `7z a`, replacing any file there only once the
 * archive is complete: stored, names exactly as given, no times or attributes, so the same
 * members give the same bytes. Members keep the given order, except that 7-Zip lists empty
 * files ahead of the others.
 */
export async function writeSevenZip(archive: string, members: readonly SevenZipMember[]): Promise<void> {
  checkMembers(archive, members);
  const target = path.resolve(archive);
  const work = fs.mkdtempSync(path.join(path.dirname(target), `.${path.basename(target)}.`));
  try {
    const out = path.join(work, "out.7z");
    const listFile = path.join(work, "names.txt");
    const empty = members.map((m) => fs.statSync(m.source).size === 0);
    const want = [...members.filter((_, i) => empty[i]), ...members.filter((_, i) => !empty[i])].map((m) => m.name);

    // 7-Zip orders new members by name, so staged under their own names they keep the given
    // order only when it is already 7-Zip's (sorted, as the preparers give them).
    stage(path.join(work, "named"), members.map((m) => [m.source, m.name]));
    await addStaged(out, path.join(work, "named"), members.map((m) => m.name), listFile, archive);
    if (!sameNames(await listSevenZip(out), want)) {
      // Otherwise: members staged as zero-padded indexes sort in the given order, and `7z rn`
      // renames them in place without reordering.
      fs.rmSync(out);
      fs.rmSync(path.join(work, "named"), { recursive: true });
      const width = String(Math.max(members.length - 1, 0)).length;
      const keys = members.map((_, i) => String(i).padStart(width, "0"));
      stage(path.join(work, "indexed"), members.map((m, i) => [m.source, keys[i]]));
      await addStaged(out, path.join(work, "indexed"), keys, listFile, archive);
      writeListFile(listFile, members.flatMap((m, i) => [keys[i], m.name]));
      await runTool("7z", ["rn", ...WRITE_SWITCHES, out, `@${listFile}`], { verb: "write", file: archive, hint: SEVEN_ZIP_HINT });
      if (!sameNames(await listSevenZip(out), want)) throw new Error(`7z did not store the members of ${archive} in the order given`);
    }
    // The bytes reach the disk before the name does, so a crash never leaves a truncated archive in place.
    const fd = fs.openSync(out, "r");
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(out, target);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
