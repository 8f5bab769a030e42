import S3rver from "s3rver";
import { tempDir } from "../helpers/data-dir.js";

/** A local S3-compatible server (s3rver, from npm) on 127.0.0.1 with one bucket, and the environment to reach it. */
export interface TestS3 {
  bucket: string;
  endpoint: string;
  /** AWS_* variables a client (or a child mlebench) needs. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export const TEST_BUCKET = "mlebench-test";

/** Start s3rver on a free port, storing its objects in a temp dir. */
export async function startS3(): Promise<TestS3> {
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: tempDir("mlebench-s3rver-"), configureBuckets: [{ name: TEST_BUCKET }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    bucket: TEST_BUCKET,
    endpoint,
    // s3rver checks signatures made with its built-in key pair.
    env: { AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER", AWS_REGION: "us-east-1" },
    stop: () => server.close(),
  };
}
