/**
 * Raw Snappy decompression (the block format, no framing), the codec most Parquet writers use
 * by default. Only decompression is needed: our own Parquet output is written uncompressed.
 */

/** Decompress one raw Snappy block; `where` names the input in error messages. */
export function snappyDecompress(src: Uint8Array, where = "snappy block"): Uint8Array {
  let pos = 0;
  // The block starts with the uncompressed length as a little-endian base-128 varint.
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (pos >= src.length || shift > 28) throw new Error(`${where}: bad length header`);
    const b = src[pos++];
    length += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  const out = new Uint8Array(length);
  let o = 0;
  while (pos < src.length) {
    const tag = src[pos++];
    const kind = tag & 3;
    if (kind === 0) {
      let len = tag >>> 2;
      if (len >= 60) {
        const extra = len - 59;
        if (pos + extra > src.length) throw new Error(`${where}: truncated literal length`);
        len = 0;
        for (let k = 0; k < extra; k++) len += src[pos + k] * 2 ** (8 * k);
        pos += extra;
      }
      len += 1;
      if (pos + len > src.length || o + len > length) throw new Error(`${where}: literal runs past the end`);
      out.set(src.subarray(pos, pos + len), o);
      pos += len;
      o += len;
      continue;
    }
    let len: number;
    let offset: number;
    if (kind === 1) {
      if (pos >= src.length) throw new Error(`${where}: truncated copy`);
      len = 4 + ((tag >>> 2) & 7);
      offset = ((tag >>> 5) << 8) | src[pos++];
    } else if (kind === 2) {
      if (pos + 2 > src.length) throw new Error(`${where}: truncated copy`);
      len = (tag >>> 2) + 1;
      offset = src[pos] | (src[pos + 1] << 8);
      pos += 2;
    } else {
      if (pos + 4 > src.length) throw new Error(`${where}: truncated copy`);
      len = (tag >>> 2) + 1;
      offset = (src[pos] | (src[pos + 1] << 8) | (src[pos + 2] << 16)) + src[pos + 3] * 2 ** 24;
      pos += 4;
    }
    if (offset === 0 || offset > o || o + len > length) throw new Error(`${where}: copy outside the output`);
    // Copies may overlap their own output (a run), so they go byte by byte.
    for (let k = 0; k < len; k++, o++) out[o] = out[o - offset];
  }
  if (o !== length) throw new Error(`${where}: ${o} bytes decoded, header says ${length}`);
  return out;
}
