import { isUtf8 } from "node:buffer";
import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { extractArchive } from "../../io/extract.js";
import { decodeLine, readRawLines } from "../../io/lines.js";
import { writeZip } from "../../io/zip-write.js";
import { pySplit, pyStrip } from "../../pycompat/pystr.js";
import { RandomState } from "../../rng/random-state.js";

/** Lines upstream reads from train_v2.txt at most (the count of Kaggle's file). */
export const TOTAL_LINES = 30_301_028;
const HEADER = '"id","sentence"\n';

/** Buffered appends to a file, so 30 million short lines cost few system calls. */
class Sink {
  private readonly fd: number;
  private readonly buf = Buffer.alloc(1 << 20);
  private used = 0;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, "w");
  }

  bytes(b: Uint8Array): void {
    if (this.used + b.length > this.buf.length) this.flush();
    if (b.length > this.buf.length) this.writeAll(b);
    else {
      this.buf.set(b, this.used);
      this.used += b.length;
    }
  }

  text(s: string): void {
    this.bytes(Buffer.from(s, "utf8"));
  }

  private writeAll(b: Uint8Array): void {
    let off = 0;
    while (off < b.length) off += fs.writeSync(this.fd, b, off, b.length - off);
  }

  flush(): void {
    this.writeAll(this.buf.subarray(0, this.used));
    this.used = 0;
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

const NEWLINE = Buffer.from("\n");

/** The sentence without one word, chosen at random but never the first or the last; words rejoined by single spaces. */
function removeRandomWord(sentence: string, rng: RandomState): string {
  const words = pySplit(sentence);
  const index = rng.randint(1, words.length - 1);
  return [...words.slice(0, index), ...words.slice(index + 1)].join(" ");
}

/**
 * Upstream's split of Kaggle's train_v2.txt (one sentence a line, about 4 GB): for each line a
 * uniform draw from one RandomState(0) decides; at most 1% of the sentences with more than two
 * words go to the test set, quotes doubled, with a random inner word removed in the public copy
 * (test_v2.txt) and kept in the answers (private/test.csv, also the sample submission). The rest
 * stay in train. Streams line by line; train lines are copied as bytes, line breaks normalised to
 * "\n" as Python's text mode does.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  await extractArchive(path.join(ctx.raw, "train_v2.txt.zip"), ctx.raw);
  const file = path.join(ctx.raw, "train_v2.txt");
  if (!fs.existsSync(file)) throw new UserError(`${path.join(ctx.raw, "train_v2.txt.zip")} holds no train_v2.txt`);

  const trainOut = path.join(ctx.public, "train_v2.txt");
  const testOut = path.join(ctx.public, "test_v2.txt");
  const train = new Sink(trainOut);
  const publicTest = new Sink(testOut);
  const answers = new Sink(path.join(ctx.private, "test.csv"));
  publicTest.text(HEADER);
  answers.text(HEADER);
  const rng = new RandomState(0);
  let lineNo = 0;
  let testCount = 0;
  /** Whether the line went to the test set; `bytes` is its text without the line break. */
  const toTest = (bytes: Buffer): boolean => {
    // The draw happens for every line, whether or not the sentence is long enough.
    if (rng.uniform() > 0.01) return false;
    const text = decodeLine(bytes, file, lineNo);
    if (pySplit(text).length <= 2) return false;
    const sentence = pyStrip(text).replaceAll('"', '""');
    const removed = removeRandomWord(sentence, rng);
    answers.text(`${testCount},"${sentence}"\n`);
    publicTest.text(`${testCount},"${removed}"\n`);
    testCount++;
    return true;
  };
  try {
    for (const line of readRawLines(file)) {
      lineNo++;
      if (!toTest(line.bytes)) {
        // Python decodes every line, so a bad byte anywhere stops upstream too.
        if (!isUtf8(line.bytes)) throw new UserError(`${file}: line ${lineNo} is not valid UTF-8`);
        train.bytes(line.bytes);
        if (line.terminated) train.bytes(NEWLINE);
      }
      if (lineNo >= TOTAL_LINES) break;
    }
  } finally {
    train.close();
    publicTest.close();
    answers.close();
  }

  // The public files are shipped zipped, as on Kaggle; the sample submission is the unzipped test file.
  fs.copyFileSync(testOut, path.join(ctx.private, "sample_submission.csv"));
  await writeZip(path.join(ctx.public, "train_v2.txt.zip"), [{ source: trainOut, name: "train_v2.txt" }]);
  await writeZip(path.join(ctx.public, "test_v2.txt.zip"), [{ source: testOut, name: "test_v2.txt" }]);
  fs.rmSync(trainOut);
  fs.rmSync(testOut);
}
