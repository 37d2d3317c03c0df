/**
 * The few pieces of the WebAssembly binary format that hand-assembled kernels need: LEB128
 * integers, names, sections and vectors. Enough for a one-function module, no more.
 */

export const WASM_HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

export const I32 = 0x7f;
export const F32 = 0x7d;
export const F64 = 0x7c;
export const V128 = 0x7b;

/** Unsigned LEB128. */
export const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
/** Signed LEB128. */
export const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
};
/** A name: its UTF-8 byte length (not its UTF-16 length), then the bytes. */
export const name = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  return [...uleb(bytes.length), ...bytes];
};
export const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
export const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
/** A SIMD instruction: the 0xfd prefix, its opcode, then its immediates. */
export const simd = (op: number, ...imm: number[]) => [0xfd, ...uleb(op), ...imm];

/** The most pages (64 KiB each) a 32-bit WebAssembly memory can hold: 4 GiB. */
export const MAX_PAGES = 65_536;

/**
 * A memory the kernels can import: shared, so that another thread can fault its pages in ahead of
 * the writes that fill them (see prefault.ts). Shared memories need a maximum, and do not move
 * when they grow.
 */
export function sharedMemory(initialPages: number): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: initialPages, maximum: MAX_PAGES, shared: true });
}

/** The import entry of `env.memory` as a shared memory of up to MAX_PAGES, as sharedMemory makes. */
export const sharedMemoryImport = (): number[] => [...name("env"), ...name("memory"), 0x02, 0x03, ...uleb(0), ...uleb(MAX_PAGES)];
