/**
 * The repeats of a file's addresses, found as the rows pass through a table
 * of 32-bit address hashes, each with the last row it came from: 16 to 32
 * bytes a row with the table's free slots (16 MiB for a million rows) where
 * a map of the addresses would hold over 100 MiB.
 *
 * When a hash comes again, the repeat is kept as a pair: the row before it
 * with the same hash, and its own row and address. The rows of one hash form
 * a chain of repeats; every row of a repeated address is in one, along with
 * the rare rows that only share a hash, which the database tells apart by
 * comparing addresses. Repeats are kept only while a quarter of the expected
 * rows at most are in chains (`listable`): beyond, the rows are better
 * grouped in the database than sent to it, and the addresses are not held.
 */
export class RepeatedAddresses {
  readonly repeats: { earlierRows: number[]; laterRows: number[]; addresses: string[] } = {
    earlierRows: [],
    laterRows: [],
    addresses: [],
  };
  private hashes: Uint32Array;
  private lastRows: Uint32Array;
  private used = 0;
  /** Rows in chains of repeats, each counted once. */
  private listed = 0;
  private readonly listLimit: number;

  constructor(expected: number) {
    this.listLimit = expected / 4;
    let size = 1024;
    while (size < expected * 2) size *= 2;
    this.hashes = new Uint32Array(size);
    this.lastRows = new Uint32Array(size);
  }

  add(address: string, rowNumber: number): void {
    const hash = fnv1a(address) || 1; // 0 marks an empty slot
    const slot = this.slotOf(hash);
    if (this.hashes[slot] === hash) {
      // Seen before: the earlier row is counted unless it is already, and this one is.
      const last = this.lastRows[slot]!;
      this.listed += (last & LISTED) === 0 ? 2 : 1;
      if (this.listable) {
        this.repeats.earlierRows.push((last & ~LISTED) >>> 0);
        this.repeats.laterRows.push(rowNumber);
        this.repeats.addresses.push(address);
      }
      this.lastRows[slot] = (rowNumber | LISTED) >>> 0;
      return;
    }
    this.hashes[slot] = hash;
    this.lastRows[slot] = rowNumber;
    if (++this.used * 2 > this.hashes.length) this.grow();
  }

  /** Whether the rows in chains are few enough to be sent to the database, and every repeat is kept. */
  get listable(): boolean {
    return this.listed <= this.listLimit;
  }

  /** The hash's slot, or the empty one where it goes (open addressing, linear probing). */
  private slotOf(hash: number): number {
    const mask = this.hashes.length - 1;
    let slot = hash & mask;
    while (this.hashes[slot] !== 0 && this.hashes[slot] !== hash) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const [hashes, lastRows] = [this.hashes, this.lastRows];
    this.hashes = new Uint32Array(hashes.length * 2);
    this.lastRows = new Uint32Array(hashes.length * 2);
    for (let i = 0; i < hashes.length; i++) {
      if (hashes[i] === 0) continue;
      const slot = this.slotOf(hashes[i]!);
      this.hashes[slot] = hashes[i]!;
      this.lastRows[slot] = lastRows[i]!;
    }
  }
}

// Row numbers stay below 2^31 (a 1 GiB file has fewer rows): the top bit marks a row already in a chain.
const LISTED = 0x8000_0000;

/** FNV-1a over the string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
