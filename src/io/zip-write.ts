/**
 * Zip archives written the way upstream's preparers write them (Python's zipfile, deflated),
 * streamed from disk so a folder of many gigabytes never has to fit in memory.
 */
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yazl from "yazl";
import { UserError } from "../core/errors.js";
import { listFiles } from "./extract.js";

/** One member of a zip: the file on disk and its name inside the archive ("/"-separated). */
export interface ZipMember {
  source: string;
  name: string;
}

/**
 * Write `members` into `zipPath`, deflated, in the given order. The archive appears under its
 * final name only once complete, so an interrupted run never leaves a truncated zip behind.
 */
export async function writeZip(zipPath: string, members: Iterable<ZipMember>): Promise<void> {
  const zip = new yazl.ZipFile();
  const part = `${zipPath}.partial`;
  const seen = new Set<string>();
  for (const m of members) {
    if (seen.has(m.name)) throw new UserError(`${zipPath}: member "${m.name}" given twice`);
    seen.add(m.name);
    if (!fs.existsSync(m.source)) throw new UserError(`${zipPath}: cannot add ${m.source}: it does not exist`);
    if (!fs.statSync(m.source).isFile()) throw new UserError(`${zipPath}: cannot add ${m.source}: it is not a regular file`);
    zip.addFile(m.source, m.name, { compress: true });
  }
  // yazl reports a source it cannot read on the ZipFile, not the stream; failing the stream
  // ends the pipeline instead of leaving it waiting forever.
  zip.on("error", (e: Error) => (zip.outputStream as Readable).destroy(e));
  zip.end();
  try {
    await pipeline(zip.outputStream, fs.createWriteStream(part));
    fs.renameSync(part, zipPath);
  } catch (e) {
    fs.rmSync(part, { force: true });
    throw e;
  }
}

/**
 * Zip every file under `dir`, named relative to it, optionally under a folder `prefix`
 * (upstream's `compress(dir, zip)` has none; `shutil.make_archive(base, "zip", root, dir)` has `dir/`).
 */
export async function zipDirectory(dir: string, zipPath: string, prefix = ""): Promise<void> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UserError(`Cannot zip ${dir}: not a directory`);
  const head = prefix === "" ? "" : `${prefix.replace(/\/+$/, "")}/`;
  await writeZip(
    zipPath,
    listFiles(dir).map((f) => ({ source: path.join(dir, f), name: head + f })),
  );
}
