// The upstream metadata fetcher's public surface; the HTTP plumbing in lfs.ts stays internal.
export {
  fetchUpstreamFile,
  fetchUpstreamMetadata,
  REQUIRED_UPSTREAM_FILES,
  resolveUpstreamCommit,
  upstreamCacheDir,
  upstreamFileUrl,
  UPSTREAM_COMMIT,
  UPSTREAM_FILES,
  UPSTREAM_REPO,
  type UpstreamFetchOptions,
  type UpstreamFileFailed,
  type UpstreamFileFetched,
  type UpstreamFileName,
  type UpstreamFileResult,
  type UpstreamMetadata,
} from "./fetch.js";
export {
  fileMatchesLfsPointer,
  LFS_POINTER_VERSION_LINE,
  parseLfsPointer,
  resolveLfsObject,
  UpstreamFetchError,
  type LfsPointer,
  type UpstreamFailureKind,
} from "./lfs.js";
export { parseChecksumsYaml, readChecksumsYaml, type Checksums } from "./checksums.js";
