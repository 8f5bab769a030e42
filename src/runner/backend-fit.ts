import { UserError } from "../core/errors.js";

/** Why --obfuscate cannot be had with --sandbox local. */
export const OBFUSCATE_LOCAL = "--obfuscate needs a sandbox that can lay the obfuscated description over /home/data/description.md (bwrap or docker), not --sandbox local";

/**
 * Refuse what the chosen sandbox backend cannot give a run: an agent's own image needs docker,
 * obfuscation a sandbox that mounts files. The CLI checks before any run starts, the runner again
 * for runs whose backend a worker chose.
 */
export function checkBackendFits(agent: { id: string; image?: string }, obfuscate: boolean, backend: string): void {
  if (obfuscate && backend === "local") throw new UserError(OBFUSCATE_LOCAL);
  if (agent.image !== undefined && backend !== "docker") {
    throw new UserError(`agent ${agent.id} runs in its own image (${agent.image}): that needs --sandbox docker (not ${backend})`);
  }
}
