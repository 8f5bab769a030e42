import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { comparePyStrings } from "../../prepare/groupby.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

/** A clip and its label, the name of the folder holding it. */
interface Clip {
  label: string;
  file: string;
}

// Path.rglob("*.wav") under the audio folder: clips at any depth, labelled by their own folder.
function findClips(dir: string, out: Clip[] = []): Clip[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) findClips(full, out);
    else if (e.name.endsWith(".wav")) out.push({ label: path.basename(dir), file: full });
  }
  return out;
}

/**
 * Upstream's split: train.7z is unpacked into raw/ (a raw/train/ unpacked by hand is used as is),
 * clips are sorted by "<label>_<file name>" and 10% (random_state 0) become test clips renamed
 * clip_00000000.wav...; the sample submission says "silence" for each.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  const archive = path.join(ctx.raw, "train.7z");
  if (fs.existsSync(archive)) await extractArchive(archive, ctx.raw);
  const audio = path.join(ctx.raw, "train", "audio");
  if (!fs.existsSync(audio)) throw new UserError(`${audio} is missing: expected Kaggle's train.7z (or its unpacked train/ folder) in ${ctx.raw}`);
  const key = (c: Clip) => `${c.label}_${path.basename(c.file)}`;
  // Array.prototype.sort is stable, like Python's sorted, should two clips share a key.
  const clips = findClips(audio).sort((a, b) => comparePyStrings(key(a), key(b)));
  const split = trainTestSplitIndices(clips.length, { testSize: 0.1, randomState: 0 });
  fs.mkdirSync(path.join(ctx.public, "test", "audio"), { recursive: true });
  for (const c of split.train.map((i) => clips[i])) {
    const dest = path.join(ctx.public, "train", "audio", c.label);
    fs.mkdirSync(dest, { recursive: true });
    fs.copyFileSync(c.file, path.join(dest, path.basename(c.file)));
  }
  const names: string[] = [];
  const labels: string[] = [];
  split.test.forEach((i, idx) => {
    const name = `clip_${String(idx).padStart(8, "0")}.wav`;
    fs.copyFileSync(clips[i].file, path.join(ctx.public, "test", "audio", name));
    names.push(name);
    labels.push(clips[i].label);
  });
  writeCsv(
    path.join(ctx.private, "test.csv"),
    makeTable([
      ["fname", { kind: "string", values: names }],
      ["label", { kind: "string", values: labels }],
    ]),
  );
  writeCsv(
    path.join(ctx.public, "sample_submission.csv"),
    makeTable([
      ["fname", { kind: "string", values: names }],
      ["label", { kind: "string", values: names.map(() => "silence") }],
    ]),
  );
}
