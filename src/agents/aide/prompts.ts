/** The prompts AIDE sends: drafting, improving, debugging and reviewing, each as markdown sections. */
import { fence } from "./response.js";

/** A prompt section: text, a bullet list, or nested sections. */
export type Section = string | string[] | { [title: string]: Section };

/** Render sections as markdown, headings deepening with nesting. */
export function renderSections(sections: { [title: string]: Section }, level = 1): string {
  return Object.entries(sections)
    .map(([title, body]) => `${"#".repeat(level)} ${title}\n\n${renderBody(body, level)}`)
    .join("\n\n");
}

function renderBody(body: Section, level: number): string {
  if (typeof body === "string") return body;
  if (Array.isArray(body)) return body.map((b) => `- ${b}`).join("\n");
  return renderSections(body, level + 1);
}

/** What every prompt knows about the run. */
export interface PromptContext {
  task: string;
  /** The data folder as the program sees it. */
  dataDir: string;
  /** Data overview (file tree and CSV summaries), or null when it could not be made. */
  preview: string | null;
  memory: string;
  execTimeoutS: number;
  stepsLeft: number;
  totalSteps: number;
  /**
   * Seconds until the run's deadline; null when there is none; undefined when the clock is kept out of
   * the prompts so that recorded answers replay (prompts must then be identical run to run).
   */
  secondsLeft: number | null | undefined;
}

/** "2h 5m", "40s": a duration for people. */
export function humanDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}

function budget(ctx: PromptContext): string {
  const time =
    ctx.secondsLeft === undefined ? "" : ctx.secondsLeft === null ? "; no overall time limit" : `; ${humanDuration(ctx.secondsLeft)} of wall-clock time left`;
  return `This is one of ${ctx.stepsLeft} remaining steps (of ${ctx.totalSteps})${time}. Each program may run for at most ${humanDuration(ctx.execTimeoutS)}.`;
}

const ANSWER_FORMAT =
  "Start with a short plan in plain prose (3 to 5 sentences). Then give one markdown code block (```python ... ```) " +
  "holding the whole program, which prints the validation metric. Write nothing after the code block and add no headings.";

function codingRules(ctx: PromptContext): string[] {
  return [
    "Implement the plan completely and print the metric measured on a held-out validation split (or cross-validation, where it suits the task).",
    "Write one self-contained Python file that runs as it is; leave nothing out and do not stop early.",
    `The program must finish within ${humanDuration(ctx.execTimeoutS)}; choose model sizes and epochs accordingly.`,
    `The input data is in \`${ctx.dataDir}\` (also linked as \`./input\`); it is read-only and already unpacked.`,
    "Write the predictions for the test set to `./submission/submission.csv`, in the format the task asks for. The run only counts if this file exists; the best run's file is copied to the final submission place for you.",
    "Use `./working` for any other files the program writes.",
    "Available: numpy, pandas, scikit-learn, scipy, xgboost and the rest of the Python standard library; there is no network, so nothing can be installed or downloaded.",
  ];
}

function dataSection(ctx: PromptContext): { [title: string]: Section } {
  return ctx.preview ? { "Data overview": ctx.preview } : {};
}

/** The prompt for a first, simple solution. */
export function draftPrompt(ctx: PromptContext): string {
  return renderSections({
    Role: "You are an expert machine-learning engineer competing in a Kaggle-style competition. Propose a sound plan for a solution and implement it in Python.",
    Task: ctx.task,
    "Earlier solutions": ctx.memory || "None yet.",
    Budget: budget(ctx),
    Instructions: {
      "Answer format": ANSWER_FORMAT,
      "Plan guidelines": [
        "Keep this first solution simple: no ensembles and no hyper-parameter search.",
        "Read the earlier solutions: try a different model than they did, but evaluate the same way.",
        "Say which validation metric fits the task.",
        "Do not plan exploratory data analysis.",
      ],
      "Coding rules": codingRules(ctx),
    },
    ...dataSection(ctx),
  });
}

/** The prompt for one atomic improvement of a working solution. */
export function improvePrompt(ctx: PromptContext, parentCode: string): string {
  return renderSections({
    Role: "You are an expert machine-learning engineer competing in a Kaggle-style competition. Below is a working solution; make it score better on the held-out test set.",
    Task: ctx.task,
    "Earlier solutions": ctx.memory || "None yet.",
    Budget: budget(ctx),
    "Solution to improve": fence(parentCode),
    Instructions: {
      "Answer format": ANSWER_FORMAT,
      "Plan guidelines": [
        "Propose exactly one concrete change, small enough that its effect can be measured on its own.",
        "Read the earlier solutions and do not repeat what already failed to help.",
        "Do not plan exploratory data analysis.",
      ],
      "Coding rules": codingRules(ctx),
    },
  });
}

/** The prompt for fixing a solution that failed. */
export function debugPrompt(ctx: PromptContext, parentCode: string, parentOutput: string, parentAnalysis: string): string {
  return renderSections({
    Role: "You are an expert machine-learning engineer competing in a Kaggle-style competition. Your last program failed; find the cause and fix it.",
    Task: ctx.task,
    Budget: budget(ctx),
    "Failed program": fence(parentCode),
    "Its output": fence(parentOutput || "(no output)", ""),
    "What the review said": parentAnalysis || "(nothing)",
    Instructions: {
      "Answer format": ANSWER_FORMAT,
      "Plan guidelines": ["Explain in 3 to 5 sentences what went wrong and how the new program avoids it.", "Do not plan exploratory data analysis."],
      "Coding rules": codingRules(ctx),
    },
    ...dataSection(ctx),
  });
}

/** The prompt asking the reviewer to judge a run. */
export function reviewPrompt(task: string, code: string, output: string): string {
  return renderSections({
    Role: "You are an expert machine-learning engineer. A program written for the task below has just run. Judge from its output whether it worked, and report what it found.",
    Task: task,
    Program: fence(code),
    Output: fence(output || "(no output)", ""),
    Instructions: [
      "Call `submit_review` once.",
      "Set `is_bug` when the output shows an error, a crash, a timeout, or results that cannot be right.",
      "Set `metric` to the validation metric the program printed, exactly as printed; null when it printed none.",
      "Set `lower_is_better` from the metric's nature (errors and losses: true; accuracy, AUC, F1: false).",
    ],
  });
}

/** The user turn sent after a system prompt. */
export const USER_TURN = "Follow the instructions above.";
