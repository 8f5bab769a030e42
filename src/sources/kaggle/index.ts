/** The Kaggle source: credentials, the REST client and the download helper it is built on. */
export {
  authHeader,
  describeAuth,
  kaggleJsonPath,
  loadKaggleCredentials,
  missingCredentialsMessage,
  secretsOf,
  type KaggleAuth,
} from "./credentials.js";
export {
  DEFAULT_KAGGLE_API_URL,
  KaggleClient,
  KaggleError,
  rulesUrl,
  type KaggleClientOptions,
  type KaggleDownloadOptions,
  type KaggleErrorKind,
  type KaggleFile,
  type KaggleLeaderboardEntry,
  type KaggleRetryInfo,
} from "./client.js";
export {
  downloadToFile,
  fetchBuffer,
  HttpStatusError,
  redactUrl,
  TransferError,
  type DownloadToFileOptions,
  type ProgressFn,
} from "./download.js";
export { parseRetryAfter } from "../../core/retry.js";
