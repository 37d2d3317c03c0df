import { existsSync } from "node:fs";
import { importConversations, type ProtocolSettings } from "../../datasets/conversations/index.js";
import { LOCOMO_SHA256, loadLocomo, toScenarios } from "../../datasets/locomo/index.js";
import { type DatasetResolver, type DatasetScenarios, experimentDataset, type ResolvedDataset } from "../../harness/experiment/load.js";
import type { DataArgs } from "../app.js";

/** Imports the datasets experiments name: LoCoMo from the path the user gave, a conversation file from the experiment's folder. */
export function datasetResolver(data: DataArgs): DatasetResolver {
  return async (dataset, _file, protocol) =>
    "locomo" in dataset ? importLocomo(dataset, data, protocol) : importConversationFile(dataset, protocol);
}

function importLocomo(dataset: Extract<ResolvedDataset, { locomo: unknown }>, data: DataArgs, protocol: ProtocolSettings): DatasetScenarios {
  const { samples, sha256 } = loadLocomo(data.locomo, { expectedSha256: data.acceptLocomoHash ? false : LOCOMO_SHA256 });
  const { scenarios, stats, conversion } = toScenarios(samples, { ...dataset.locomo, protocol });
  return {
    scenarios: scenarios.map((spec) => ({ spec, origin: `locomo:${spec.name}`, sha256 })),
    datasets: [
      {
        name: "LoCoMo locomo10.json (snap-research/LoCoMo)",
        sha256,
        ...(sha256 !== LOCOMO_SHA256 ? { note: "not the pinned version; accepted with --accept-locomo-hash" } : {}),
      },
    ],
    importStats: { ...stats, locomo: conversion },
  };
}

async function importConversationFile(
  dataset: Extract<ResolvedDataset, { format: "conversations" }>,
  protocol: ProtocolSettings,
): Promise<DatasetScenarios> {
  const { scenarios, stats, notices, sha256 } = await importConversations(dataset.file, {
    categories: dataset.categories,
    observations: dataset.observations,
    protocol,
  });
  return {
    scenarios: scenarios.map((spec) => ({ spec, origin: `${dataset.file} (conversation ${spec.name})`, sha256 })),
    datasets: [{ name: `${dataset.recorded} (conversation JSON Lines)`, sha256, path: dataset.recorded }],
    importStats: { ...stats },
    warnings: notices,
  };
}

/** Why an experiment cannot run here because its data file is absent, or undefined when it can. */
export function missingDataset(file: string, data: DataArgs): string | undefined {
  const dataset = experimentDataset(file);
  if (dataset === undefined) return undefined;
  if ("locomo" in dataset) {
    if (existsSync(data.locomo)) return undefined;
    return `the LoCoMo data file ${data.locomo} is absent (get locomo10.json from the public snap-research/LoCoMo repository and pass --locomo PATH)`;
  }
  return existsSync(dataset.file) ? undefined : `its data file ${dataset.path} is absent`;
}
