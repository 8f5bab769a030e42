/** The egress proxy as a process of its own, one per run (started by startEgressProcess in egress-proxy.ts). */
import { startEgressProxy, type EgressProxyOptions } from "./egress-proxy.js";

const config = JSON.parse(process.argv[2] ?? "{}") as EgressProxyOptions;
const send = (m: { type: string; message?: string }) => process.send?.(m);

startEgressProxy(config).then(
  (proxy) => {
    let closing = false;
    const stop = () => {
      if (closing) return;
      closing = true;
      proxy.close().finally(() => process.exit(0));
    };
    process.on("message", (m: { type?: string }) => {
      if (m.type === "close") stop();
    });
    // Without its harness this proxy has no run to serve.
    process.on("disconnect", stop);
    send({ type: "ready" });
  },
  (e: Error) => {
    send({ type: "failed", message: e.message });
    process.exit(1);
  },
);
