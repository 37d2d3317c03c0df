import { grownArray } from "../../shared/grown-array.js";

/**
 * The row number (seq) of each slot of one scope's index. Slots are added in seq order, so the
 * list is increasing and a row's slot is found by binary search. It lets the store find a slot
 * from SQLite's (scope, id) index, which every insert keeps anyway, instead of a map from id to
 * slot that would cost a hash insert per memory and grow with the scope.
 */
export class SeqSlots {
  private seqs = new Float64Array(16);
  private length = 0;

  /** Records that the next slot holds row `seq`, which must be past every row recorded. */
  push(seq: number): void {
    if (this.length > 0 && seq <= this.seqs[this.length - 1]) {
      throw new Error(`row ${seq} is not past row ${this.seqs[this.length - 1]}: slots must be added in row order`);
    }
    if (this.length === this.seqs.length) this.seqs = grownArray(this.seqs, this.length * 2);
    this.seqs[this.length++] = seq;
  }

  /** The row held in `slot`, one of the slots recorded. */
  seqAt(slot: number): number {
    return this.seqs[slot];
  }

  /** The slot holding row `seq`, or undefined when no slot does. */
  slotOf(seq: number): number | undefined {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.seqs[mid] < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.length && this.seqs[lo] === seq ? lo : undefined;
  }
}
