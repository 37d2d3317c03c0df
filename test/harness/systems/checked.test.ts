import { describe, expect, it } from "vitest";
import { IdLedger, withinTimeout } from "../../../src/harness/systems/checked.js";
import { type Retrieved, SystemError } from "../../../src/harness/systems/contract.js";

/** A ledger that was given memories a (3 tokens), b (5) and c (8). */
function ledger(): IdLedger {
  const given = new IdLedger();
  given.add([
    { id: "a", tokens: 3 },
    { id: "b", tokens: 5 },
  ]);
  given.add([{ id: "c", tokens: 8 }]);
  return given;
}

/** The problem the ledger finds with `reply`; fails the test when it finds none or throws anything else. */
function problemWith(reply: unknown): string {
  try {
    ledger().check(reply);
  } catch (error) {
    expect(error).toBeInstanceOf(SystemError);
    expect((error as SystemError).call).toBe("retrieve");
    return (error as SystemError).problem;
  }
  throw new Error(`expected ${JSON.stringify(reply)} to be refused`);
}

const never = () => new Promise<never>(() => {});

/** What `promise` rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe("IdLedger.check", () => {
  it("accepts ids it was given, each once, with or without a block and sections, and gives the reply back as it is", () => {
    const plain = { ids: ["c", "a"] };
    expect(ledger().check(plain)).toBe(plain);
    expect(ledger().check({ ids: [] })).toEqual({ ids: [] });
    const full: Retrieved = {
      ids: ["a", "b", "c"],
      block: "a\nb\nc",
      sections: [
        { name: "semantic", ranked: [{ id: "a", rank: 1 }, { id: "b", rank: 2 }], kept: ["a", "b"] },
        { name: "episodic", ranked: [{ id: "c", rank: 1, rel: 0.5, rec: 1, imp: 0.3, total: 1.8 }], kept: ["c"], weights: [1, 1, 1] },
      ],
    };
    expect(ledger().check(full)).toBe(full);
  });

  it("refuses a reply that is not an object", () => {
    for (const reply of [null, undefined, "a", 3, true]) expect(problemWith(reply)).toBe("returned no result object");
  });

  it("refuses ids that are missing, not a list, or not all strings", () => {
    for (const reply of [{}, { ids: "a" }, { ids: { 0: "a" } }, { ids: ["a", 2] }, { ids: [null] }, { id: ["a"] }]) {
      expect(problemWith(reply), JSON.stringify(reply)).toBe("returned ids that are not a list of strings");
    }
  });

  it("refuses a block that is not a string", () => {
    expect(problemWith({ ids: ["a"], block: 42 })).toBe("returned a block that is not a string");
    expect(problemWith({ ids: ["a"], block: null })).toBe("returned a block that is not a string");
  });

  it("names an id it was never given", () => {
    expect(problemWith({ ids: ["a", "zebra"] })).toBe('returned an id it was never given: "zebra"');
  });

  it("counts the ids it was never given and shows the first three", () => {
    expect(problemWith({ ids: ["w", "a", "x", "y", "z"] })).toBe('returned 4 ids it was never given: "w", "x", "y", …');
    expect(problemWith({ ids: ["x", "y"] })).toBe('returned 2 ids it was never given: "x", "y"');
  });

  it("refuses an id returned twice", () => {
    expect(problemWith({ ids: ["a", "b", "a"] })).toBe('returned the id "a" twice');
  });

  it("refuses sections whose kept ids, joined, are not the returned ids in order", () => {
    const section = (kept: string[]) => ({ name: "ranking", ranked: kept.map((id, i) => ({ id, rank: i + 1 })), kept });
    const problem = "reported sections whose kept ids are not the ids it returned";
    expect(problemWith({ ids: ["a", "b"], sections: [section(["b", "a"])] })).toBe(problem);
    expect(problemWith({ ids: ["a", "b"], sections: [section(["a"])] })).toBe(problem);
    expect(problemWith({ ids: ["a"], sections: [section(["a"]), section(["b"])] })).toBe(problem);
    expect(problemWith({ ids: ["a"], sections: [] })).toBe(problem);
  });

  it("refuses a section that ranks an id it was never given", () => {
    const reply = { ids: ["a"], sections: [{ name: "semantic", ranked: [{ id: "a", rank: 1 }, { id: "ghost", rank: 2 }], kept: ["a"] }] };
    expect(problemWith(reply)).toBe('ranked the id "ghost", which it was never given');
  });

  it("refuses sections it could not read, as the system's failure rather than a crash", () => {
    const problem = "reported sections that are not a list of { name, ranked: [{ id, rank }], kept: [ids] }";
    for (const sections of [
      "semantic",
      {},
      [null],
      [{ name: "s", kept: ["a"] }],
      [{ name: "s", ranked: [{ id: "a" }], kept: ["a"] }],
      [{ name: "s", ranked: [{ id: "a", rank: 1 }], kept: "a" }],
      [{ ranked: [{ id: "a", rank: 1 }], kept: ["a"] }],
    ]) {
      expect(problemWith({ ids: ["a"], sections }), JSON.stringify(sections)).toBe(problem);
    }
  });
});

describe("IdLedger.cost", () => {
  it("is the line cost of an id it was given, the latest when given twice, and 0 for any other", () => {
    const given = ledger();
    expect([given.cost("a"), given.cost("b"), given.cost("c"), given.cost("nope")]).toEqual([3, 5, 8, 0]);
    given.add([{ id: "a", tokens: 4 }]);
    expect(given.cost("a")).toBe(4);
  });
});

describe("withinTimeout", () => {
  it("gives the work's value when it finishes in time, or at any time without a timeout", async () => {
    expect(await withinTimeout("retrieve", 1000, true, async () => ({ ids: ["a"] }))).toEqual({ ids: ["a"] });
    const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve("late but fine"), 30));
    expect(await withinTimeout("write", undefined, true, slow)).toBe("late but fine");
  });

  it("fails with a SystemError for the call when the work takes longer than the timeout", async () => {
    const started = performance.now();
    const error = await rejection(withinTimeout("retrieve", 40, true, never));
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    expect(error).toBeInstanceOf(SystemError);
    expect(error).toMatchObject({ call: "retrieve", problem: "no reply within 40 ms" });
  });

  it("times recollect's own work out too (the timeout does not depend on whose code runs)", async () => {
    expect(await rejection(withinTimeout("open", 20, false, never))).toMatchObject({ call: "open", problem: "no reply within 20 ms" });
  });

  it("wraps whatever a foreign system throws into a SystemError for the call, keeping the cause", async () => {
    const thrown = new TypeError("cannot read properties of undefined (reading 'push')");
    const error = await rejection(withinTimeout("write", 1000, true, async () => Promise.reject(thrown)));
    expect(error).toBeInstanceOf(SystemError);
    expect(error).toMatchObject({ call: "write", problem: "failed (cannot read properties of undefined (reading 'push'))" });
    expect((error as SystemError).cause).toBe(thrown);
    expect(await rejection(withinTimeout("close", undefined, true, async () => Promise.reject("just a string")))).toMatchObject({
      call: "close",
      problem: "failed (just a string)",
    });
  });

  it("passes a SystemError through as it is, foreign or not", async () => {
    const own = new SystemError("retrieve", 'returned the id "a" twice');
    expect(await rejection(withinTimeout("retrieve", 1000, true, async () => Promise.reject(own)))).toBe(own);
    expect(await rejection(withinTimeout("retrieve", undefined, false, async () => Promise.reject(own)))).toBe(own);
  });

  it("leaves recollect's own errors as they are: a bug keeps its type and stack", async () => {
    const bug = new RangeError("index out of range");
    const error = await rejection(withinTimeout("retrieve", 1000, false, async () => Promise.reject(bug)));
    expect(error).toBe(bug);
    expect(error).not.toBeInstanceOf(SystemError);
  });
});
