// SHA-256 of a short text, synchronously: the proof of work hashes tens of thousands of candidates, and
// crypto.subtle is both asynchronous per call and missing on pages served over plain http.

const K = new Uint32Array(64);
const primes: number[] = [];
for (let candidate = 2; primes.length < 64; candidate++) {
  if (primes.every((prime) => candidate % prime !== 0)) primes.push(candidate);
}
primes.forEach((prime, index) => (K[index] = (Math.cbrt(prime) % 1) * 2 ** 32));
const INITIAL = primes.slice(0, 8).map((prime) => (Math.sqrt(prime) % 1) * 2 ** 32);

const rotate = (value: number, bits: number) => (value >>> bits) | (value << (32 - bits));

export function sha256Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const length = ((bytes.length + 9 + 63) >> 6) << 6;
  const padded = new Uint8Array(length);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  new DataView(padded.buffer).setUint32(length - 4, bytes.length * 8);
  const hash = INITIAL.map((value) => value >>> 0);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = new DataView(padded.buffer).getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotate(w[i - 15]!, 7) ^ rotate(w[i - 15]!, 18) ^ (w[i - 15]! >>> 3);
      const s1 = rotate(w[i - 2]!, 17) ^ rotate(w[i - 2]!, 19) ^ (w[i - 2]! >>> 10);
      w[i] = w[i - 16]! + s0 + w[i - 7]! + s1;
    }
    let [a, b, c, d, e, f, g, h] = hash as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const t2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    [a, b, c, d, e, f, g, h].forEach((value, index) => (hash[index] = (hash[index]! + value) >>> 0));
  }
  return hash.map((value) => (value >>> 0).toString(16).padStart(8, "0")).join("");
}
