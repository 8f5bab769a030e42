import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The compiled file `name` beside the module at `moduleUrl`. Processes and threads are started
 * from compiled JavaScript; when the calling module is a TypeScript source (run by a test runner),
 * its compiled twin lives at the same place under dist/.
 */
export function builtSibling(moduleUrl: string, name: string): string {
  const here = fileURLToPath(moduleUrl);
  const dir = path.dirname(here);
  if (!here.endsWith(".ts")) return path.join(dir, name);
  const marker = `${path.sep}src${path.sep}`;
  const at = `${dir}${path.sep}`.lastIndexOf(marker);
  if (at < 0) return path.join(dir, name);
  return path.join(`${dir.slice(0, at)}${path.sep}dist${path.sep}${`${dir}${path.sep}`.slice(at + marker.length)}`, name);
}
