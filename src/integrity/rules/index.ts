/** Rule-violation detection: an LLM judge of a run's logs and code, and checks that need no LLM. */
export { judgeRun, summarizeJudgements, chunkText, parseFinalLine, QUESTIONS, JUDGE_CHECK, YES_LINE, NO_LINE } from "./judge.js";
export type { RulesJudgement, QuestionJudgement, ChunkJudgement, ChunkAnswer, JudgeOptions, JudgeQuestion, JudgeInput, QuestionSummary } from "./judge.js";
export { runChecks, checkNetwork, checkOutsidePaths, checkSubmissionWithoutCode, checkHardcodedLabels, CHECKS, NETWORK_ERRORS } from "./checks.js";
export { ALLOWED_ROOTS, suspiciousPath } from "./paths.js";
