import type { SandboxPaths } from "../sandbox/types.js";

/**
 * What the agent is told about the benchmark (saved as /home/instructions.txt). The obfuscated
 * variant (/home/instructions_obfuscated.txt; /home/instructions.txt under --obfuscate) names no
 * competition and no Kaggle, to go with the obfuscated descriptions of the contamination ablation.
 */
export function instructionsText(paths: SandboxPaths, timeLimit: string | null, obfuscated = false): string {
  const task = obfuscated ? "task" : "competition";
  const lines = [
    obfuscated
      ? "You are taking part in MLE-bench, an offline benchmark of machine-learning tasks. Solve the task"
      : "You are taking part in MLE-bench, an offline benchmark built from Kaggle competitions. Solve the",
    obfuscated
      ? "below by writing code that trains a model and predicts the test set."
      : "machine-learning task below by writing code that trains a model and predicts the test set.",
    "",
    "RULES AND SETUP",
    "",
    `- The task: ${paths.data}/description.md is the ${task}'s own description. Read it first.`,
    `- The data: every file you may use is in ${paths.data} (read-only).`,
    `- What to hand in: a CSV file at ${paths.submission}/submission.csv. Only that path is graded; without`,
    "  it the attempt counts as failed. Whatever the description says about submission formats, this",
    "  benchmark always takes a single CSV in the format of the sample submission in the data folder.",
    `- The test set: the original ${task}'s test labels are not public, so the benchmark split the`,
    "  original training data into its own train and test sets. The files may therefore differ a little",
    "  from what the description promises; work with the files you have.",
    "- Checking a submission: POST a file to the validation endpoint http://localhost:5000/validate",
    `  (e.g. curl -X POST -F "file=@submission.csv" http://localhost:5000/validate), or run`,
    `  ${paths.validateScript} <file>. The answer says only whether the file is a valid submission`,
    "  and why not; it never tells you a score.",
    "- Labelling data by hand to produce predictions is not allowed.",
    `- Looking at other people's solutions to this ${task} is not allowed; submissions copied`,
    "  from others are disqualified.",
    `- Your code: keep the code that produced your submission in ${paths.code}. Logs you want kept go to`,
    `  ${paths.logs}; scratch work goes to ${paths.workspace}. Nothing else is saved.`,
  ];
  if (timeLimit !== null) lines.push(`- Time: the run ends after ${timeLimit} of wall-clock time; submit early and improve.`);
  lines.push(
    "",
    `Your goal is the best score on the ${task}'s metric. Where these rules and the description`,
    "disagree, these rules win: they describe how this offline benchmark really works.",
    "",
  );
  return lines.join("\n");
}
