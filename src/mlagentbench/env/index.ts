export { Environment, type EnvironmentOptions, type TraceStep } from "./environment.js";
export { ACTIONS, actionTable, inputSchema, type ActionInfo } from "./actions.js";
