import fs from "node:fs";
import { UserError } from "../core/errors.js";
import { KaggleClient, KaggleError, loadKaggleCredentials, missingCredentialsMessage, rulesUrl } from "../sources/kaggle/index.js";
import { fetchUpstreamMetadata, readChecksumsYaml, type UpstreamFetchOptions } from "../sources/upstream/index.js";
import type { UpstreamDeps } from "./upstream.js";

/**
 * The real outside world for `prepareUpstream`: metadata from upstream's repository at the pinned
 * commit (cached in the data dir), data from Kaggle with the user's credentials. Metadata that
 * cannot be fetched becomes a problem to report, not a failure, so offline prepares still work.
 */
export function realUpstreamDeps(
  dataDir: string,
  opts: {
    upstream?: Partial<UpstreamFetchOptions>;
    onProgress?: (done: number, total: number | null) => void;
    /** Asked when Kaggle wants the rules accepted; resolve true once the user has, to retry. */
    onRulesRequired?: (url: string) => Promise<boolean>;
    kaggle?: { baseUrl?: string; retries?: number; backoffMs?: number };
  } = {},
): UpstreamDeps {
  return {
    async metadata(id) {
      try {
        const m = await fetchUpstreamMetadata(id, { dataDir, ...opts.upstream });
        const file = (name: keyof typeof m.files) => {
          const r = m.files[name];
          return r.ok ? r.path : null;
        };
        const description = file("description.md");
        const checksums = file("checksums.yaml");
        return {
          description: description ? fs.readFileSync(description, "utf8") : null,
          checksums: checksums ? readChecksumsYaml(checksums) : null,
          leaderboard: file("leaderboard.csv"),
          problems: [],
        };
      } catch (e) {
        return { description: null, checksums: null, leaderboard: null, problems: [(e as Error).message] };
      }
    },
    async download(id, dest) {
      const auth = loadKaggleCredentials();
      if (!auth) throw new UserError(`Downloading "${id}" needs Kaggle credentials. ${missingCredentialsMessage()}`);
      const client = new KaggleClient({ auth, ...opts.kaggle });
      try {
        await client.downloadAll(id, dest, { onProgress: opts.onProgress });
      } catch (e) {
        if (!(e instanceof KaggleError && e.kind === "rules" && opts.onRulesRequired)) throw e;
        if (!(await opts.onRulesRequired(rulesUrl(id)))) throw e;
        await client.downloadAll(id, dest, { onProgress: opts.onProgress });
      }
    },
  };
}
