/*
 * The mutants shown to be equivalent: they change no result, so no test can kill them. Each is
 * named by its file, the source text Stryker mutates (`code`; where `code` alone occurs more
 * often, `within` is a longer text that occurs once in the file, the node being the last
 * occurrence of `code` in it; a `code` ending in " …" names a node by its start), the mutator,
 * the replacements that are equivalent, and why. Other replacements of the same node are not listed and must be killed by tests.
 *
 * They live here rather than as comments in src/, so the code says only what it does. Stryker
 * still runs them; `stryker/score.mjs` counts a listed survivor as equivalent rather than as a
 * gap. test/stryker/equivalent-mutants.test.ts runs Stryker's instrumenter over each file and
 * fails when an entry no longer names a mutant it makes, so the list cannot go stale.
 */

/** @type {import("./equivalent-mutants.d.mts").EquivalentMutant[]} */
export const EQUIVALENT_MUTANTS = [
  // Statistics.
  {
    file: "src/harness/stats/cluster-robust.ts",
    code: "sumA += a",
    mutator: "AssignmentOperator",
    replacements: ["sumA -= a"],
    reason: "subtracting gives −sumA, which is only squared",
  },
  {
    file: "src/harness/stats/sign-flip.ts",
    code: "flipped += bits & 1 ? -moving[i] : moving[i]",
    mutator: "AssignmentOperator",
    replacements: ["flipped -= bits & 1 ? -moving[i] : moving[i]"],
    reason: "subtracting gives −flipped, whose absolute value is the same",
  },
  {
    file: "src/harness/stats/sign-flip.ts",
    code: "Math.abs(flipped) >= observed - tolerance",
    mutator: "EqualityOperator",
    replacements: ["Math.abs(flipped) > observed - tolerance"],
    reason: "> and >= differ only when |sum| equals observed − tolerance to the last bit",
  },
  {
    file: "src/harness/stats/sign-flip.ts",
    code: "Math.abs(sum) >= bar",
    mutator: "EqualityOperator",
    replacements: ["Math.abs(sum) > bar"],
    reason: "> and >= differ only when |sum| equals the bar to the last bit",
  },

  {
    file: "src/harness/stats/clusters.ts",
    code: "j < nValues",
    mutator: "EqualityOperator",
    replacements: ["j <= nValues"],
    reason: "one step past the end reads undefined from itemOf, so the sum lands on a property named \"undefined\", never on an item's mean",
  },
  {
    file: "src/harness/stats/clusters.ts",
    code: "i < nItems",
    within: "for (let i = 0; i < nItems; i++) itemMeans[i] /= itemCounts[i]",
    mutator: "EqualityOperator",
    replacements: ["i <= nItems"],
    reason: "one step past the end divides an element that does not exist: a typed array ignores the write",
  },
  {
    file: "src/harness/stats/clusters.ts",
    code: "i < nItems",
    within: "for (let i = 0; i < nItems; i++) {\n    const c = itemCluster[i];",
    mutator: "EqualityOperator",
    replacements: ["i <= nItems"],
    reason: "one step past the end reads undefined from itemCluster, so both sums land on a property named \"undefined\", never on a cluster's",
  },

  // Memory: caches and fast paths that change time and memory, never a result.
  {
    file: "src/memory/tokenizer.ts",
    code: "pieceCounts.size < MAX_REMEMBERED_PIECES",
    mutator: "ConditionalExpression",
    replacements: ["true", "false"],
    reason: "whether a count is remembered changes time and memory, never a count",
  },
  {
    file: "src/memory/tokenizer.ts",
    code: "pieceCounts.size < MAX_REMEMBERED_PIECES",
    mutator: "EqualityOperator",
    replacements: ["pieceCounts.size <= MAX_REMEMBERED_PIECES", "pieceCounts.size >= MAX_REMEMBERED_PIECES"],
    reason: "whether a count is remembered changes time and memory, never a count",
  },
  {
    file: "src/memory/build-section.ts",
    code: "head.slots.length === depth",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason:
      "a shorter head holds every candidate, each kept or costing more than the quota left, so the search past it would find nothing",
  },
  {
    file: "src/memory/vector/simd-dots.ts",
    code: "j < 7",
    mutator: "EqualityOperator",
    replacements: ["j <= 7"],
    reason: "rest = dim mod 8 is at most 7, so a turn for j = 7 would test rest > 7, never true",
  },
  {
    file: "src/memory/vector/simd-dots.ts",
    code: "[I32_XOR]",
    mutator: "ArrayDeclaration",
    replacements: ["[]"],
    reason: "without the xor the word read ahead replaces the one kept rather than joining it: the read still happens, and only the kernel's return value, which no caller reads, changes",
  },
  {
    file: "src/memory/vector/chunk.ts",
    code: "n === RESULT_SLOTS",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "a view of all RESULT_SLOTS results holds what the array holds; the test only spares making the view",
  },
  {
    file: "src/memory/vector/vector-column.ts",
    code: "c * this.chunkSlots < count",
    within: "private eachChunk(query: ArrayLike<number>, count: number, out: Float64Array, scale: CosineScale | null): Float64Array {\n    for (let c = 0; c * this.chunkSlots < count",
    mutator: "EqualityOperator",
    replacements: ["c * this.chunkSlots <= count"],
    reason: "the chunk that starts at the count is asked for 0 slots, and writes nothing",
  },
  {
    file: "src/memory/vector/vector-column.ts",
    code: "c * this.chunkSlots",
    within: "private eachChunk(query: ArrayLike<number>, count: number, out: Float64Array, scale: CosineScale | null): Float64Array {\n    for (let c = 0; c * this.chunkSlots",
    mutator: "ArithmeticOperator",
    replacements: ["c / this.chunkSlots"],
    reason: "c / chunkSlots < count lets through every chunk the product does, and more: those past the count are asked for no slots, and write nothing",
  },

  // Store: migrations.
  {
    file: "src/memory/store/migrations.ts",
    code: "version === SCHEMA_VERSION",
    within: "const version = readVersion(db, file);\n  if (version === SCHEMA_VERSION) return;\n  refuseNewer(file, version);\n  if (version === 0)",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "at SCHEMA_VERSION the migration loop below runs no migration",
  },
  {
    file: "src/memory/store/migrations.ts",
    code: "version <= SCHEMA_VERSION",
    mutator: "EqualityOperator",
    replacements: ["version < SCHEMA_VERSION"],
    reason: "every caller returns on SCHEMA_VERSION first, so < and <= agree on what reaches here",
  },

  // Store: identifying a file, and scratch stores.
  {
    file: "src/memory/store/identify.ts",
    code: "true",
    within: "{ readonly: true, fileMustExist: true }",
    mutator: "BooleanLiteral",
    replacements: ["false"],
    reason: "a read-only open never creates the file, so a missing one fails alike either way",
  },
  {
    file: "src/memory/store/identify.ts",
    code: "o.type === \"table\"",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "every version's schema has one table, so an index line without its table differs from the expected one only where its name or a second table differs too",
  },
  {
    file: "src/memory/store/identify.ts",
    code: "\":memory:\"",
    mutator: "StringLiteral",
    replacements: ['""'],
    reason: "SQLite's private temporary database runs the DDL as an in-memory one does",
  },
  {
    file: "src/memory/store/identify.ts",
    code: "{\n    db.close();\n  }",
    mutator: "BlockStatement",
    replacements: ["{}"],
    reason: "an in-memory connection left open holds memory until it is collected, and no file",
  },
  {
    file: "src/shared/quick-check.ts",
    code: "line.startsWith(\"***\")",
    mutator: "MethodExpression",
    replacements: ['line.endsWith("***")'],
    reason: "the line naming the schema (\"*** in database main ***\") ends with *** as it starts, and no problem's line does either",
  },
  {
    file: "src/shared/quick-check.ts",
    code: "\"; \"",
    mutator: "StringLiteral",
    replacements: ['""'],
    reason: "quick_check(1) stops at the first problem, so one line is left to join",
  },
  {
    file: "src/memory/store/identify.ts",
    code: "error.code.startsWith(\"SQLITE_CORRUPT\")",
    mutator: "MethodExpression",
    replacements: ['error.code.endsWith("SQLITE_CORRUPT")'],
    reason: "the reads made here (the version, the schema table, quick_check, which reports damage as text) raise only the plain SQLITE_CORRUPT, never an extended code",
  },
  {
    file: "src/memory/store/identify.ts",
    code: "{\n    return false;\n  }",
    mutator: "BlockStatement",
    replacements: ["{}"],
    reason: "returning nothing is as false to the one caller",
  },
  {
    file: "src/memory/store/scratch-stores.ts",
    code: "false",
    within: "openConnection(\":memory:\", tokenizer, false)",
    mutator: "BooleanLiteral",
    replacements: ["true"],
    reason: "whether the file existed decides only whether a failed open removes it, and an in-memory database has no file",
  },
  {
    file: "src/memory/store/scratch-stores.ts",
    code: "\":memory:\"",
    within: "openConnection(\":memory:\"",
    mutator: "StringLiteral",
    replacements: ['""'],
    reason: "SQLite's private temporary database holds the rows as an in-memory one does; the store's name is given apart",
  },

  // Store: the access order.
  {
    file: "src/memory/store/access-order.ts",
    code: "slots.length > 0",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "merging nothing leaves every entry as it was",
  },
  {
    file: "src/memory/store/access-order.ts",
    code: "slots.length > 0",
    mutator: "EqualityOperator",
    replacements: ["slots.length >= 0"],
    reason: "merging nothing leaves every entry as it was",
  },
  {
    file: "src/memory/store/access-order.ts",
    code: "Math.max(needed, this.version.length * 2)",
    mutator: "MethodExpression",
    replacements: ["Math.min(needed, this.version.length * 2)"],
    reason: "doubling only spares reallocations; any length past the slot holds the same versions",
  },
  {
    file: "src/memory/store/access-order.ts",
    code: "this.version.length * 2",
    mutator: "ArithmeticOperator",
    replacements: ["this.version.length / 2"],
    reason: "doubling only spares reallocations; any length past the slot holds the same versions",
  },
  {
    file: "src/memory/store/access-order.ts",
    code: "i >= 0",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "past the run's first entry its key reads as undefined, and undefined > key is false, so the entry comes from the additions either way",
  },
  {
    file: "src/memory/store/access-order.ts",
    code: "capacity <= this.slots.length",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "reallocating when there is room copies the same entries into a larger run",
  },
  {
    file: "src/memory/store/access-order.ts",
    code: "capacity <= this.slots.length",
    mutator: "EqualityOperator",
    replacements: ["capacity < this.slots.length"],
    reason: "reallocating when the room is exactly enough copies the same entries into a larger run",
  },
  {
    file: "src/memory/store/access-order.ts",
    code: "this.slots.length * 2",
    mutator: "ArithmeticOperator",
    replacements: ["this.slots.length / 2"],
    reason: "growing to at least the capacity asked only reallocates more often",
  },
  {
    file: "src/memory/store/access-order.ts",
    code: "this.version[slot]++",
    mutator: "UpdateOperator",
    replacements: ["this.version[slot]--"],
    reason: "counting down gives each removal a version no entry of the slot carries, as counting up does",
  },
  // Store: ingest and corrections.
  {
    file: "src/memory/store/store.ts",
    code: "chunk.length === CATCH_UP_CHUNK",
    mutator: "ConditionalExpression",
    replacements: ["true", "false"],
    reason: "chunks of any size add the same rows; the size bounds only memory",
  },
  {
    file: "src/memory/store/store.ts",
    code: "chunk.length === CATCH_UP_CHUNK",
    mutator: "EqualityOperator",
    replacements: ["chunk.length !== CATCH_UP_CHUNK"],
    reason: "chunks of any size add the same rows; the size bounds only memory",
  },
  {
    file: "src/memory/store/store.ts",
    code: "supersedes !== null",
    within: "if (supersedes !== null) this.checkCorrection(",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "no correction is recorded under null, so checking null finds none",
  },
  {
    file: "src/memory/store/store.ts",
    code: "probe += vector[i] * 0",
    mutator: "AssignmentOperator",
    replacements: ["probe -= vector[i] * 0"],
    reason: "subtracting the zeros and NaNs finds the same NaN",
  },
  {
    file: "src/memory/store/store.ts",
    code: "at + ROWS_PER_INSERT <= rows.length",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "rows left to the one-row insert below are stored the same, only more slowly",
  },
  {
    file: "src/memory/store/store.ts",
    code: "at + ROWS_PER_INSERT <= rows.length",
    mutator: "EqualityOperator",
    replacements: ["at + ROWS_PER_INSERT < rows.length"],
    reason: "rows left to the one-row insert below are stored the same, only more slowly",
  },
  {
    file: "src/memory/store/store.ts",
    code: "m.supersedes !== null",
    within: "if (m.supersedes !== null) this.scopeState(m.scope).corrections.set(",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "a null target would be recorded under null, a key no lookup uses, and found in no slot",
  },
  {
    file: "src/memory/store/store.ts",
    code: "m.supersedes === null",
    within: "if (m.supersedes === null) continue;",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "no memory's id is null, so a null target finds no slot",
  },
  {
    file: "src/memory/store/store.ts",
    code: "supersedes === null",
    within: "if (supersedes === null) return;",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "a null target would be recorded under null, a key correctorOf is never asked for",
  },

  // Store: the index's columns.
  {
    file: "src/memory/store/index-columns.ts",
    code: "[]",
    within: "private readonly expiring: number[] = [];",
    mutator: "ArrayDeclaration",
    replacements: ['["Stryker was here"]'],
    reason: "an entry that is no slot is never current, so it changes no count",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "capacity < first + memories.length",
    mutator: "EqualityOperator",
    replacements: ["capacity <= first + memories.length"],
    reason: "one doubling more when the batch fills the columns exactly only reserves room",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "capacity > this.capacity",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "capacity only doubles from this.capacity, and growing to the same capacity copies the columns as they are",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "capacity > this.capacity",
    mutator: "EqualityOperator",
    replacements: ["capacity >= this.capacity"],
    reason: "growing to the same capacity copies the columns as they are",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "i < memories.length",
    within: "for (let i = 0; i < memories.length; i++) {\n      const memory = memories[i];\n      if (!current[i]) continue;",
    mutator: "EqualityOperator",
    replacements: ["i <= memories.length"],
    reason: "a turn past the end finds current[i] undefined and skips it",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "memory.tokens < this.leastTokens[kind]",
    mutator: "EqualityOperator",
    replacements: ["memory.tokens <= this.leastTokens[kind]"],
    reason: "an equal cost stores the same least cost",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "memory.expiresAt !== null",
    within: "if (memory.expiresAt !== null) this.expiring.push(slot);",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "a slot that never expires is never subtracted, so listing it only costs time",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "this.slotById === null",
    within: "if (this.slotById === null) this.slotById = new Map(",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "rebuilding the map gives the same map, only later",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "{\n    if (written === null) values.fill(0, 0, this.size); …",
    mutator: "BlockStatement",
    replacements: ["{}"],
    reason: "without a spare, scoresBuffer allocates a zeroed array, which costs only time",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "this.spareScores.length < MAX_SPARE_SCORES",
    mutator: "ConditionalExpression",
    replacements: ["true", "false"],
    reason: "how many spares are kept changes memory and time, never a score",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "this.spareScores.length < MAX_SPARE_SCORES",
    mutator: "EqualityOperator",
    replacements: ["this.spareScores.length <= MAX_SPARE_SCORES", "this.spareScores.length >= MAX_SPARE_SCORES"],
    reason: "how many spares are kept changes memory and time, never a score",
  },

  // Store: postings and seq slots, where sizes and bounds change only when an array grows or how far a loop runs.
  {
    file: "src/memory/store/seq-slots.ts",
    code: "this.length > 0",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "with no row recorded the last row reads as undefined, and no seq is <= undefined, so the check passes either way",
  },
  {
    file: "src/memory/store/seq-slots.ts",
    code: "this.length > 0",
    mutator: "EqualityOperator",
    replacements: ["this.length >= 0"],
    reason: "with no row recorded the last row reads as undefined, and no seq is <= undefined, so the check passes either way",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "CELL * 2",
    within: "new Int32Array(CELL * 2",
    mutator: "ArithmeticOperator",
    replacements: ["CELL / 2"],
    reason: "a smaller first table only rehashes sooner",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "8 * FIRST_WORDS",
    mutator: "ArithmeticOperator",
    replacements: ["8 / FIRST_WORDS"],
    reason: "an empty first pool of characters grows at the first word to the room it needs",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "!isAscii(text)",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "tokenizeWords gives an ASCII text the same words as the cursor, only more slowly",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "this.words * 2 * CELL > this.cells.length",
    mutator: "EqualityOperator",
    replacements: ["this.words * 2 * CELL >= this.cells.length"],
    reason: "the table rehashes one word sooner",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "start + to - from > this.chars.length",
    mutator: "EqualityOperator",
    replacements: ["start + to - from >= this.chars.length"],
    reason: "the pool of characters grows one word sooner",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "start + to - from",
    within: "if (start + to - from",
    mutator: "ArithmeticOperator",
    replacements: ["start + to + from"],
    reason: "a sum at least as large only grows the pool sooner",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "start + to - from",
    within: "Math.max(this.chars.length, start + to - from",
    mutator: "ArithmeticOperator",
    replacements: ["start + to + from"],
    reason: "a sum at least as large only grows the pool more",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "cells[at + 1] !== hash",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "a word of the same length but another hash then differs in a character, which the comparison finds",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "k < to",
    mutator: "EqualityOperator",
    replacements: ["k <= to"],
    reason: "one more character is kept after the word, which no comparison reads: each word is compared over its own length from its own start",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "RECORD * (word + 1) > this.records.length",
    mutator: "EqualityOperator",
    replacements: ["RECORD * (word + 1) >= this.records.length"],
    reason: "the records grow one word sooner",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "this.slabUsed + room > this.slab.length",
    mutator: "EqualityOperator",
    replacements: ["this.slabUsed + room >= this.slab.length"],
    reason: "the slab is packed one reservation sooner",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "i < length",
    mutator: "EqualityOperator",
    replacements: ["i <= length"],
    reason: "the slot copied past a list's length lands in its own room or in the next list's first place, which that list's copy overwrites or leaves past its length, and no read goes past a list's length",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "from < old.length",
    mutator: "EqualityOperator",
    replacements: ["from <= old.length"],
    reason: "the cell read past the end copies an empty view, which sets nothing",
  },
  {
    file: "src/memory/store/postings.ts",
    code: "old[from] === EMPTY",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "an empty cell copied into a free cell leaves it empty",
  },
  {
    file: "src/memory/store/store.ts",
    code: "seq === undefined",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "no slot holds row undefined: the binary search compares nothing below it and finds no slot equal to it",
  },

  // Store: the index's score buffers and growth.
  {
    file: "src/memory/store/index-columns.ts",
    code: "spare.length >= this.size",
    mutator: "EqualityOperator",
    replacements: ["spare.length > this.size"],
    reason: "a spare of exactly the size is dropped for a new zeroed buffer, which only allocates",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "written === null",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "the slots written lie below the size, so zeroing every slot up to it zeroes them too",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "i < written.length",
    mutator: "EqualityOperator",
    replacements: ["i <= written.length"],
    reason: "the read past the list gives undefined, and values[undefined] is a property of the array object, no slot",
  },
  {
    file: "src/memory/store/index-columns.ts",
    code: "fill !== 0",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "filling a new, zeroed column with 0 changes nothing",
  },

  // Ranking: guards whose other branch gives the same result, and walks that only visit more.
  ...[
    ["totalA > totalB", "totalA >= totalB"],
    ["view.createdAt[sa] > view.createdAt[sb]", "view.createdAt[sa] >= view.createdAt[sb]"],
    ["wa > wb", "wa >= wb"],
  ].map(([code, replacement]) => ({
    file: "src/memory/rank/candidates.ts",
    code,
    mutator: "EqualityOperator",
    replacements: [replacement],
    reason: "reached only when the two keys differ, where > and >= agree",
  })),
  {
    file: "src/memory/rank/signals.ts",
    code: "step < 6",
    mutator: "EqualityOperator",
    replacements: ["step <= 6"],
    reason: "every cutoff returned is checked by the bound, so a seventh step only claims a cutoff where none was: the walk visits fewer, and ranks the same",
  },
  {
    file: "src/memory/rank/signals.ts",
    code: "unit * 16 ** step",
    mutator: "ArithmeticOperator",
    replacements: ["unit / 16 ** step"],
    reason: "every cutoff returned is checked by the bound, so other steps change how much a walk passes over, never what it ranks",
  },
  {
    file: "src/memory/rank/signals.ts",
    code: "this.w1 > 0",
    within: "if (!(this.w1 > 0)) return false",
    mutator: "EqualityOperator",
    replacements: ["this.w1 >= 0"],
    reason: "at a recency weight of 0 the recency bound adds 0, so the sum is the one already compared with the bar",
  },
  {
    file: "src/memory/rank/signals.ts",
    code: "units > 0",
    mutator: "EqualityOperator",
    replacements: ["units >= 0"],
    reason: "at 0 units the pow-free bound is 1 + 1e-9, above the best recency (at most 1) already compared with the bar",
  },
  {
    file: "src/memory/rank/signals.ts",
    code: "this.w1 >= 0",
    within: "this.w1 >= 0 ? rec + RECENCY_MARGIN",
    mutator: "EqualityOperator",
    replacements: ["this.w1 > 0"],
    reason: "at a recency weight of 0 either side of the margin is multiplied by 0",
  },
  {
    file: "src/memory/rank/signals.ts",
    code: "this.w2 >= 0",
    within: "this.w2 >= 0 ? maxImportance",
    mutator: "EqualityOperator",
    replacements: ["this.w2 > 0"],
    reason: "at an importance weight of 0 either end of the range is multiplied by 0",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "options.matched !== undefined && options.matchedByRelevance === true",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "without the early stop a walk passes over each slot below the cutoff one by one: it visits and ranks the same",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "n <= 0",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "gather gives nothing, visiting nothing, for a depth of 0 or less",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "n <= 0",
    mutator: "EqualityOperator",
    replacements: ["n < 0"],
    reason: "gather gives nothing, visiting nothing, for a depth of 0",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: '"last"',
    within: 'this.gather(n, "last"',
    mutator: "StringLiteral",
    replacements: ['""'],
    reason: "gather tells its ends apart only by \"first\": any other end is the last",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "slot >= 0 && slot < view.size",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "a slot past the size reads 0 from `current` (the room a column grows into), and a negative one undefined, so isCandidate rejects it anyway",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "slot >= 0 && slot < view.size",
    mutator: "LogicalOperator",
    replacements: ["slot >= 0 || slot < view.size"],
    reason: "a slot past the size reads 0 from `current` (the room a column grows into), and a negative one undefined, so isCandidate rejects it anyway",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "slot >= 0",
    within: "(slot) => slot >= 0",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "a negative slot reads undefined from the current column, so isCandidate rejects it anyway",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "targets.length + 1",
    mutator: "ArithmeticOperator",
    replacements: ["targets.length - 1"],
    reason: "candidates are plain arrays that grow as entries are written past their end",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "bounds[best] >= second",
    mutator: "EqualityOperator",
    replacements: ["bounds[best] > second"],
    reason: "on a tie the outer loop picks a run as good as this one: the same memories are visited once each, in another order of equals, and the heap keeps the same ones",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "matched === null",
    within: "const count = matched === null",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "with postings, the reads past their end give undefined slots, whose relevance is never above the largest",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "i < count",
    within: "for (let i = 0; i < count; i++) {\n      const slot = matched",
    mutator: "EqualityOperator",
    replacements: ["i <= count"],
    reason: "the read one past the end gives an undefined relevance, which is never above the largest",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "values[slot] > max",
    mutator: "EqualityOperator",
    replacements: ["values[slot] >= max"],
    reason: "on a tie the largest is set to the value it already has",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "x < r.min",
    mutator: "EqualityOperator",
    replacements: ["x <= r.min"],
    reason: "on a tie the bound is set to the value it already has",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "x > r.max",
    mutator: "EqualityOperator",
    replacements: ["x >= r.max"],
    reason: "on a tie the bound is set to the value it already has",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "i < matched.length",
    within: "for (let i = 0; i < matched.length; i++) counts",
    mutator: "EqualityOperator",
    replacements: ["i <= matched.length"],
    reason: "the read one past the end counts under the key \"undefined\", which no kind's array is made from",
  },
  {
    file: "src/memory/rank/signals.ts",
    code: "d >= 0",
    within: "d >= 0 && d < 1",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "the logarithm of a negative decay is NaN, the value the guard gives it anyway",
  },
  {
    file: "src/memory/rank/signals.ts",
    code: "d < 1",
    mutator: "EqualityOperator",
    replacements: ["d <= 1"],
    reason: "at a decay of 1 the pow-free bound is 1 + 1e-9, above the best recency (at most 1) already compared with the bar",
  },
  {
    file: "src/memory/rank/signals.ts",
    code: "this.w1 >= 0",
    within: "this.w1 >= 0 ? ceiling.recency",
    mutator: "EqualityOperator",
    replacements: ["this.w1 > 0"],
    reason: "at a recency weight of 0 the best recency, a finite number, is multiplied by 0",
  },
  {
    file: "src/memory/rank/signals.ts",
    code: "this.w2 >= 0",
    within: "this.w2 >= 0 ? ceiling.importance",
    mutator: "EqualityOperator",
    replacements: ["this.w2 > 0"],
    reason: "at an importance weight of 0 either end of the range is multiplied by 0",
  },
  {
    file: "src/memory/rank/signals.ts",
    code: "this.w0 > 0",
    mutator: "EqualityOperator",
    replacements: ["this.w0 >= 0"],
    reason: "at a relevance weight of 0 every guess is infinite or NaN, and 0 times it NaN, so the bound never holds and no cutoff is claimed",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "Math.min(depth, 64) + 1",
    mutator: "ArithmeticOperator",
    replacements: ["Math.min(depth, 64) - 1"],
    reason: "candidates are plain arrays that grow as entries are written past their end",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "slot < view.size",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "a slot past the size reads 0 from `current` (the room a column grows into), or undefined past that room, so isCandidate rejects it anyway",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "slot < view.size",
    mutator: "EqualityOperator",
    replacements: ["slot <= view.size"],
    reason: "the slot at the size reads 0 from `current` (the room a column grows into), so isCandidate rejects it anyway",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "targets.length === 0",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "with no target the bar is +Infinity and no target is left placing, so the walk gives nothing and ends at its first visit at the latest",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "slot !== target",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "the section order is strict: a memory never comes before itself",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "this.kind === null",
    within: "const list = this.kind === null",
    mutator: "ConditionalExpression",
    replacements: ["true"],
    reason: "walking every slot, isCandidate rejects the other kinds before any visit",
  },
  ...(() => {
    const belowCutoff =
      "a relevance at or below the cutoff fails cannotReachWith, which admits asks first: the walk passes over the same memories, one comparison later";
    const staleCutoff =
      "the bar only rises, so a cutoff kept from a lower bar is lower, and admits passes over what the new one would: the same memories are visited";
    return [
      ["raw <= cutoff", "ConditionalExpression", ["false"], belowCutoff],
      ["raw <= cutoff", "EqualityOperator", ["raw < cutoff"], belowCutoff],
      ["{\n        if (descending) break; …", "BlockStatement", ["{}"], belowCutoff],
      ["raised !== bar && byScore", "ConditionalExpression", ["false"], staleCutoff],
      ["raised !== bar", "ConditionalExpression", ["true"], staleCutoff],
      ["raised !== bar", "EqualityOperator", ["raised === bar"], staleCutoff],
    ].map(([code, mutator, replacements, reason]) => ({ file: "src/memory/rank/section-ranking.ts", code, mutator, replacements, reason }));
  })(),
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "descending",
    within: "if (descending",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "past the first slot below the cutoff, in a walk by relevance, every slot is below it too: the walk passes over each, and visits the same",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "this.byScore && signals.cannotReachWith(rel, bar)",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "for a candidate, cannotReach's first test, at its own importance, rules out all that cannotReachWith does, at the best",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "exhausted(r)",
    within: "if (exhausted(r)) return",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "an exhausted run's bound is never read: the walk tests exhaustion first",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "bounds[r] > bounds[best]",
    mutator: "EqualityOperator",
    replacements: ["bounds[r] >= bounds[best]"],
    reason: "on a tie the walk takes another run as good as this one: only the order of equally bounded memories changes, and the heap keeps the same ones",
  },
  ...[
    ["best !== -1", "ConditionalExpression", ["true"]],
    ["best !== -1", "EqualityOperator", ["best === -1"]],
    ["-1", "UnaryOperator", ["+1"]],
  ].map(([code, mutator, replacements]) => ({
    file: "src/memory/rank/section-ranking.ts",
    code,
    within: "if (best !== -1) second",
    mutator,
    replacements,
    reason:
      "at best -1 the second best becomes Math.max of an undefined bound, NaN, so the walk looks at every run again after each visit: it takes the same run, or one as good",
  })),
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "!exhausted(best) && bounds[best] >= second && bounds[best] >= bar",
    mutator: "ConditionalExpression",
    replacements: ["false"],
    reason: "the walk looks at every run again after each visit: it takes the same run, or one as good, and stops at the same bar",
  },
  {
    file: "src/memory/rank/section-ranking.ts",
    code: "bounds[best] >= bar",
    mutator: "EqualityOperator",
    replacements: ["bounds[best] > bar"],
    reason: "a run whose bound equals the bar is taken again by the outer loop, which stops only below the bar",
  },
];

const LOCATED = /\s…$/;

/** Offset of a 1-based line and column in `source`. */
function offsetOf(source, { line, column }) {
  let at = 0;
  for (let l = 1; l < line; l++) at = source.indexOf("\n", at) + 1;
  return at + column - 1;
}

/**
 * Why a mutant (as Stryker's JSON report gives it: mutatorName, replacement, 1-based location)
 * of `file`, whose text is `source`, is equivalent; undefined when it is not listed.
 */
export function equivalenceReason(file, source, mutant) {
  const start = offsetOf(source, mutant.location.start);
  const text = source.slice(start, offsetOf(source, mutant.location.end));
  for (const entry of EQUIVALENT_MUTANTS) {
    if (entry.file !== file || entry.mutator !== mutant.mutatorName || !entry.replacements.includes(mutant.replacement)) continue;
    const named = LOCATED.test(entry.code) ? text.startsWith(entry.code.replace(LOCATED, "")) : text === entry.code;
    const place = entry.within === undefined ? start : source.indexOf(entry.within) + entry.within.lastIndexOf(entry.code.replace(LOCATED, ""));
    if (named && place === start) return entry.reason;
  }
  return undefined;
}
