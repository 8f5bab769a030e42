import { UserError } from "../core/errors.js";

/** Where the queue lives: a Redis server (and database) named by a redis:// or rediss:// URL. */
export interface RedisUrl {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** The URL with any password replaced by ***, safe to print. */
  display: string;
}

/** Replace the password of a redis URL (parsable or not) with ***, so no message ever shows it. */
export function redactUrl(text: string): string {
  // Everything between the user's ":" and the last "@" is password, even when the URL is malformed.
  const at = text.lastIndexOf("@");
  if (at < 0) return text;
  const slashes = text.indexOf("//");
  const start = slashes >= 0 && slashes < at ? slashes + 2 : 0;
  const colon = text.indexOf(":", start);
  if (colon < 0 || colon > at) return text;
  return `${text.slice(0, colon + 1)}***${text.slice(at)}`;
}

/** Parse `redis://[user:pass@]host[:port][/db]` (or rediss:// for TLS); a UserError names what is wrong. */
export function parseRedisUrl(text: string, flag = "--queue"): RedisUrl {
  const shown = redactUrl(text);
  const bad = (why: string) => new UserError(`${flag}: "${shown}" is not a Redis URL: ${why} (expected redis://[user:password@]host:port[/db])`);
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw bad("it does not parse as a URL");
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:") throw bad(`the scheme is "${u.protocol.replace(/:$/, "")}", not redis or rediss`);
  if (!u.hostname) throw bad("no host");
  const port = u.port === "" ? 6379 : Number(u.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw bad(`port "${u.port}" is not 1-65535`);
  const dbText = u.pathname.replace(/^\//, "");
  if (dbText !== "" && !/^\d+$/.test(dbText)) throw bad(`database "${dbText}" is not a number`);
  const db = dbText === "" ? 0 : Number(dbText);
  if (u.search || u.hash) throw bad("query strings and fragments are not supported");
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1");
  return {
    host,
    port,
    db,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    tls: u.protocol === "rediss:",
    display: `${u.protocol}//${u.username ? `${u.username}${u.password ? ":***" : ""}@` : u.password ? ":***@" : ""}${u.host}/${db}`,
  };
}

/** ioredis connection options for BullMQ; commands wait through reconnects instead of failing. */
export function connectionOptions(url: RedisUrl) {
  return {
    host: url.host,
    port: url.port,
    db: url.db,
    username: url.username,
    password: url.password,
    tls: url.tls ? {} : undefined,
    // BullMQ requires null here: its blocking commands must survive a Redis restart.
    maxRetriesPerRequest: null,
    // Reconnect quickly and keep trying (a restarted Redis comes back within seconds).
    retryStrategy: (times: number) => Math.min(200 * times, 2000),
  };
}
