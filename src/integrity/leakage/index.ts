/** Leakage audit of prepared competitions. */
export { auditCompetition, auditMany, type AuditManyResult } from "./audit.js";
export type { LeakageChecked, LeakageFinding, LeakageKind, LeakageOptions, LeakageReport, LeakageSeverity } from "./types.js";
export { formatLeakageReport } from "./format.js";
