import fs from "node:fs";
import type { Server } from "node:net";

/**
 * Listen on a Unix socket path (replacing a stale socket file) and open it to every uid, since
 * the agent's sandbox user is not the harness's; directory permissions still guard it.
 */
export async function listenOnSocket(server: Server, socketPath: string): Promise<void> {
  fs.rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o666);
}
