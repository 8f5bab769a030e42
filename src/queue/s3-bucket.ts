import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from "@aws-sdk/client-s3";
import { UserError } from "../core/errors.js";

/** How to reach the S3 API: AWS itself, or any S3-compatible server (MinIO, Ceph, R2, …) at an endpoint. */
export interface S3Settings {
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Keys given in the environment passed in; otherwise the SDK's default chain (env, profiles, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** Sizes that decide between single and multipart transfers (smaller in tests, to exercise both). */
export interface S3Tuning {
  /** Files larger than this are uploaded in parts of this size (S3 wants ≥ 5 MiB parts). */
  partSize: number;
  /** Objects larger than this are copied in parts (S3 copies at most 5 GiB in one request). */
  copyLimit: number;
  /** Part size of a multipart copy. */
  copyPartSize: number;
}

export const DEFAULT_TUNING: S3Tuning = { partSize: 64 * 2 ** 20, copyLimit: 5 * 2 ** 30, copyPartSize: 2 ** 30 };

/** Endpoint, region and addressing from the standard AWS variables (credentials are the SDK's default chain). */
export function s3Settings(env: NodeJS.ProcessEnv): S3Settings {
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  if (endpoint !== undefined) {
    let u: URL | null = null;
    try {
      u = new URL(endpoint);
    } catch {
      // reported below
    }
    if (!u || (u.protocol !== "http:" && u.protocol !== "https:")) {
      throw new UserError(`AWS_ENDPOINT_URL${env.AWS_ENDPOINT_URL_S3 ? "_S3" : ""}: "${endpoint}" is not an http(s) URL`);
    }
  }
  const region = env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1";
  // Self-hosted S3 servers rarely have per-bucket DNS names; AWS prefers virtual-hosted addressing.
  const pathStyle = env.MLEBENCH_S3_PATH_STYLE;
  const forcePathStyle = pathStyle === undefined || pathStyle === "" ? endpoint !== undefined : pathStyle === "1" || pathStyle === "true";
  const credentials =
    env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN || undefined }
      : undefined;
  return { endpoint, region, forcePathStyle, credentials };
}

interface S3ErrorShape {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const status = (e: unknown) => (e as S3ErrorShape).$metadata?.httpStatusCode;
const isMissing = (e: unknown) => ["NoSuchKey", "NotFound"].includes((e as S3ErrorShape).name ?? "") || status(e) === 404;

/** One object under a prefix. */
export interface S3Object {
  key: string;
  size: number;
}

/** A bucket, with the few operations a result store needs and errors that say what failed where. */
export class S3Bucket {
  readonly client: S3Client;

  constructor(
    readonly bucket: string,
    readonly settings: S3Settings,
    readonly tuning: S3Tuning = DEFAULT_TUNING,
  ) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials,
      // Checksums only where S3 demands them: many S3-compatible servers reject the SDK's newer default trailers.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 300_000 },
    });
  }

  /** Where requests go, for messages. */
  endpoint(): string {
    return this.settings.endpoint ?? `AWS S3 (${this.settings.region})`;
  }

  /** Turn an SDK error into one that names the operation, the object and the likely cause. */
  fail(e: unknown, what: string, key?: string): Error {
    const err = e as S3ErrorShape;
    const where = `s3://${this.bucket}${key === undefined ? "" : `/${key}`}`;
    const name = err.name ?? "";
    const code = err.code ?? "";
    let why: string;
    if (name === "NoSuchBucket") why = `bucket "${this.bucket}" does not exist at ${this.endpoint()}`;
    else if (name === "CredentialsProviderError" || /credential/i.test(err.message ?? "") && !status(e)) {
      why = "no AWS credentials found (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)";
    } else if (name === "InvalidAccessKeyId" || name === "SignatureDoesNotMatch") why = `${this.endpoint()} rejected the AWS credentials (${name})`;
    else if (name === "PermanentRedirect" || name === "AuthorizationHeaderMalformed" || status(e) === 301) {
      why = `the bucket is not in region ${this.settings.region} (set AWS_REGION to the bucket's region)`;
    } else if (name === "AccessDenied" || status(e) === 403) why = `access denied by ${this.endpoint()} (check the credentials' permissions on the bucket)`;
    else if (["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "ECONNRESET", "EHOSTUNREACH"].includes(code) || name === "TimeoutError") {
      why = `cannot reach ${this.endpoint()} (${code || name})`;
    } else why = `${name || "error"}${status(e) ? ` (HTTP ${status(e)})` : ""}: ${err.message ?? String(e)}`;
    return new UserError(`S3: ${what} ${where}: ${why}`);
  }

  /** Check the bucket exists and the credentials may use it. */
  async checkBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (e) {
      // HeadBucket has no body, so a missing bucket comes back as a bare 404.
      if (status(e) === 404) throw this.fail({ name: "NoSuchBucket" }, "cannot use");
      throw this.fail(e, "cannot use");
    }
  }

  /** An object's bytes, or null when it does not exist. */
  async get(key: string): Promise<Buffer | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch (e) {
      if (isMissing(e)) return null;
      throw this.fail(e, "cannot read", key);
    }
  }

  /** Whether an object exists. */
  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (e) {
      if (isMissing(e)) return false;
      throw this.fail(e, "cannot look up", key);
    }
  }

  /** Write an object (S3 replaces objects whole: readers see the old or the new bytes, never a mix). */
  async put(key: string, body: Buffer | string): Promise<void> {
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: Buffer.byteLength(body) }));
    } catch (e) {
      throw this.fail(e, "cannot write", key);
    }
  }

  /** Write an object only if none exists (If-None-Match: *); false when one did. */
  async putIfAbsent(key: string, body: Buffer | string): Promise<boolean> {
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: Buffer.byteLength(body), IfNoneMatch: "*" }));
      return true;
    } catch (e) {
      // 412: the object exists; 409: a concurrent conditional write to the same key won.
      if (status(e) === 412 || status(e) === 409) return false;
      throw this.fail(e, "cannot write", key);
    }
  }

  /** Upload a local file, in parts when it is large. */
  async uploadFile(key: string, file: string, size: number): Promise<void> {
    if (size <= this.tuning.partSize) return this.put(key, fs.readFileSync(file));
    // S3 allows at most 10,000 parts: very large files get larger parts.
    const partSize = Math.max(this.tuning.partSize, Math.ceil(size / 10_000));
    let uploadId: string | undefined;
    try {
      uploadId = (await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }))).UploadId!;
      const parts: { ETag: string; PartNumber: number }[] = [];
      const fd = fs.openSync(file, "r");
      try {
        for (let offset = 0, n = 1; offset < size; offset += partSize, n++) {
          const buf = Buffer.alloc(Math.min(partSize, size - offset));
          fs.readSync(fd, buf, 0, buf.length, offset);
          const res = await this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: n, Body: buf }));
          parts.push({ ETag: res.ETag!, PartNumber: n });
        }
      } finally {
        fs.closeSync(fd);
      }
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    } catch (e) {
      if (uploadId) await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })).catch(() => {});
      throw e instanceof UserError ? e : this.fail(e, "cannot upload", key);
    }
  }

  /** Copy an object inside the bucket (server side), in parts when it is larger than one copy request allows. */
  async copy(from: string, to: string, size: number): Promise<void> {
    const source = `${this.bucket}/${encodeURIComponent(from).replace(/%2F/g, "/")}`;
    if (size <= this.tuning.copyLimit) {
      try {
        await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source }));
        return;
      } catch (e) {
        throw isMissing(e) ? new MissingObjectError(from) : this.fail(e, `cannot copy s3://${this.bucket}/${from} to`, to);
      }
    }
    let uploadId: string | undefined;
    try {
      uploadId = (await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: to }))).UploadId!;
      const parts: { ETag: string; PartNumber: number }[] = [];
      for (let offset = 0, n = 1; offset < size; offset += this.tuning.copyPartSize, n++) {
        const end = Math.min(offset + this.tuning.copyPartSize, size) - 1;
        const res = await this.client.send(
          new UploadPartCopyCommand({ Bucket: this.bucket, Key: to, UploadId: uploadId, PartNumber: n, CopySource: source, CopySourceRange: `bytes=${offset}-${end}` }),
        );
        parts.push({ ETag: res.CopyPartResult!.ETag!, PartNumber: n });
      }
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    } catch (e) {
      if (uploadId) await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId: uploadId })).catch(() => {});
      throw isMissing(e) ? new MissingObjectError(from) : this.fail(e, `cannot copy s3://${this.bucket}/${from} to`, to);
    }
  }

  /** Download an object to a local file (its dir is created). */
  async download(key: string, file: string): Promise<void> {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      await pipeline(res.Body as Readable, fs.createWriteStream(file));
    } catch (e) {
      throw this.fail(e, "cannot download", key);
    }
  }

  /** Every object whose key starts with `prefix`. */
  async list(prefix: string): Promise<S3Object[]> {
    const out: S3Object[] = [];
    let token: string | undefined;
    try {
      do {
        const res = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
        for (const o of res.Contents ?? []) out.push({ key: o.Key!, size: o.Size ?? 0 });
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (token);
    } catch (e) {
      throw this.fail(e, "cannot list", prefix);
    }
    return out;
  }

  /** Delete objects (missing ones are fine). */
  async delete(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      try {
        const res = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
        const bad = (res.Errors ?? []).filter((x) => x.Code !== "NoSuchKey");
        if (bad.length > 0) throw new UserError(`S3: cannot delete s3://${this.bucket}/${bad[0].Key}: ${bad[0].Code}: ${bad[0].Message}`);
      } catch (e) {
        throw e instanceof UserError ? e : this.fail(e, "cannot delete under", batch[0]);
      }
    }
  }

  /** Delete every object under a prefix. */
  async deletePrefix(prefix: string): Promise<number> {
    const keys = (await this.list(prefix)).map((o) => o.key);
    await this.delete(keys);
    return keys.length;
  }
}

/** A copy whose source is gone (another publisher finished and cleaned up first). */
export class MissingObjectError extends Error {
  constructor(readonly key: string) {
    super(`object ${key} does not exist`);
  }
}
