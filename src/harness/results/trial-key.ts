/**
 * The identity of a trial: results promise one trial per (scenario, ablation, seed), and the
 * journal, the regression check, the merge of shards and the summary's alignment all find trials
 * by it. The separator is a character no name holds, so "a-b"+"c" and "a"+"b-c" stay apart.
 */
export const trialKey = (t: { scenario: string; ablation: string; seed: number }) => `${t.scenario}\u0000${t.ablation}\u0000${t.seed}`;
