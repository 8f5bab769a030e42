export { evaluateGroup, evalPaths, listRunDirs } from "./group.js";
export { better, improvement, subsampleSteps, successAt, THRESHOLDS, type Success, type Threshold } from "./improvement.js";
export { parseRunDirName, readTrace, runDirName, runPaths, TraceRecordSchema, type TraceRecord } from "./layout.js";
export {
  parseResearchRunRecord,
  readResearchRunRecord,
  RESEARCH_RUN_SCHEMA,
  ResearchRunRecordSchema,
  type ResearchRunRecord,
  type ResearchRunStatus,
} from "../../results/research-record.js";
export {
  parseResearchGroupRecord,
  readResearchGroupRecord,
  RESEARCH_GROUP_SCHEMA,
  ResearchGroupRecordSchema,
  type ResearchGroupRecord,
} from "../../results/research-group.js";
export {
  EVAL_SUMMARY_SCHEMA,
  EvalSummarySchema,
  parseRunEval,
  readRunEval,
  RUN_EVAL_SCHEMA,
  RunEvalSchema,
  type CurvePoint,
  type EvalSummary,
  type RunEval,
  type RunRow,
  type StepScore,
  type TaskSummary,
} from "./records.js";
export { Replayer, stateHash, workspaceAtStep, type Reconstruction } from "./reconstruct.js";
export { renderEvalHtml, renderEvalMarkdown } from "./render.js";
export {
  evaluateRun,
  hostRunnerHandle,
  type BaselineCache,
  type EvalOptions,
  type EvalProgress,
  type RunnerHandle,
} from "./score-run.js";
export { bestCurve, bestSoFar, summarizeGroup, summarizeTask } from "./summary.js";
