import path from "node:path";
import { describe, expect, it } from "vitest";
import { bwrapArgs, entryArgv, identityFiles, type HostLayout } from "../../src/sandbox/bwrap.js";
import type { SandboxSpec } from "../../src/sandbox/types.js";

const layout: HostLayout = {
  systemDirs: { bin: "usr/bin", lib: "usr/lib", lib64: "dir" },
  etc: ["ld.so.cache", "ssl"],
  nvidia: ["nvidia0", "nvidia1", "nvidiactl", "nvidia-uvm"],
  nodeBinary: "/opt/node/bin/node",
  initScript: "/pkg/dist/sandbox/init.js",
};

function spec(over: Partial<SandboxSpec> = {}): SandboxSpec {
  return {
    id: "r1",
    dataDir: "/data/titanic/prepared/public",
    writable: { submission: "/runs/r1/submission", code: "/runs/r1/code", logs: "/runs/r1/logs", workspace: "/runs/r1/workspace", agent: "/runs/r1/agent" },
    files: { "/home/instructions.txt": "/runs/r1/harness/instructions.txt" },
    sockets: [{ hostPath: "/tmp/mlb-x/validate.sock", name: "validate.sock", loopbackPort: 5000 }],
    env: {},
    limits: { wallMs: 1000, memoryBytes: null, pids: null, cpus: null, diskBytes: null, tmpBytes: 1024, outputBytes: 10 },
    gpus: [],
    network: "none",
    ...over,
  };
}

const root = { asRoot: true, hostUid: 65534, innerUid: 1000 };
const user = { asRoot: false, hostUid: 65534, innerUid: 1000 };

describe("bwrapArgs", () => {
  it("as root: namespaces without a user namespace, only the setuid capabilities, every mount", () => {
    expect(bwrapArgs(spec(), layout, root, "/tmp/etc")).toEqual([
      "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
      "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP",
      "--die-with-parent", "--new-session", "--hostname", "mlebench",
      "--ro-bind", "/usr", "/usr",
      "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--ro-bind", "/lib64", "/lib64",
      "--dir", "/etc", "--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache", "--ro-bind", "/etc/ssl", "/etc/ssl",
      "--ro-bind", "/tmp/etc/passwd", "/etc/passwd", "--ro-bind", "/tmp/etc/group", "/etc/group",
      "--ro-bind", "/tmp/etc/hosts", "/etc/hosts", "--ro-bind", "/tmp/etc/hostname", "/etc/hostname",
      "--proc", "/proc", "--dev", "/dev",
      "--size", "1024", "--perms", "1777", "--tmpfs", "/tmp",
      "--size", "1024", "--perms", "1777", "--tmpfs", "/dev/shm",
      "--perms", "0755", "--tmpfs", "/home", "--perms", "0755", "--tmpfs", "/run", "--perms", "0755", "--dir", "/run/mlebench",
      "--ro-bind", "/data/titanic/prepared/public", "/home/data",
      "--bind", "/runs/r1/submission", "/home/submission", "--bind", "/runs/r1/code", "/home/code",
      "--bind", "/runs/r1/logs", "/home/logs", "--bind", "/runs/r1/workspace", "/home/workspace", "--bind", "/runs/r1/agent", "/home/agent",
      "--ro-bind", "/opt/node/bin/node", "/run/mlebench/node", "--ro-bind", "/pkg/dist/sandbox/init.js", "/run/mlebench/init.mjs",
      "--ro-bind", "/runs/r1/harness/instructions.txt", "/home/instructions.txt",
      "--bind", "/tmp/mlb-x/validate.sock", "/run/mlebench/validate.sock",
    ]);
  });

  it("as a user: a user namespace with an unprivileged uid, none nested below it, and no capabilities", () => {
    const a = bwrapArgs(spec(), layout, user, "/tmp/etc");
    expect(a.slice(0, 9)).toEqual(["--unshare-all", "--unshare-user", "--uid", "1000", "--gid", "1000", "--disable-userns", "--cap-drop", "ALL"]);
    expect(a).not.toContain("--cap-add");
  });

  it("never mounts anything from the data dir but the public dir, and no host /etc wholesale", () => {
    const a = bwrapArgs(spec(), layout, root, "/tmp/etc");
    expect(a.filter((x) => x.startsWith("/data"))).toEqual(["/data/titanic/prepared/public"]);
    expect(a).not.toContain("/etc/passwd-");
    expect(a.filter((x) => x === "/etc" || x === "/root" || x === "/home")).toEqual(["/etc", "/home"]);
  });

  it("passes the chosen GPUs' device nodes, the control nodes and sysfs", () => {
    const a = bwrapArgs(spec({ gpus: [1] }), layout, root, "/tmp/etc");
    const tail = a.slice(a.indexOf("--dev-bind"));
    expect(tail).toEqual([
      "--dev-bind", "/dev/nvidia1", "/dev/nvidia1",
      "--dev-bind", "/dev/nvidiactl", "/dev/nvidiactl",
      "--dev-bind", "/dev/nvidia-uvm", "/dev/nvidia-uvm",
      "--ro-bind", "/sys", "/sys",
    ]);
    expect(bwrapArgs(spec(), layout, root, "/tmp/etc")).not.toContain("/sys");
  });

  it("omits --size when /tmp is not capped", () => {
    const a = bwrapArgs(spec({ limits: { ...spec().limits, tmpBytes: null } }), layout, root, "/tmp/etc");
    expect(a).not.toContain("--size");
  });
});

describe("bwrapArgs with staged sources", () => {
  it("binds every read-only source from where the stage puts it, and a prepared /dev", () => {
    const staged = { from: (p: string) => `/stage${p}`, dev: "/stage/dev" };
    const a = bwrapArgs(spec({ hidden: [process.execPath] }), layout, root, "/tmp/etc", staged);
    const roSources = a.flatMap((x, i) => (x === "--ro-bind" ? [a[i + 1]] : []));
    expect(roSources.every((p) => p.startsWith("/stage/"))).toBe(true);
    expect(roSources).toEqual([
      "/stage/usr", "/stage/lib64", "/stage/etc/ld.so.cache", "/stage/etc/ssl",
      "/stage/tmp/etc/passwd", "/stage/tmp/etc/group", "/stage/tmp/etc/hosts", "/stage/tmp/etc/hostname",
      "/stage/data/titanic/prepared/public", "/stage/opt/node/bin/node", "/stage/pkg/dist/sandbox/init.js",
      "/stage/tmp/etc/empty", "/stage/runs/r1/harness/instructions.txt",
    ]);
    expect(a.slice(a.indexOf("--dev-bind"), a.indexOf("--dev-bind") + 3)).toEqual(["--dev-bind", "/stage/dev", "/dev"]);
    expect(a).not.toContain("--dev");
    // Writable dirs and sockets are bound as they are.
    expect(a).toContain("/runs/r1/submission");
    expect(a).toContain("/tmp/mlb-x/validate.sock");
  });
});

describe("entryArgv", () => {
  it("as root drops to the agent uid with setpriv, then starts init with the loopback forwards", () => {
    expect(entryArgv(spec(), root, ["python3", "a.py"])).toEqual([
      "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--",
      "/run/mlebench/node", "/run/mlebench/init.mjs", "--forward", "5000=/run/mlebench/validate.sock", "--", "python3", "a.py",
    ]);
  });

  it("without a pids cgroup, caps processes with RLIMIT_NPROC", () => {
    const s = spec({ sockets: [], limits: { ...spec().limits, pids: 64 } });
    expect(entryArgv(s, root, ["true"], false).slice(0, 4)).toEqual(["/usr/bin/prlimit", "--nproc=64", "--", "/usr/bin/setpriv"]);
    expect(entryArgv(s, root, ["true"], true)[0]).toBe("/usr/bin/setpriv");
  });

  it("as a user needs no setpriv", () => {
    expect(entryArgv(spec({ sockets: [] }), user, ["true"])).toEqual(["/run/mlebench/node", "/run/mlebench/init.mjs", "--", "true"]);
  });

  it("has the init enter the command's folder, already as the agent (bwrap itself starts in /)", () => {
    expect(entryArgv(spec({ sockets: [] }), root, ["true"], true, "/home/workspace").slice(-5)).toEqual([
      "/run/mlebench/init.mjs", "--cwd", "/home/workspace", "--", "true",
    ]);
  });
});

describe("hidden files", () => {
  it("binds the empty file over each hidden file that exists, after the system mounts", () => {
    const args = bwrapArgs(spec({ hidden: [process.execPath, "/no/such/file"] }), layout, root, "/tmp/etc");
    const at = args.indexOf("/tmp/etc/empty");
    expect(at).toBeGreaterThan(args.indexOf("/usr"));
    expect(args.slice(at - 1, at + 2)).toEqual(["--ro-bind", "/tmp/etc/empty", process.execPath]);
    expect(args).not.toContain("/no/such/file");
    expect(identityFiles(1).empty).toBe("");
  });

  it("covers each hidden folder (a dataset package's) with an empty read-only tmpfs, after the system mounts", () => {
    const dir = path.dirname(process.execPath);
    const args = bwrapArgs(spec({ hidden: [dir] }), layout, root, "/tmp/etc");
    const at = args.lastIndexOf(dir);
    expect(at).toBeGreaterThan(args.indexOf("/usr"));
    expect(args.slice(at - 3, at + 1)).toEqual(["--perms", "0555", "--tmpfs", dir]);
  });
});

describe("identityFiles", () => {
  it("names the agent user with its uid and maps localhost", () => {
    const f = identityFiles(65534);
    expect(f.passwd).toContain("agent:x:65534:65534:agent:/home/workspace:/bin/bash\n");
    expect(f.hosts.split("\n")[0]).toBe("127.0.0.1\tlocalhost");
  });
});
