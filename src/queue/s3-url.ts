import { UserError } from "../core/errors.js";

/** A bucket and a key prefix (no leading or trailing slash; "" for the bucket's top). */
export interface S3Location {
  bucket: string;
  prefix: string;
}

/** Whether a --runs-dir (or group) value names an S3-compatible bucket rather than a path. */
export function isS3Url(text: string): boolean {
  return /^s3:\/\//i.test(text);
}

/** Parse `s3://bucket[/prefix]`; a UserError says what is wrong. */
export function parseS3Url(text: string, flag = "--runs-dir"): S3Location {
  const bad = (why: string) => new UserError(`${flag}: "${text}" is not an S3 location: ${why} (expected s3://bucket[/prefix])`);
  if (!isS3Url(text)) throw bad("it does not start with s3://");
  const rest = text.slice("s3://".length);
  const slash = rest.indexOf("/");
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  // S3's bucket naming rules (3-63 chars, lowercase letters, digits, dots, hyphens; letter or digit at both ends).
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes("..")) {
    throw bad(`bucket "${bucket}" is not a valid bucket name (3-63 lowercase letters, digits, dots and hyphens)`);
  }
  const prefix = slash < 0 ? "" : rest.slice(slash + 1).replace(/\/+$/, "");
  if (prefix.split("/").some((p) => p === "" || p === "." || p === "..") && prefix !== "") {
    throw bad(`prefix "${prefix}" has an empty, "." or ".." part`);
  }
  if (prefix.includes("?") || prefix.includes("#")) throw bad('the prefix may not hold "?" or "#"');
  return { bucket, prefix };
}

/** The URL of a location (and a key under it). */
export function s3Url(loc: S3Location, key = ""): string {
  return `s3://${loc.bucket}/${[loc.prefix, key].filter((p) => p !== "").join("/")}`;
}
