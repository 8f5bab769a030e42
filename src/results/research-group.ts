/** group.json of a research run group (MLAgentBench tasks): its one schema, its atomic write, and its reading. */
import { z } from "zod";
import { legacyFormat, parseVersioned, readVersioned, writeVersioned, type VersionedFormat } from "./versioned.js";

/** The format of a research group's group.json this harness writes. */
export const RESEARCH_GROUP_SCHEMA = "mlagentbench-group/1";

/** The camelCase format earlier releases wrote; still read, converted to the current shape. */
export const LEGACY_RESEARCH_GROUP_SCHEMA = "mlab-group/1";

/**
 * `<group>/group.json`: which tasks and seeds the group runs, with which agent and model. Written by
 * `mlagentbench/group.ts` when the group starts, read by evaluation; model may be absent (read as null).
 */
export const ResearchGroupRecordSchema = z.object({
  schema: z.literal(RESEARCH_GROUP_SCHEMA),
  /** The group folder's name. */
  id: z.string(),
  agent: z.string(),
  model: z.string().nullable().default(null),
  tasks: z.array(z.string()),
  seeds: z.array(z.number().int()),
  created_at: z.string(),
});
export type ResearchGroupRecord = z.output<typeof ResearchGroupRecordSchema>;

/** The `"mlab-group/1"` record of earlier releases, with the leniency their reader had. */
const LegacyResearchGroupRecordSchema = z.object({
  schema: z.literal(LEGACY_RESEARCH_GROUP_SCHEMA),
  id: z.string(),
  agent: z.string(),
  model: z.string().nullable().optional(),
  tasks: z.array(z.string()),
  seeds: z.array(z.number().int()),
  createdAt: z.string(),
});
type LegacyResearchGroupRecord = z.output<typeof LegacyResearchGroupRecordSchema>;

function fromLegacy(r: LegacyResearchGroupRecord): ResearchGroupRecord {
  return { schema: RESEARCH_GROUP_SCHEMA, id: r.id, agent: r.agent, model: r.model ?? null, tasks: r.tasks, seeds: r.seeds, created_at: r.createdAt };
}

const FORMAT: VersionedFormat<ResearchGroupRecord> = {
  what: "research group record",
  schema: RESEARCH_GROUP_SCHEMA,
  parser: ResearchGroupRecordSchema,
  legacy: legacyFormat(LEGACY_RESEARCH_GROUP_SCHEMA, LegacyResearchGroupRecordSchema, fromLegacy),
};

/**
 * Check parsed group.json `json` (read from `file`) as a research group record, current or legacy
 * (`"mlab-group/1"`, converted); the error names the file and the offending fields.
 */
export function parseResearchGroupRecord(json: unknown, file: string): ResearchGroupRecord {
  return parseVersioned(FORMAT, json, file);
}

/** Read and check a research group's group.json at `file`; the error names the file. */
export function readResearchGroupRecord(file: string): ResearchGroupRecord {
  return readVersioned(FORMAT, file);
}

/** Write a research group's group.json atomically, `schema` first. */
export function writeResearchGroupRecord(file: string, record: ResearchGroupRecord): void {
  writeVersioned(file, record);
}
