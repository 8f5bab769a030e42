import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fstabField, planStage, stagedArgv, stageFstab, stagingUnavailable } from "../../src/sandbox/stage.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
}

describe("the stage's fstab", () => {
  it("escapes space, tab, newline and backslash in paths as libmount reads them", () => {
    expect(fstabField("/data/my runs\\x\ty\nz")).toBe("/data/my\\040runs\\134x\\011y\\012z");
    expect(fstabField("/plain/path-1.2_3")).toBe("/plain/path-1.2_3");
  });

  it("mounts the stage, a bind and a read-only overlay per source, then /dev, in that order", () => {
    expect(stageFstab("/tmp/st", ["/usr", "/home/a b"]).split("\n")).toEqual([
      "stage /tmp/st/s tmpfs mode=0700,size=1m 0 0",
      "binds /tmp/st/s/binds tmpfs mode=0700,size=64k,X-mount.mkdir 0 0",
      "empty /tmp/st/s/e tmpfs ro,mode=0755,size=4k,X-mount.mkdir 0 0",
      "/usr /tmp/st/s/binds/l0 none bind,X-mount.mkdir 0 0",
      "overlay /tmp/st/s/m0 overlay ro,lowerdir=/tmp/st/s/binds/l0:/tmp/st/s/e,X-mount.mkdir 0 0",
      "/home/a\\040b /tmp/st/s/binds/l1 none bind,X-mount.mkdir 0 0",
      "overlay /tmp/st/s/m1 overlay ro,lowerdir=/tmp/st/s/binds/l1:/tmp/st/s/e,X-mount.mkdir 0 0",
      "dev /tmp/st/s/dev tmpfs mode=0755,nosuid,size=64k,X-mount.mkdir 0 0",
      "devpts /tmp/st/s/dev/pts devpts newinstance,ptmxmode=0666,mode=0620,X-mount.mkdir 0 0",
      "",
    ]);
  });

  it("refuses a stage folder whose path would split the overlay options", () => {
    const parent = tmp("stage-odd-");
    for (const name of ["a b", "a,b", "a:b"]) {
      const dir = path.join(parent, name);
      fs.mkdirSync(dir);
      expect(() => planStage(dir, [os.tmpdir()]), name).toThrow(/expected a path of letters, digits/);
    }
  });
});

const staging = stagingUnavailable();

describe("staging, run for real", () => {
  it.skipIf(staging !== null)(`serves sources whose paths hold spaces and backslashes, read-only, with a /dev of its own${staging ? `: skipped, ${staging}` : ""}`, () => {
    const src = path.join(tmp("stage-src-"), "my data\\set");
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, "answers.csv"), "id,label\n1,0\n");
    const plan = planStage(tmp("stage-"), [src, path.join(src, "answers.csv")]);
    expect(plan.dirs).toEqual([fs.realpathSync(src)]);
    const staged = plan.from(path.join(src, "answers.csv"));
    expect(staged).toBe(path.join(plan.dir, "s", "m0", "answers.csv"));
    const script = [
      `cat "${staged}"`,
      `if touch "${path.dirname(staged)}/new" 2>/dev/null; then echo writable; else echo read-only; fi`,
      `test -c "${plan.dev}/null" && test -c "${plan.dev}/urandom" && test -L "${plan.dev}/ptmx" && echo devices`,
      // The overlay's lower layer is the stage's own (unmounted) bind point, never the source's path.
      `grep -c " ${path.dirname(staged)} " /proc/self/mountinfo`,
      `grep -c 'my' /proc/self/mountinfo || true`,
    ].join("; ");
    const [bin, ...args] = stagedArgv(plan, ["/bin/sh", "-c", script]);
    const r = spawnSync(bin, args, { encoding: "utf8", timeout: 30_000 });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("id,label\n1,0\nread-only\ndevices\n1\n0\n");
    expect(r.status).toBe(0);
    // Nothing is left mounted on the host: the stage's folder is as planning left it.
    expect(fs.readdirSync(plan.dir).sort()).toEqual(["fstab", "s"]);
    expect(fs.readdirSync(path.join(plan.dir, "s"))).toEqual([]);
  });
});
