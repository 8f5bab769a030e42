import { getSandboxBackend } from "../../src/sandbox/registry.js";

/** A real sandbox backend a suite runs against, with the flags that pick it. */
export interface BackendUnderTest {
  name: "bwrap" | "docker";
  /** Flags for `mlebench run`: none for the default. */
  args: string[];
  /** Why the backend cannot run here, or null. */
  skip: string | null;
}

/**
 * The backends the sandbox suites run against: the default (bubblewrap), and Docker where an
 * engine answers and the agents' image is built (.ci/run starts dockerd and builds it offline).
 */
export const REAL_BACKENDS: BackendUnderTest[] = [
  { name: "bwrap", args: [], skip: null },
  { name: "docker", args: ["--sandbox", "docker"], skip: await getSandboxBackend("docker").unavailable() },
];

/** A describe title that names the backend, and the reason when its suite is skipped. */
export function suiteTitle(title: string, b: BackendUnderTest): string {
  return `${title} (${b.name})${b.skip ? `: skipped, ${b.skip}` : ""}`;
}
