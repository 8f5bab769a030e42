/**
 * Apache Thrift's compact protocol, the encoding of Parquet's metadata (file footer and page
 * headers). Decoding is schema-less: a struct becomes a map from field id to value, and the
 * Parquet layer picks out the fields it knows.
 */

/** A decoded value: ints up to 32 bits are numbers, i64 is a bigint, binary stays bytes. */
export type ThriftValue = boolean | number | bigint | Uint8Array | ThriftValue[] | ThriftStruct;

/** A decoded struct: field id to value. */
export type ThriftStruct = Map<number, ThriftValue>;

// Compact-protocol type codes.
const T_TRUE = 1;
const T_FALSE = 2;
const T_BYTE = 3;
const T_I16 = 4;
const T_I32 = 5;
const T_I64 = 6;
const T_DOUBLE = 7;
const T_BINARY = 8;
const T_LIST = 9;
const T_SET = 10;
const T_MAP = 11;
const T_STRUCT = 12;

/** Reads compact-protocol values from a buffer, advancing `pos`. */
export class ThriftReader {
  pos: number;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    private readonly where = "thrift data",
  ) {
    this.pos = start;
  }

  private fail(what: string): never {
    throw new Error(`${this.where}: ${what} at byte ${this.pos}`);
  }

  private byte(): number {
    if (this.pos >= this.buf.length) this.fail("unexpected end of data");
    return this.buf[this.pos++];
  }

  private varint(): bigint {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (shift > 63n) this.fail("varint too long");
      const b = this.byte();
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
    }
  }

  private zigzag(): bigint {
    const v = this.varint();
    return (v >> 1n) ^ -(v & 1n);
  }

  /** One struct, up to and including its stop byte. */
  struct(depth = 0): ThriftStruct {
    if (depth > 64) this.fail("nesting too deep");
    const out: ThriftStruct = new Map();
    let last = 0;
    for (;;) {
      const head = this.byte();
      if (head === 0) return out;
      const type = head & 0x0f;
      const delta = head >>> 4;
      const id = delta === 0 ? Number(this.zigzag()) : last + delta;
      last = id;
      out.set(id, this.value(type, depth));
    }
  }

  private value(type: number, depth: number): ThriftValue {
    switch (type) {
      case T_TRUE:
        return true;
      case T_FALSE:
        return false;
      case T_BYTE: {
        const b = this.byte();
        return b > 127 ? b - 256 : b;
      }
      case T_I16:
      case T_I32:
        return Number(this.zigzag());
      case T_I64:
        return BigInt.asIntN(64, this.zigzag());
      case T_DOUBLE: {
        if (this.pos + 8 > this.buf.length) this.fail("unexpected end of data");
        const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true);
        this.pos += 8;
        return v;
      }
      case T_BINARY: {
        const n = Number(this.varint());
        if (this.pos + n > this.buf.length) this.fail("binary runs past the end");
        const v = this.buf.subarray(this.pos, this.pos + n);
        this.pos += n;
        return v;
      }
      case T_LIST:
      case T_SET: {
        const head = this.byte();
        let n = head >>> 4;
        if (n === 15) n = Number(this.varint());
        const elem = head & 0x0f;
        const out: ThriftValue[] = [];
        for (let i = 0; i < n; i++) {
          // Inside a collection a bool is a whole byte (1 true; 0 or 2 false).
          out.push(elem === T_TRUE || elem === T_FALSE ? this.byte() === 1 : this.value(elem, depth + 1));
        }
        return out;
      }
      case T_MAP: {
        const n = Number(this.varint());
        if (n === 0) return [];
        const kinds = this.byte();
        const out: ThriftValue[] = [];
        for (let i = 0; i < n; i++) out.push([this.value(kinds >>> 4, depth + 1), this.value(kinds & 0x0f, depth + 1)]);
        return out;
      }
      case T_STRUCT:
        return this.struct(depth + 1);
      default:
        return this.fail(`unknown compact type ${type}`);
    }
  }
}

/** A value to encode, tagged with its Thrift type. */
export type ThriftOut =
  | { t: "bool"; v: boolean }
  | { t: "i32"; v: number }
  | { t: "i64"; v: bigint | number }
  | { t: "binary"; v: Uint8Array | string }
  | { t: "list"; elem: "i32" | "i64" | "binary" | "struct"; v: ThriftOut[] }
  | { t: "struct"; v: [number, ThriftOut][] };

const ELEM_CODE = { i32: T_I32, i64: T_I64, binary: T_BINARY, struct: T_STRUCT } as const;

/** Builds compact-protocol bytes. */
export class ThriftWriter {
  private chunks: number[] = [];

  private varint(v: bigint): void {
    while (v >= 0x80n) {
      this.chunks.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.chunks.push(Number(v));
  }

  private zigzag(v: bigint): void {
    this.varint(BigInt.asUintN(64, (v << 1n) ^ (v >> 63n)));
  }

  /** Encode a struct given as (field id, value) pairs in increasing id order. */
  struct(fields: [number, ThriftOut][]): this {
    let last = 0;
    for (const [id, value] of fields) {
      const code = value.t === "bool" ? (value.v ? T_TRUE : T_FALSE) : value.t === "list" ? T_LIST : typeCode(value.t);
      const delta = id - last;
      if (delta > 0 && delta <= 15) this.chunks.push((delta << 4) | code);
      else {
        this.chunks.push(code);
        this.zigzag(BigInt(id));
      }
      last = id;
      if (value.t !== "bool") this.body(value);
    }
    this.chunks.push(0);
    return this;
  }

  private body(value: ThriftOut): void {
    switch (value.t) {
      case "bool":
        this.chunks.push(value.v ? 1 : 0);
        return;
      case "i32":
        this.zigzag(BigInt(value.v));
        return;
      case "i64":
        this.zigzag(BigInt(value.v));
        return;
      case "binary": {
        const bytes = typeof value.v === "string" ? Buffer.from(value.v, "utf8") : value.v;
        this.varint(BigInt(bytes.length));
        for (const b of bytes) this.chunks.push(b);
        return;
      }
      case "list": {
        const n = value.v.length;
        const code = ELEM_CODE[value.elem];
        if (n < 15) this.chunks.push((n << 4) | code);
        else {
          this.chunks.push(0xf0 | code);
          this.varint(BigInt(n));
        }
        for (const item of value.v) this.body(item);
        return;
      }
      case "struct":
        this.struct(value.v);
        return;
    }
  }

  /** The bytes written so far. */
  bytes(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }
}

function typeCode(t: "i32" | "i64" | "binary" | "struct"): number {
  return ELEM_CODE[t];
}
