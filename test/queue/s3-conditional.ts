import http from "node:http";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { TestS3 } from "./s3.js";

/**
 * A proxy in front of s3rver that honours `If-None-Match: *` on PUT the way AWS S3 does (412 when the key
 * exists), one conditional write per key at a time. s3rver accepts the header and ignores it; this lets the
 * tests check the store against a server with conditional writes, and with `delayMs` widens the window in
 * which concurrent publishers race.
 */
export async function conditionalProxy(s3: TestS3, delayMs = 0): Promise<{ endpoint: string; conflicts: () => number; close: () => Promise<void> }> {
  const target = new URL(s3.endpoint);
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID, secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY },
  });
  const locks = new Map<string, Promise<void>>();
  let conflicts = 0;

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) =>
    new Promise<void>((resolve) => {
      // The Host header is kept: the client signed it, and s3rver checks the signature against what it receives.
      const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
        r.on("end", resolve);
      });
      up.on("error", () => {
        res.writeHead(502).end();
        resolve();
      });
      up.end(body);
    });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.method !== "PUT" || req.headers["if-none-match"] !== "*") return void forward(req, res, body);
      const [, bucket, ...rest] = decodeURIComponent(new URL(req.url!, "http://x").pathname).split("/");
      const key = rest.join("/");
      const previous = locks.get(key) ?? Promise.resolve();
      const mine = previous.then(async () => {
        const exists = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
          () => true,
          () => false,
        );
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        if (exists) {
          conflicts++;
          res.writeHead(412, { "content-type": "application/xml" });
          res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>`);
          return;
        }
        await forward(req, res, body);
      });
      locks.set(key, mine);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    conflicts: () => conflicts,
    close: () =>
      new Promise<void>((resolve) => {
        client.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
