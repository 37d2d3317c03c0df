/**
 * A plain full-scan retrieval, written straight from the contract with no index: read every
 * current memory from SQLite, score each one, sort everything, fit. It is the oracle that
 * retrieval, which visits only memories that can place, must agree with exactly.
 */
import { expect } from "vitest";
import { bm25Idf, bm25Term } from "../../src/memory/relevance/bm25.js";
import { defaultStopwords } from "../../src/memory/relevance/index.js";
import { retrieve, retrieveUnder } from "../../src/memory/retrieve.js";
import { sectionPlan } from "../../src/memory/section-plan.js";
import {
  importanceScore,
  recencyScore,
  relevanceScore,
  retrievalScore,
} from "../../src/memory/scoring.js";
import type { MemoryStore } from "../../src/memory/store/store.js";
import {
  type Block,
  type Memory,
  type RetrieveRequest,
  type ScoreConfig,
  type SectionName,
} from "../../src/memory/types.js";
import { tokenizeWords, wordSet } from "../../src/memory/words.js";

export interface ScanSection {
  name: SectionName;
  ranked: { id: string; rel: number; rec: number; imp: number; total: number }[];
  kept: string[];
  tokensUsed: number;
}

export function scanRetrieve(store: MemoryStore, request: RetrieveRequest): ScanSection[] {
  const { policy, now, query } = request;
  const all = store.current(request.scope, now);
  return sectionPlan(policy).map(({ name, rule, score: config }) => {
    const stopwords = config.stopwords ?? defaultStopwords(config.relevance);
    const rawRel = relevanceOf(all, config, stopwords, request);
    let members = all.filter((m) => name === "pooled" || m.kind === name);
    let rels = members.map((m) => rawRel.get(m.id) ?? 0);
    if (config.relevance === "bm25") {
      const max = Math.max(0, ...rels);
      if (max > 0) rels = rels.map((r) => r / max);
    }
    if (rule.requireRelevance) {
      const keep = members.map((_, i) => rels[i] > 0);
      members = members.filter((_, i) => keep[i]);
      rels = rels.filter((_, i) => keep[i]);
    }
    const decayOf = (m: Memory) => config.kindDecay[m.kind] ?? config.decayRate;
    let recs =
      config.recency === "rank"
        ? rankRecencies(members, config.recencyOrder ?? "descending").map((position, i) => decayOf(members[i]) ** position)
        : members.map((m) => recencyScore(now, m.lastAccessedAt, decayOf(m), config.unitMs));
    let imps = members.map((m) => importanceScore(m.importance));
    if (config.normalise === "minmax") {
      rels = minmax(rels);
      recs = minmax(recs);
      imps = minmax(imps);
    }
    const rows = members.map((m, i) => ({
      m,
      id: m.id,
      rel: rels[i],
      rec: recs[i],
      imp: imps[i],
      total: retrievalScore(rels[i], recs[i], imps[i], config.weights),
    }));
    const when = (m: Memory) => m.occurredAt ?? m.createdAt;
    rows.sort((a, b) => {
      if (rule.order === "score" && a.total !== b.total) return b.total - a.total;
      if (rule.order === "newest" && a.m.createdAt !== b.m.createdAt) return b.m.createdAt - a.m.createdAt;
      if (when(a.m) !== when(b.m)) return when(b.m) - when(a.m);
      return a.id < b.id ? -1 : 1;
    });
    const kept: string[] = [];
    let tokensUsed = 0;
    for (const row of rows) {
      if (kept.length >= rule.limit) break;
      const cost = row.m.tokens;
      if (rule.quota !== null && tokensUsed + cost > rule.quota) {
        if (rule.fit === "stop") break;
        continue;
      }
      kept.push(row.id);
      tokensUsed += cost;
    }
    return { name, ranked: rows.map(({ m: _, ...r }) => r), kept, tokensUsed };
  });
}

function relevanceOf(
  all: Memory[],
  config: ScoreConfig,
  stopwords: boolean,
  request: RetrieveRequest,
): Map<string, number> {
  const out = new Map<string, number>();
  const q = wordSet(request.query.text, { stopwords });
  if (config.relevance === "words") {
    for (const m of all) {
      const words = new Set(tokenizeWords(m.text));
      const shared = q.filter((w) => words.has(w)).length;
      if (shared > 0) out.set(m.id, shared / q.length);
    }
  } else if (config.relevance === "bm25") {
    const docs = all.map((m) => tokenizeWords(m.text, { stopwords }));
    const avg = docs.length > 0 ? docs.reduce((s, d) => s + d.length, 0) / docs.length : 0;
    const scores = new Array<number>(all.length).fill(0);
    for (const term of q) {
      const df = docs.filter((d) => d.includes(term)).length;
      if (df === 0) continue;
      const idf = bm25Idf(all.length, df);
      docs.forEach((d, i) => {
        const tf = d.filter((w) => w === term).length;
        if (tf > 0) scores[i] += bm25Term(idf, tf, d.length, avg);
      });
    }
    all.forEach((m, i) => out.set(m.id, scores[i]));
  } else {
    const qe = request.query.embedding!;
    for (const m of all) {
      if (m.embedding === null) continue;
      if (m.embeddingModel !== qe.model) throw new Error(`model mismatch on ${m.id}`);
      out.set(m.id, relevanceScore(qe.vector, m.embedding));
    }
  }
  return out;
}

/** Each member's position from 1 in last-access order (ties by id), as rank recency counts it. */
function rankRecencies(members: Memory[], order: "ascending" | "descending"): number[] {
  const sorted = [...members].sort((a, b) => {
    if (a.lastAccessedAt !== b.lastAccessedAt) return order === "ascending" ? a.lastAccessedAt - b.lastAccessedAt : b.lastAccessedAt - a.lastAccessedAt;
    return a.id < b.id ? -1 : 1;
  });
  const position = new Map(sorted.map((m, i) => [m.id, i + 1]));
  return members.map((m) => position.get(m.id)!);
}

function minmax(values: number[]): number[] {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return values.map((v) => (max === min ? 0.5 : (v - min) / (max - min)));
}


/**
 * Retrieves and asserts that the block is what the full scan gives (scanned first, before any
 * touch): the same kept memories and token use per section, every reported entry at its rank in
 * the full order with the same signals, a head of consecutive ranks from 1, and beyond it exactly
 * the located candidates that place there and, with `neighbours`, the memories that many ranks
 * either side of any located one.
 */
export function expectRetrieveMatchesScan(store: MemoryStore, request: RetrieveRequest): Block {
  const expected = scanRetrieve(store, request);
  const block = retrieve(store, request);
  // A ranking shared across policies (a sweep's) walks matched memories by relevance and stops
  // early: it must give the same block. Sharing needs a policy that does not touch.
  if (!request.policy.touch) expect(retrieveUnder(store, request, [request.policy])).toEqual([block]);
  const located = new Set(request.locate ?? []);
  expect(block.sections.map((s) => s.name)).toEqual(expected.map((s) => s.name));
  block.sections.forEach((section, i) => {
    const scan = expected[i];
    expect(section.kept).toEqual(scan.kept);
    expect(section.tokensUsed).toBe(scan.tokensUsed);
    const reported = section.ranked.map(({ id, rel, rec, imp, total }) => ({ id, rel, rec, imp, total }));
    expect(reported).toEqual(section.ranked.map((r) => scan.ranked[r.rank - 1]));
    let head = 0;
    while (head < section.ranked.length && section.ranked[head].rank === head + 1) head++;
    const deeper = section.ranked.slice(head).map((r) => r.rank);
    expect(deeper).toEqual([...deeper].sort((a, b) => a - b));
    expect(new Set(deeper).size).toBe(deeper.length);
    const n = request.neighbours ?? 0;
    const within = request.locateWithin ?? Number.POSITIVE_INFINITY;
    const near = (p: number) => scan.ranked.some((r, q) => located.has(r.id) && q < within && Math.abs(p - q) <= n);
    expect(deeper).toEqual(scan.ranked.flatMap((_, p) => (p >= head && near(p) ? [p + 1] : [])));
  });
  return block;
}
