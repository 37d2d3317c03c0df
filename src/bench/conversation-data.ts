/**
 * A generated conversation benchmark in the conversation JSON Lines format, shaped like a large
 * public long-memory benchmark: many conversations of a few hundred turns each, one question per
 * conversation, about half of them with sessions listed out of date order. Words follow the bench's
 * Zipf-like vocabulary, so text compresses and tokenises like text rather than like noise. The
 * same options give the same bytes.
 */
import { writeConversations, type ConversationInput } from "../datasets/conversations/index.js";
import { createRng, type Rng } from "../harness/stats/rng.js";
import { vocabulary, ZipfSampler } from "./synthetic.js";

export interface ConversationDataOptions {
  conversations: number;
  turnsPerConversation: number;
  turnsPerSession: number;
  /** Words per turn are drawn uniformly from this range. */
  words: [number, number];
  seed: number;
}

const DAY = 86_400_000;
const START = Date.UTC(2023, 0, 1);
const SPEAKERS = ["Alex", "Sam"];

export async function writeConversationBenchmark(file: string, options: ConversationDataOptions): Promise<number> {
  const root = createRng(options.seed);
  const words = vocabulary(20_000, root.fork("vocabulary"));
  const zipf = new ZipfSampler(words.length, 1.05);
  const rng = root.fork("conversations");
  const sentence = (n: number) => Array.from({ length: n }, () => words[zipf.sample(rng)]).join(" ");
  function* conversations(): Generator<ConversationInput> {
    for (let c = 0; c < options.conversations; c++) yield conversation(c, options, rng, sentence);
  }
  return writeConversations(file, conversations());
}

function conversation(index: number, options: ConversationDataOptions, rng: Rng, sentence: (n: number) => string): ConversationInput {
  const sessions: ConversationInput["sessions"] = [];
  let time = START + rng.nextInt(365) * DAY;
  for (let turn = 0, s = 0; turn < options.turnsPerConversation; s++) {
    const count = Math.min(options.turnsPerSession, options.turnsPerConversation - turn);
    sessions.push({
      id: `s${s}`,
      date: new Date(time).toISOString(),
      turns: Array.from({ length: count }, (_, t) => {
        const [min, max] = options.words;
        return { id: `s${s}:${t}`, speaker: SPEAKERS[(turn + t) % 2], text: sentence(min + rng.nextInt(max - min + 1)) };
      }),
    });
    turn += count;
    time += (1 + rng.nextInt(10)) * DAY;
  }
  const evidence = sessions[rng.nextInt(sessions.length)];
  const gold = evidence.turns[rng.nextInt(evidence.turns.length)];
  const query = gold.text.split(" ").slice(0, 6).join(" ");
  return {
    id: `conv-${index}`,
    // About half the conversations list their sessions out of date order, as real benchmarks do.
    sessions: rng.nextFloat() < 0.5 ? rng.shuffle(sessions) : sessions,
    questions: [{ id: "q0", text: `What about ${query}?`, evidence: [gold.id], category: "single-hop" }],
  };
}
