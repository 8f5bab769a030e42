/** The second pass of the in-memory reader: the bytes of rows that a column had first read as numbers. */
import type { TextBytesBuilder } from "../../core/text-bytes.js";
import { isNa } from "./numbers.js";
import type { FieldRef, Tokenizer } from "./tokenizer.js";

/** A column of the second pass: its index, the rows it needs, and where they go. */
export interface BackfillTarget {
  j: number;
  upto: number;
  naFilter: boolean;
  out: TextBytesBuilder;
}

/** Collects, in a second pass, the bytes of the rows that a column had already read as numbers. */
export class BackfillSink {
  rows = 0;
  finished: boolean;
  private readonly maxUpto: number;

  private readonly targets: BackfillTarget[];
  private readonly ref: FieldRef = { b: Buffer.alloc(0), a: 0, z: 0 };

  constructor(targets: BackfillTarget[]) {
    // Longest first, so each row visits only the columns that still need it.
    this.targets = [...targets].sort((a, b) => b.upto - a.upto);
    this.maxUpto = this.targets.length > 0 ? this.targets[0].upto : 0;
    this.finished = this.maxUpto === 0;
  }

  /** Take the tokenizer's batch of records from b. */
  consume(tok: Tokenizer, b: Buffer): void {
    const nr = tok.nr;
    const lead = tok.leading;
    const targets = this.targets;
    const ref = this.ref;
    let first = 0;
    for (let r = 0; r < nr && this.rows < this.maxUpto; r++) {
      const base = first + lead;
      for (const t of targets) {
        if (this.rows >= t.upto) break;
        tok.field(b, base + t.j, ref);
        if (t.naFilter && isNa(ref.b, ref.a, ref.z)) t.out.appendNa();
        else t.out.append(ref.b, ref.a, ref.z);
      }
      first = tok.re[r];
      this.rows++;
    }
    if (this.rows >= this.maxUpto) this.finished = true;
  }
}
