import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cachedProbe } from "../../src/sandbox/probe-cache.js";

const asRoot = process.getuid?.() === 0;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "probe-cache-"));
  dirs.push(d);
  return path.join(d, "probes");
}

describe("probe cache", () => {
  it.skipIf(!asRoot)("remembers a success for this boot, and never a failure", () => {
    const dir = scratch();
    let runs = 0;
    const works = () => (runs++, null);
    expect(cachedProbe("tool:/usr/bin/x", works, dir)).toBeNull();
    expect(cachedProbe("tool:/usr/bin/x", works, dir)).toBeNull();
    expect(runs).toBe(1);
    const stored = JSON.parse(fs.readFileSync(path.join(dir, "probes.json"), "utf8"));
    expect(stored).toEqual({ boot: fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim(), node: process.version, ok: ["tool:/usr/bin/x"] });

    let fails = 0;
    const broken = () => (fails++, "not installed");
    expect(cachedProbe("tool:/usr/bin/y", broken, dir)).toBe("not installed");
    expect(cachedProbe("tool:/usr/bin/y", broken, dir)).toBe("not installed");
    expect(fails).toBe(2);
    // Another name is probed on its own, and the first success stays remembered beside it.
    expect(cachedProbe("tool:/usr/bin/z", () => null, dir)).toBeNull();
    expect(JSON.parse(fs.readFileSync(path.join(dir, "probes.json"), "utf8")).ok).toEqual(["tool:/usr/bin/x", "tool:/usr/bin/z"]);
  });

  it.skipIf(!asRoot)("does not trust a file others could have written, or one from another boot", () => {
    const dir = scratch();
    fs.mkdirSync(dir, { mode: 0o700 });
    const file = path.join(dir, "probes.json");
    const boot = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    let runs = 0;
    const probe = () => (runs++, "broken");
    fs.writeFileSync(file, JSON.stringify({ boot, node: process.version, ok: ["p"] }));
    fs.chmodSync(file, 0o666);
    expect(cachedProbe("p", probe, dir)).toBe("broken");
    fs.chmodSync(file, 0o644);
    fs.chownSync(file, 65534, 65534);
    expect(cachedProbe("p", probe, dir)).toBe("broken");
    fs.chownSync(file, 0, 0);
    fs.writeFileSync(file, JSON.stringify({ boot: "another-boot", node: process.version, ok: ["p"] }));
    expect(cachedProbe("p", probe, dir)).toBe("broken");
    expect(runs).toBe(3);
    fs.writeFileSync(file, JSON.stringify({ boot, node: process.version, ok: ["p"] }));
    expect(cachedProbe("p", probe, dir)).toBeNull();
    expect(runs).toBe(3);
  });

  it.skipIf(asRoot)("probes every time when not root, and writes nothing", () => {
    const dir = scratch();
    let runs = 0;
    expect(cachedProbe("p", () => (runs++, null), dir)).toBeNull();
    expect(cachedProbe("p", () => (runs++, null), dir)).toBeNull();
    expect(runs).toBe(2);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
