/**
 * The few pieces of the WebAssembly binary format that hand-assembled kernels need: LEB128
 * integers, names, sections and vectors, the instructions they use, named as in the text format,
 * and the module around one exported function. Enough for a one-function module, no more.
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

// Control: a block's or an if's type VOID takes and leaves nothing; branches name their depth.
export const [BLOCK, LOOP, IF, END, BR, BR_IF, VOID] = [0x02, 0x03, 0x04, 0x0b, 0x0c, 0x0d, 0x40];
export const [I32_ADD, I32_SUB, I32_MUL, I32_AND, I32_XOR, I32_LT_U, I32_GE_U, I32_GT_U, I32_SHL] = [0x6a, 0x6b, 0x6c, 0x71, 0x73, 0x49, 0x4f, 0x4b, 0x74];
export const [I32_LOAD, I32_SHR_U] = [0x28, 0x76];
export const [F32_ADD, F32_MUL, F32_LOAD, F64_ADD, F64_STORE, F64_PROMOTE_F32] = [0x92, 0x94, 0x2a, 0xa0, 0x39, 0xbb];
export const [F64_LOAD, F64_CONST, F64_EQ, F64_MUL, F64_DIV, F64_MAX, SELECT] = [0x2b, 0x44, 0x61, 0xa2, 0xa3, 0xa5, 0x1b];
// SIMD opcodes, written after the prefix by simd().
export const [V128_LOAD, V128_STORE, V128_CONST, F32X4_EXTRACT_LANE, F32X4_ADD, F32X4_MUL] = [0x00, 0x0b, 0x0c, 0x1f, 0xe4, 0xe6];
export const [F64X2_SPLAT, F64X2_EXTRACT_LANE, F64X2_EQ, F64X2_NE, V128_ANDNOT, V128_OR, V128_ANY_TRUE] = [0x14, 0x21, 0x47, 0x48, 0x4f, 0x50, 0x53];
export const [F64X2_MUL, F64X2_DIV, F64X2_PMAX] = [0xf2, 0xf3, 0xf7];

/** v128.const of sixteen zero bytes: a zeroed accumulator or mask. */
export const v128Zero = () => simd(V128_CONST, ...new Array(16).fill(0));

/** local.get and local.set of local `l`. */
export const get = (l: number) => [0x20, ...uleb(l)];
export const set = (l: number) => [0x21, ...uleb(l)];
/** i32.const `n`. */
export const i32 = (n: number) => [0x41, ...sleb(n)];
/** f64.const x: its eight bytes, little-endian. */
export const f64 = (x: number) => {
  const bytes = new DataView(new ArrayBuffer(8));
  bytes.setFloat64(0, x, true);
  return [F64_CONST, ...new Uint8Array(bytes.buffer)];
};
/** A load's or store's immediates: log2 of its alignment, then its offset. */
export const memarg = (align: number, offset: number) => [...uleb(align), ...uleb(offset)];

export interface OneFunction {
  /** Its export name. */
  name: string;
  params: number[];
  results: number[];
  /** Runs of locals past the parameters: [how many, type]. */
  locals: [number, number][];
  /** Its instructions, without the final END. */
  code: number[];
}

/** A module that imports `env.memory` (see sharedMemoryImport) and exports one function. */
export function oneFunctionModule(fn: OneFunction): Uint8Array<ArrayBuffer> {
  const type = [0x60, ...vec(fn.params.map((t) => [t])), ...vec(fn.results.map((t) => [t]))];
  const body = [...vec(fn.locals.map(([count, t]) => [...uleb(count), t])), ...fn.code, END];
  return new Uint8Array([
    ...WASM_HEADER,
    ...section(1, vec([type])),
    ...section(2, vec([sharedMemoryImport()])),
    ...section(3, vec([[0x00]])),
    ...section(7, vec([[...name(fn.name), 0x00, 0x00]])),
    ...section(10, vec([[...uleb(body.length), ...body]])),
  ]);
}

/**
 * A one-function module (see oneFunctionModule) made from `bytes` and compiled on first use, and
 * its function bound to a memory: `bind` gives null where the runtime has no WebAssembly or
 * rejects the bytes (as one without SIMD rejects SIMD instructions), and `available` says which.
 */
export function compiledOnce<F>(name: string, bytes: () => Uint8Array<ArrayBuffer>): { available(): boolean; bind(memory: WebAssembly.Memory): F | null } {
  let compiled: WebAssembly.Module | null | undefined;
  const module = (): WebAssembly.Module | null => {
    if (compiled === undefined) {
      const made = bytes();
      compiled = typeof WebAssembly === "object" && WebAssembly.validate(made) ? new WebAssembly.Module(made) : null;
    }
    return compiled;
  };
  return {
    available: () => module() !== null,
    bind(memory) {
      const compiledModule = module();
      return compiledModule === null ? null : (new WebAssembly.Instance(compiledModule, { env: { memory } }).exports[name] as F);
    },
  };
}

/** The most pages (64 KiB each) a 32-bit WebAssembly memory can hold: 4 GiB. */
export const MAX_PAGES = 65_536;

/**
 * A memory the kernels can import: shared, so that another thread can fault its pages in ahead of
 * the writes that fill them (see prefault.ts). Shared memories need a maximum, and do not move
 * when they grow; the runtime reserves address space for the maximum, so one below MAX_PAGES
 * (which the import accepts) reserves no more than its user can fill.
 */
export function sharedMemory(initialPages: number, maximumPages: number = MAX_PAGES): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: initialPages, maximum: maximumPages, shared: true });
}

/** The import entry of `env.memory` as a shared memory of up to MAX_PAGES, as sharedMemory makes. */
export const sharedMemoryImport = (): number[] => [...name("env"), ...name("memory"), 0x02, 0x03, ...uleb(0), ...uleb(MAX_PAGES)];
