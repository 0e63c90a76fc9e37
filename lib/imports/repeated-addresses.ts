/**
 * The rows of a file whose address may occur in another row too, found as
 * the rows pass through a table of 32-bit address hashes, each with the last
 * row it came from: 16 to 32 bytes a row with the table's free slots (16 MiB
 * for a million rows) where a map of the addresses would hold over 100 MiB.
 * When a hash comes again, its rows are listed, each once, so every row of a
 * repeated address is listed, along with the rare rows that only share a
 * hash; the database tells the two apart by comparing the listed rows'
 * addresses, looked up by row number.
 *
 * Each repeat is also kept as a pair: the row before it with the same hash
 * and its own address. When every pair's two rows have the same address, the
 * pairs say which rows lose to a later one without the rows being grouped.
 * Only while a quarter of the expected rows at most are listed (`listable`):
 * beyond, the rows are better grouped in the database than sent to it, and
 * the addresses are not held.
 */
export class RepeatedAddresses {
  readonly rows: number[] = [];
  readonly repeats: { earlierRows: number[]; laterRows: number[]; addresses: string[] } = { earlierRows: [], laterRows: [], addresses: [] };
  private hashes: Uint32Array;
  private lastRows: Uint32Array;
  private used = 0;
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
      // Seen before: the earlier row is listed unless it is already, and this one is.
      const last = this.lastRows[slot]!;
      if ((last & LISTED) === 0) this.rows.push(last);
      this.rows.push(rowNumber);
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

  /** Whether the listed rows are few enough to be sent to the database, and every repeat is kept. */
  get listable(): boolean {
    return this.rows.length <= this.listLimit;
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

// Row numbers stay below 2^31 (a 1 GiB file has fewer rows): the top bit marks a row already listed.
const LISTED = 0x8000_0000;

/** FNV-1a over the string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
