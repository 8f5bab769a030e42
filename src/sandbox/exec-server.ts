/**
 * The harness's side of the in-sandbox exec server (`init.mjs --serve`, see init.ts): one sandbox
 * process per run, started with the run's first command, that starts each later command with a
 * single process spawn. Requests are JSON lines on the server's stdin; replies are frames on its
 * stdout. What comes back is treated as hostile (an unprivileged agent shares the server's uid):
 * frames are bounded, and anything malformed ends the server, and with it the commands it ran.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { childStdio } from "./fds.js";
import { OutputCapture, killGroup, type CaptureOptions, type ProcessResult } from "./process.js";

const FRAME_STDOUT = 1;
const FRAME_STDERR = 2;
const FRAME_EXIT = 3;
const FRAME_READY = 4;
const HEADER = 9;
/** The server reads pipes in chunks far below this; a larger frame means a corrupt stream. */
const MAX_FRAME = 1 << 20;
/** Bytes of the server's own stderr kept to explain a server that would not start. */
const MAX_START_ERROR = 64 << 10;

/** How to start the server process on the host. */
export interface ServerLaunch {
  argv: string[];
  /** Descriptors handed to it as 3, 4, ... (closed here once it is spawned). */
  fds?: number[];
  env: Record<string, string>;
}

/** One command for the server. */
export interface ServedCommand {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  input?: string;
}

/** How one served command is watched. */
export interface ServedOptions extends CaptureOptions {
  timeoutMs?: number;
  /** Called when timeoutMs passes, with the command's id (see `signal`). */
  onTimeout: (id: number) => void;
}

/** Why the server is not there to run a command: its start failed, or it is gone. */
interface StartFailure {
  why: string;
  code: number | null;
  signal: string | null;
}

interface Pending {
  capture: OutputCapture;
  started: number;
  timedOut: boolean;
  timer?: NodeJS.Timeout;
  resolve: (r: ProcessResult) => void;
}

/** Splits the server's stdout into frames; throws on a frame that cannot be one. */
export class FrameReader {
  private buf: Buffer = Buffer.alloc(0);

  /** Frames completed by `chunk`, in order. */
  push(chunk: Buffer): { type: number; id: number; payload: Buffer }[] {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    const out: { type: number; id: number; payload: Buffer }[] = [];
    let at = 0;
    while (this.buf.length - at >= HEADER) {
      const type = this.buf[at];
      const id = this.buf.readUInt32BE(at + 1);
      const length = this.buf.readUInt32BE(at + 5);
      if (type < FRAME_STDOUT || type > FRAME_READY) throw new Error(`unknown frame type ${type}`);
      if (length > MAX_FRAME) throw new Error(`a frame of ${length} bytes (at most ${MAX_FRAME})`);
      if (this.buf.length - at - HEADER < length) break;
      out.push({ type, id, payload: Buffer.from(this.buf.subarray(at + HEADER, at + HEADER + length)) });
      at += HEADER + length;
    }
    this.buf = this.buf.subarray(at);
    return out;
  }
}

/** One run's exec server: started on first use, restarted after it ends. */
export class ExecServer {
  private child: ChildProcess | null = null;
  private starting: Promise<StartFailure | null> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Its stderr before it was ready, and whatever it says later, shown in the next command's stderr. */
  private said: Buffer[] = [];
  private saidBytes = 0;

  constructor(private readonly launch: () => ServerLaunch) {}

  /** Host pid of the server's outermost process (its process group), or null when none runs. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Commands started and not yet ended. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Ids of the commands running now. */
  ids(): number[] {
    return [...this.pending.keys()];
  }

  /** Run one command through the server (started first if none runs). */
  async run(cmd: ServedCommand, opts: ServedOptions): Promise<ProcessResult> {
    const started = Date.now();
    const failure = await this.ensure();
    const capture = new OutputCapture(opts);
    const early = this.takeSaid();
    if (early.length > 0) capture.add(early, "stderr");
    if (failure !== null) {
      if (early.length === 0) capture.add(Buffer.from(`${failure.why}\n`), "stderr");
      capture.close();
      const { code, signal } = failure;
      return { pid: -1, exitCode: code, signal, timedOut: false, stdout: "", stderr: capture.text("stderr"), truncated: capture.truncated, wallMs: Date.now() - started };
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      const p: Pending = { capture, started, timedOut: false, resolve };
      this.pending.set(id, p);
      if (opts.timeoutMs !== undefined) {
        p.timer = setTimeout(() => {
          p.timedOut = true;
          opts.onTimeout(id);
        }, Math.max(0, opts.timeoutMs));
      }
      this.write({ run: id, argv: cmd.argv, cwd: cmd.cwd, env: cmd.env, ...(cmd.input === undefined ? {} : { input: cmd.input }) });
    });
  }

  /** Signal a command's processes (its group and what descends from it). */
  signal(id: number, name: "SIGTERM" | "SIGKILL"): void {
    if (this.pending.has(id)) this.write({ signal: id, name });
  }

  /** Kill the server and everything it runs now; running commands end with SIGKILL. */
  destroy(): void {
    const child = this.child;
    if (child?.pid !== undefined) killGroup(child.pid, "SIGKILL");
    this.gone();
  }

  /** End the server and everything it runs, and wait (at most `waitMs`) until its outermost process is gone. */
  async stop(waitMs = 2000): Promise<void> {
    const child = this.child;
    if (child === null) return;
    const exited = new Promise<void>((r) => {
      if (child.exitCode !== null || child.signalCode !== null) r();
      else child.once("exit", () => r());
    });
    // Nothing is left to save: the run is over. The sandbox's pid 1 dies with bwrap, and every process in it.
    this.destroy();
    await Promise.race([exited, new Promise<void>((r) => setTimeout(r, waitMs).unref())]);
  }

  private write(req: object): void {
    this.child?.stdin?.write(`${JSON.stringify(req)}\n`);
  }

  private takeSaid(): Buffer {
    const b = Buffer.concat(this.said);
    this.said = [];
    this.saidBytes = 0;
    return b;
  }

  private keepSaid(chunk: Buffer): void {
    const room = MAX_START_ERROR - this.saidBytes;
    if (room <= 0) return;
    const part = chunk.subarray(0, room);
    this.said.push(part);
    this.saidBytes += part.length;
  }

  /** Start the server unless one runs; null once it is ready, else why it is not. */
  private ensure(): Promise<StartFailure | null> {
    if (this.child !== null && this.starting === null) return Promise.resolve(null);
    this.starting ??= this.start().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private start(): Promise<StartFailure | null> {
    const { argv, fds = [], env } = this.launch();
    return new Promise((resolve) => {
      let ready = false;
      let child: ChildProcess;
      try {
        child = spawn(argv[0], argv.slice(1), { env, detached: true, stdio: ["pipe", "pipe", "pipe", ...childStdio(fds)] });
      } finally {
        for (const fd of fds) fs.closeSync(fd);
      }
      if (child.pid === undefined) {
        child.once("error", (e) => resolve({ why: `cannot start ${argv[0]}: ${e.message}`, code: 127, signal: null }));
        return;
      }
      this.child = child;
      child.on("error", () => {}); // it is signalled by process group, never through this object
      child.stdin!.on("error", () => {}); // a dead server's requests go nowhere; its exit says why
      const reader = new FrameReader();
      child.stdout!.on("data", (chunk: Buffer) => {
        let frames;
        try {
          frames = reader.push(chunk);
        } catch (e) {
          this.keepSaid(Buffer.from(`exec server: corrupt reply (${(e as Error).message}); the sandbox was stopped\n`));
          this.destroy();
          return;
        }
        for (const f of frames) {
          if (f.type === FRAME_READY) {
            if (!ready) (ready = true), resolve(null);
          } else this.deliver(f.type, f.id, f.payload);
        }
      });
      child.stderr!.on("data", (chunk: Buffer) => {
        // After start, the server speaks only of trouble: shown with a running command, else the next.
        const first = this.pending.values().next().value;
        if (ready && first !== undefined) first.capture.add(chunk, "stderr");
        else this.keepSaid(chunk);
      });
      child.on("exit", (code, signal) => {
        if (!ready) {
          ready = true;
          // What it printed before it ended may still be in the pipe.
          const failed = () => {
            if (this.child === child) this.gone();
            resolve({ why: `the sandbox did not start (exit ${code ?? signal})`, code, signal });
          };
          const late = setTimeout(failed, 500);
          child.once("close", () => {
            clearTimeout(late);
            failed();
          });
          return;
        }
        if (this.child !== child) return;
        if (this.pending.size > 0) this.keepSaid(Buffer.from(`mlebench: the sandbox ended (${signal ?? `exit ${code}`}) while this command ran\n`));
        this.gone();
      });
    });
  }

  private deliver(type: number, id: number, payload: Buffer): void {
    const p = this.pending.get(id);
    if (p === undefined) return; // a command already ended, or a forged id
    if (type === FRAME_STDOUT) p.capture.add(payload, "stdout");
    else if (type === FRAME_STDERR) p.capture.add(payload, "stderr");
    else if (type === FRAME_EXIT) {
      const status = /^\d{1,3}$/.test(payload.toString("latin1")) ? Number(payload.toString("latin1")) : null;
      this.settle(id, status, status === null ? "SIGKILL" : null);
    }
  }

  private settle(id: number, exitCode: number | null, signal: string | null): void {
    const p = this.pending.get(id);
    if (p === undefined) return;
    this.pending.delete(id);
    if (p.timer) clearTimeout(p.timer);
    p.capture.close();
    p.resolve({
      pid: this.child?.pid ?? -1,
      exitCode,
      signal,
      timedOut: p.timedOut,
      stdout: p.capture.text("stdout"),
      stderr: p.capture.text("stderr"),
      truncated: p.capture.truncated,
      wallMs: Date.now() - p.started,
    });
  }

  /** The server ended: every command it ran ends as killed with it. */
  private gone(): void {
    const child = this.child;
    this.child = null;
    if (child !== null) {
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
    }
    const said = this.pending.size > 0 ? this.takeSaid() : Buffer.alloc(0);
    for (const id of [...this.pending.keys()]) {
      if (said.length > 0) this.pending.get(id)!.capture.add(said, "stderr");
      this.settle(id, null, "SIGKILL");
    }
  }
}
