/** The AIDE journal: every solution tried, how each one derives from another, and what its run showed. */
import { z } from "zod";

/** How a node came about: a fresh draft, a fix of a buggy parent, or a change to a working parent. */
export const StageSchema = z.enum(["draft", "debug", "improve"]);
export type Stage = z.infer<typeof StageSchema>;

/** One solution: the plan and code the model wrote, what running it printed, and the review's verdict. */
export const NodeSchema = z.object({
  /** Also the step that produced it, from 0. */
  id: z.number().int().nonnegative(),
  parentId: z.number().int().nonnegative().nullable(),
  stage: StageSchema,
  plan: z.string(),
  code: z.string(),
  createdAt: z.string(),
  /** Terminal output, already cut to its head and tail. */
  termOut: z.string(),
  execTimeS: z.number(),
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  /** Whether the run left a submission file in the node's own folder. */
  hasSubmission: z.boolean(),
  analysis: z.string(),
  metric: z.number().nullable(),
  isBug: z.boolean(),
});
export type JournalNode = z.infer<typeof NodeSchema>;

/** journal.json: the nodes, the metric's direction once known, and the best node's id. */
export const JournalFileSchema = z.object({
  lowerIsBetter: z.boolean().nullable(),
  bestId: z.number().int().nullable(),
  nodes: z.array(NodeSchema),
  /** LLM use so far (calls, tokens, cost, retries), when the writer knows it. */
  usage: z.record(z.string(), z.number()).optional(),
});
export type JournalFile = z.infer<typeof JournalFileSchema>;

/** The solution tree with the queries the search policy and the prompts need. */
export class Journal {
  readonly nodes: JournalNode[] = [];
  /**
   * Fixed by the first working node's review and never changed afterwards, so that a reviewer that
   * flips its opinion cannot reorder nodes already compared.
   */
  lowerIsBetter: boolean | null = null;

  /** Build a journal from journal.json contents. */
  static fromJSON(data: unknown): Journal {
    const file = JournalFileSchema.parse(data);
    const j = new Journal();
    j.nodes.push(...file.nodes);
    j.lowerIsBetter = file.lowerIsBetter;
    return j;
  }

  /** Add a node; its id must be the next step number. */
  append(node: JournalNode): void {
    if (node.id !== this.nodes.length) throw new Error(`journal: node ${node.id} appended at step ${this.nodes.length}`);
    this.nodes.push(node);
  }

  /** The node with this id. */
  get(id: number): JournalNode {
    const n = this.nodes[id];
    if (!n) throw new Error(`journal: no node ${id}`);
    return n;
  }

  /** The stage a new child of `parentId` would have. */
  stageFor(parentId: number | null): Stage {
    if (parentId === null) return "draft";
    return this.get(parentId).isBug ? "debug" : "improve";
  }

  /** Direct children of a node, in step order. */
  children(id: number): JournalNode[] {
    return this.nodes.filter((n) => n.parentId === id);
  }

  /** Whether nothing was derived from this node yet. */
  isLeaf(id: number): boolean {
    return !this.nodes.some((n) => n.parentId === id);
  }

  /** How many debug steps in a row led to this node (0 for drafts and improvements). */
  debugDepth(id: number): number {
    let depth = 0;
    for (let n = this.get(id); n.stage === "debug" && n.parentId !== null; n = this.get(n.parentId)) depth++;
    return depth;
  }

  /** Nodes without a parent. */
  drafts(): JournalNode[] {
    return this.nodes.filter((n) => n.parentId === null);
  }

  /** Nodes the review (or the run) found broken. */
  buggy(): JournalNode[] {
    return this.nodes.filter((n) => n.isBug);
  }

  /** Nodes that ran, reported a metric and left a submission. */
  good(): JournalNode[] {
    return this.nodes.filter((n) => !n.isBug);
  }

  /** Whether metric `a` beats `b` in the task's direction (higher is better until a review says otherwise). */
  better(a: number, b: number): boolean {
    return this.lowerIsBetter ? a < b : a > b;
  }

  /** The working node with the best metric; on a tie the earliest one. */
  best(): JournalNode | null {
    let best: JournalNode | null = null;
    for (const n of this.good()) {
      if (n.metric === null) continue;
      if (best === null || this.better(n.metric, best.metric as number)) best = n;
    }
    return best;
  }

  /** What the model is told about earlier working solutions: their plans, findings and metrics. */
  memory(): string {
    return this.good()
      .map((n) => `Plan: ${n.plan}\nFindings: ${n.analysis}\nValidation metric: ${n.metric}`)
      .join("\n\n---\n\n");
  }

  /** journal.json contents. */
  toJSON(): JournalFile {
    return { lowerIsBetter: this.lowerIsBetter, bestId: this.best()?.id ?? null, nodes: this.nodes };
  }
}
