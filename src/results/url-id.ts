/** How a run group's folder name is written in the viewer's URLs, so other tools (the report) can link to it. */

/** A name fit for a URL segment: what is not a letter, digit, dot, dash or underscore becomes "_". */
export function urlSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_") || "_";
}
