import fs from "node:fs";
import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";

/** Share of messages held out as the test set, per source group (so per label too). */
const TEST_FRACTION = 0.3;
const SEED = 2002;

/** The corpus folders and whether their messages are spam; anything else means the package changed shape. */
const GROUPS: Record<string, 0 | 1> = {
  "easy-ham-1": 0,
  "easy-ham-2": 0,
  "hard-ham-1": 0,
  "spam-1": 1,
  "spam-2": 1,
};

/** One message of the corpus as the package ships it. */
export interface CorpusMessage {
  group: string;
  text: string;
}

/**
 * Read every message listed in the package's file list. The list names the raw `.txt` files;
 * their bytes are not all valid UTF-8, so the `.json` twin (already decoded text) is read instead.
 */
export function readCorpus(fileList: string): CorpusMessage[] {
  let list: unknown;
  try {
    list = JSON.parse(fs.readFileSync(fileList, "utf8"));
  } catch (e) {
    throw new Error(`${fileList}: not a readable JSON file list of the SpamAssassin corpus (${(e as Error).message})`);
  }
  if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === "string")) {
    throw new Error(`${fileList}: expected a non-empty JSON array of message file names`);
  }
  const dir = path.dirname(fileList);
  return (list as string[]).map((entry, k) => {
    const file = path.join(dir, entry.replace(/\.txt$/, ".json"));
    let msg: unknown;
    try {
      msg = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (e) {
      throw new Error(`${file} (entry ${k + 1} of ${fileList}): cannot read the message (${(e as Error).message})`);
    }
    const { group, text } = (msg ?? {}) as { group?: unknown; text?: unknown };
    if (typeof group !== "string" || !Object.hasOwn(GROUPS, group)) {
      throw new Error(`${file}: unknown message group ${JSON.stringify(group)}; expected one of ${Object.keys(GROUPS).join(", ")}`);
    }
    // The group is also the folder name; a mismatch would mean the label cannot be trusted.
    if (entry.split("/")[0] !== group) throw new Error(`${file}: group "${group}" does not match its folder`);
    if (typeof text !== "string" || text.length === 0) throw new Error(`${file}: missing or empty message text`);
    return { group, text };
  });
}

/** Whether a corpus group holds spam (1) or ham (0). */
export function isSpam(group: string): 0 | 1 {
  if (!Object.hasOwn(GROUPS, group)) throw new Error(`unknown SpamAssassin corpus group "${group}"`);
  return GROUPS[group];
}

/** Headers the collector's mail client added to some mailboxes (mostly spam): traces of collection, not mail. */
const MAILBOX_HEADERS = new Set(["x-keywords", "x-status", "status"]);

/**
 * A message without the mailbox-client headers above (and their folded continuation lines);
 * everything else, body included, is kept byte for byte.
 */
export function stripMailboxHeaders(text: string): string {
  const end = text.search(/\r?\n\r?\n/);
  const head = end < 0 ? text : text.slice(0, end);
  const rest = end < 0 ? "" : text.slice(end);
  const lines = head.split("\n");
  const kept: string[] = [];
  let dropping = false;
  for (const line of lines) {
    const folded = line.startsWith(" ") || line.startsWith("\t");
    if (!folded) {
      const colon = line.indexOf(":");
      dropping = colon > 0 && MAILBOX_HEADERS.has(line.slice(0, colon).trim().toLowerCase());
    }
    if (!dropping) kept.push(line);
  }
  return kept.join("\n") + rest;
}

/**
 * Split the corpus into a labelled train set and an unlabelled test set, stratified by source
 * group (which keeps the spam share, the hard ham and both spam collection periods equal on both
 * sides). Message texts are kept byte for byte except for the mailbox-client headers, which were
 * added when part of the corpus was collected and would give the label away.
 */
export function prepare(ctx: PrepareContext): void {
  const messages = readCorpus(ctx.sources.corpus);
  const rng = new Mulberry32(SEED);
  const order = rng.shuffle(messages.map((_, i) => i));
  const testRows = new Set<number>();
  for (const group of Object.keys(GROUPS)) {
    const members = order.filter((i) => messages[i].group === group);
    members.slice(0, Math.round(members.length * TEST_FRACTION)).forEach((i) => testRows.add(i));
  }
  // Ids come from a second shuffle: the package lists messages grouped by folder, so positions would give the label away.
  const idOrder = rng.shuffle(messages.map((_, i) => i));
  const messageId = new Map(idOrder.map((row, k) => [row, k + 1]));
  const byId = (rows: number[]) => rows.sort((a, b) => messageId.get(a)! - messageId.get(b)!);
  const train = byId(order.filter((i) => !testRows.has(i)));
  const test = byId(order.filter((i) => testRows.has(i)));

  const ids = (rows: number[]): Column => ({ kind: "int", values: Float64Array.from(rows, (i) => messageId.get(i)!) });
  const texts = (rows: number[]): Column => ({ kind: "string", values: rows.map((i) => stripMailboxHeaders(messages[i].text)) });
  const labels = (rows: number[]): Column => ({ kind: "int", values: Float64Array.from(rows, (i) => isSpam(messages[i].group)) });

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([["id", ids(train)], ["text", texts(train)], ["label", labels(train)]]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([["id", ids(test)], ["text", texts(test)]]));
  writeCsv(
    path.join(ctx.public, "sample_submission.csv"),
    makeTable([["id", ids(test)], ["label", { kind: "float", values: new Float64Array(test.length).fill(0.5) }]]),
  );
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([["id", ids(test)], ["label", labels(test)]]));
}
