import { describe, expect, it } from "vitest";
import { probe, renderConversationBench } from "../../src/bench/conversation-bench.js";
import { writeConversationBenchmark } from "../../src/bench/conversation-data.js";
import { useTempDir } from "../harness/temp-files.js";

const temp = useTempDir();

describe("the conversation bench", () => {
  it("measures a step in a process of its own: wall time, peak RSS and what it read", async () => {
    const file = temp.path("small.jsonl.gz");
    await writeConversationBenchmark(file, { conversations: 3, turnsPerConversation: 10, turnsPerSession: 5, words: [3, 6], seed: 1 });
    const { result, figures } = probe(temp.dir, ["import", file]);
    expect(result.summary).toBe("3 conversations, 6 sessions, 30 turns");
    expect(figures.wallMs).toBeGreaterThan(0);
    // A process of its own: at least Node's own footprint, nowhere near the test runner's.
    expect(figures.peakRssMb).toBeGreaterThan(20);
    expect(figures.load).toHaveLength(2);
  });

  it("renders each row with its target and whether it was met", () => {
    const table = renderConversationBench([
      { step: "import", data: "d", fileMb: 30.25, wallMs: 4_700, peakRssMb: 259, load: [1.5, 1.75], target: "peak RSS < 1024 MB", met: true },
      { step: "experiment", data: "e", fileMb: 8.6, wallMs: 250_000, peakRssMb: 764, load: [2, 2.5], target: "wall ≤ 240 s", met: false },
    ]);
    expect(table).toContain("| import     | d    |      30.3 |     4.70 |           259 | 1.50 → 1.75 | peak RSS < 1024 MB | yes |");
    expect(table).toContain("| experiment | e    |      8.60 |      250 |           764 | 2.00 → 2.50 | wall ≤ 240 s       | NO  |");
  });
});
