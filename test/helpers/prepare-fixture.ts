import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext, UpstreamSpec } from "../../src/core/competition.js";
import { tempDir } from "./data-dir.js";

/**
 * Synthetic raw files of each upstream preparer (scripts/golden/preparers.py) with the md5s of its
 * outputs: upstream's own (expected.json, scripts/golden/upstream/oracle.py) and the independent
 * steps' (independent.json), and where and why they differ (oracle.json).
 */
export const PREPARER_FIXTURES = decodeURIComponent(new URL("../fixtures/preparers/", import.meta.url).pathname);
const SRC = decodeURIComponent(new URL("../../src/competitions/", import.meta.url).pathname);

/** Run a competition's preparer on a copy of its fixture's raw/ (after `arrange`); returns the folders. */
export async function runFixturePreparer(id: string, arrange: (raw: string) => void = () => {}): Promise<UpstreamPrepareContext> {
  const dir = tempDir();
  const ctx = { raw: path.join(dir, "raw"), public: path.join(dir, "public"), private: path.join(dir, "private") };
  fs.mkdirSync(ctx.public);
  fs.mkdirSync(ctx.private);
  // Imported by folder convention so the test covers a preparer even before it is registered.
  const { prepare } = (await import(path.join(SRC, id, "prepare.ts"))) as { prepare: UpstreamSpec["prepare"] };
  // Preparers may unpack archives into raw/; they get a copy so the fixture stays as shipped.
  fs.cpSync(path.join(PREPARER_FIXTURES, id, "raw"), ctx.raw, { recursive: true });
  arrange(ctx.raw);
  await prepare(ctx);
  return ctx;
}
