export { Environment, type EnvironmentOptions, type SkippedEntry, type TraceStep } from "./environment.js";
export { ACTIONS, actionTable, inputSchema, type ActionInfo } from "./actions.js";
export type { Owner } from "./safe-fs.js";
