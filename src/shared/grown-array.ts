/**
 * Typed arrays that grow by doubling, or come and go in bulk, without leaving holes in the C heap.
 * A plain typed array's bytes come from malloc, which serves blocks of up to 32 MB from its heap
 * once a large block has been freed, and keeps them there when they are freed in turn. Each
 * doubling of a column left its last copy behind that way: after a million memories, about 90 MB
 * of a scope index's RSS was such holes.
 *
 * A large array is instead a view of a growable SharedArrayBuffer, which the runtime maps from the
 * system with room reserved past its length: it grows in place while the room lasts (no copy),
 * and a copy that outgrows it goes back to the system when collected. Pages of the room are
 * resident only once written. Small arrays stay plain: their holes are bounded by the threshold,
 * and a mapping each would cost more than it saves.
 */

/** Arrays of at least this many bytes are mapped (see above); smaller ones are plain. */
export const MAPPED_BYTES = 256 * 1024;
/** A mapped array reserves this many times its bytes, so that two doublings in a row copy nothing. */
const HEADROOM = 4;

export type GrownArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

export interface GrownArrayType<A extends GrownArray> {
  new (length: number): A;
  new (buffer: SharedArrayBuffer, byteOffset: number, length: number): A;
  readonly BYTES_PER_ELEMENT: number;
}

/** SharedArrayBuffer with its growable form, which the TypeScript libraries of ES2022 do not declare. */
interface GrowableBuffer extends SharedArrayBuffer {
  readonly growable: boolean;
  readonly maxByteLength: number;
  grow(bytes: number): void;
}
const Growable = SharedArrayBuffer as unknown as new (bytes: number, options: { maxByteLength: number }) => GrowableBuffer;
const isGrowable = (buffer: ArrayBufferLike): buffer is GrowableBuffer => (buffer as Partial<GrowableBuffer>).growable === true;

/** A zeroed array of `length` elements of `type`: mapped when it is large. */
export function newArray<A extends GrownArray>(type: GrownArrayType<A>, length: number): A {
  const bytes = length * type.BYTES_PER_ELEMENT;
  if (bytes < MAPPED_BYTES) return new type(length);
  return new type(new Growable(bytes, { maxByteLength: HEADROOM * bytes }), 0, length);
}

/**
 * `array` grown to `length` elements (at least its own), keeping its values, with the new ones
 * zero: in place when its reserved room allows, as a copy otherwise. Use only the returned array
 * from then on; the old one may share its bytes.
 */
export function grownArray<A extends GrownArray>(array: A, length: number): A {
  const type = array.constructor as GrownArrayType<A>;
  const bytes = length * type.BYTES_PER_ELEMENT;
  const buffer = array.buffer;
  // In place only for a view of the whole mapping, so that every byte it gains is new, so zero.
  if (isGrowable(buffer) && array.byteLength === buffer.byteLength && bytes <= buffer.maxByteLength) {
    buffer.grow(bytes);
    return new type(buffer, 0, length);
  }
  const next = newArray(type, length);
  next.set(array);
  return next;
}
