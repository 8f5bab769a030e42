export { evaluateGroup, evalPaths, listRunDirs } from "./group.js";
export { better, improvement, subsampleSteps, successAt, THRESHOLDS, type Success, type Threshold } from "./improvement.js";
export {
  GroupRecordSchema,
  parseRunDirName,
  readTrace,
  runDirName,
  runPaths,
  TraceRecordSchema,
  type GroupRecord,
  type TraceRecord,
} from "./layout.js";
export {
  parseResearchRunRecord,
  readResearchRunRecord,
  RESEARCH_RUN_SCHEMA,
  ResearchRunRecordSchema,
  type ResearchRunRecord,
  type ResearchRunStatus,
} from "../../results/research-record.js";
export { Replayer, stateHash, workspaceAtStep, type Reconstruction } from "./reconstruct.js";
export { renderEvalHtml, renderEvalMarkdown } from "./render.js";
export {
  evaluateRun,
  hostRunnerHandle,
  type BaselineCache,
  type EvalOptions,
  type EvalProgress,
  type RunEval,
  type RunnerHandle,
  type StepScore,
} from "./score-run.js";
export { bestCurve, bestSoFar, summarizeGroup, summarizeTask, type CurvePoint, type EvalSummary, type RunRow, type TaskSummary } from "./summary.js";
