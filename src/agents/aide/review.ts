/** The review of a node's run: a forced tool call whose answer decides bug or not, and the metric. */
import { z } from "zod";
import type { ToolSpec } from "../../llm/types.js";
import type { Journal } from "./journal.js";

/** The review tool's arguments; an integer metric is a number like any other. */
export const ReviewSchema = z.object({
  is_bug: z.boolean().describe("true when the output shows the run failed or the code has a bug, otherwise false"),
  summary: z
    .string()
    .describe("with a bug: what to change to fix it; otherwise 2-3 sentences on what the run found"),
  metric: z
    .number()
    .refine(Number.isFinite, "must be a finite number")
    .nullable()
    .describe("the validation metric the run printed, or null when it printed none"),
  lower_is_better: z.boolean().describe("true when a lower metric is better (like an error), false when higher is better (like accuracy)"),
});
export type Review = z.infer<typeof ReviewSchema>;

/** The forced tool the reviewer must call. */
export const REVIEW_TOOL: ToolSpec & { parameters: typeof ReviewSchema } = {
  name: "submit_review",
  description: "Report whether the training script's run has a bug, what it found, and its validation metric.",
  parameters: ReviewSchema,
};

/** What running a node showed, as far as the verdict needs it. */
export interface RunFacts {
  exitCode: number | null;
  timedOut: boolean;
  hasSubmission: boolean;
}

/** A node's verdict from its review and run. */
export interface Verdict {
  isBug: boolean;
  metric: number | null;
  analysis: string;
}

/**
 * Combine the review with what the harness saw: a failed or timed-out run, a missing metric or a
 * missing submission makes the node buggy whatever the review says. The first working node fixes
 * the metric's direction for the whole task.
 */
export function judgeRun(journal: Journal, review: Review, run: RunFacts): Verdict {
  const notes: string[] = [];
  if (run.timedOut) notes.push("The run was stopped at the time limit.");
  else if (run.exitCode !== 0) notes.push(`The run exited with status ${run.exitCode ?? "none (killed by a signal)"}.`);
  if (!run.hasSubmission) notes.push("The run did not write submission/submission.csv.");
  if (review.metric === null) notes.push("No validation metric was reported.");
  const isBug = review.is_bug || notes.length > 0;
  if (!isBug && journal.lowerIsBetter === null) journal.lowerIsBetter = review.lower_is_better;
  return {
    isBug,
    metric: isBug ? null : review.metric,
    analysis: [review.summary, ...notes].filter(Boolean).join(" "),
  };
}

/** The verdict when the reviewer never gave a usable answer: treated as a bug, with the reason. */
export function unreviewed(reason: string): Verdict {
  return { isBug: true, metric: null, analysis: `The review failed: ${reason}` };
}
