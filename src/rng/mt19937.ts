/**
 * The Mersenne Twister MT19937 (Matsumoto & Nishimura), the generator behind numpy's legacy
 * RandomState and Python's `random`. Both seed it their own way; this class only holds the
 * state and produces 32-bit words.
 */
export class MT19937 {
  /** The 624-word state; exposed so seeding routines of each library can fill it. */
  readonly mt = new Uint32Array(624);
  index = 625;

  /** Knuth's linear seeding of the state from one 32-bit value (init_genrand). */
  initGenrand(seed: number): void {
    const mt = this.mt;
    mt[0] = seed >>> 0;
    for (let i = 1; i < 624; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      // 1812433253 * prev + i, modulo 2^32, without losing bits to float rounding.
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = 624;
  }

  /** Seeding from an array of 32-bit words (init_by_array), as used for large or array seeds. */
  initByArray(key: ArrayLike<number>): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    const n = 624;
    for (let k = Math.max(n, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + (key[j] >>> 0) + j) >>> 0;
      i++;
      j++;
      if (i >= n) {
        mt[0] = mt[n - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = n - 1; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= n) {
        mt[0] = mt[n - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    this.index = 624;
  }

  private twist(): void {
    const mt = this.mt;
    for (let k = 0; k < 624; k++) {
      const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
      let v = mt[(k + 397) % 624] ^ (y >>> 1);
      if (y & 1) v ^= 0x9908b0df;
      mt[k] = v >>> 0;
    }
    this.index = 0;
  }

  /** The next 32-bit output word. */
  nextUint32(): number {
    if (this.index >= 624) {
      if (this.index === 625) this.initGenrand(5489);
      this.twist();
    }
    let y = this.mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A double in [0, 1) with 53 random bits, from two words (numpy's random_sample, Python's random()). */
  nextDouble(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }
}
