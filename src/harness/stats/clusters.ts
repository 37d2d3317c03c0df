/**
 * The structure of repeated, clustered measurements. A value is one (ask, seed) measurement; its
 * item is the ask it measures (the seeds of one ask are replicates, not new samples) and its
 * cluster is what the ask shares with other asks (a scenario, a benchmark conversation). Values
 * of one item are averaged first; inference then treats the clusters as the independent units.
 */

/** A label per value: its item or its cluster. Numbers and strings both work as labels. */
export type Labels = readonly (string | number)[];

export interface Structure {
  /** One label per value: values with the same label measure one item and are averaged first. */
  items?: Labels;
  /** One label per value: the cluster the value's item belongs to. */
  clusters?: Labels;
}

/**
 * Values reduced to items and clusters. `itemMeans[i]` is the mean of item i's values and
 * `itemCluster[i]` its cluster; `totals[c]` sums the item means of cluster c and `sizes[c]`
 * counts its items, so the item-weighted mean is Σ totals / Σ sizes.
 */
export interface ClusteredValues {
  itemMeans: Float64Array;
  itemCluster: Int32Array;
  totals: Float64Array;
  sizes: Float64Array;
  nValues: number;
  nItems: number;
  nClusters: number;
  /**
   * What the clusters are: the declared clusters, or the items themselves when no clusters were
   * declared or all items fall in one cluster (one cluster leaves no variation between clusters
   * to measure; see `reduceToClusters`).
   */
  clusteredBy: "cluster" | "item";
  /**
   * The label of each cluster, in the order of `totals`: the cluster's label, or the item's when
   * the items are the clusters. Comparisons over the same asks can be aligned on it.
   */
  clusterLabels: (string | number)[];
}

export function hasStructure(structure: Structure): boolean {
  return structure.items !== undefined || structure.clusters !== undefined;
}

/**
 * Which item and cluster each of `n` values belongs to: the label work of `reduceToClusters`,
 * done once for callers that reduce many value arrays over the same labels (every pair of a
 * lettering table, a comparison's differences and both its sides).
 */
export interface Grouping {
  /** The item of each value. */
  itemOf: Int32Array;
  /** The number of values of each item. */
  itemCounts: Float64Array;
  itemCluster: Int32Array;
  nValues: number;
  nItems: number;
  nClusters: number;
  clusteredBy: "cluster" | "item";
  clusterLabels: (string | number)[];
}

/**
 * Groups `values` by item (mean of each item's values), then items by cluster. Items and clusters
 * are numbered in order of first appearance, so the result does not depend on how labels sort.
 *
 * Without `items`, each value is its own item; without `clusters`, each item is its own cluster.
 * When every item falls in a single cluster, clustered inference is impossible (a variance
 * between clusters needs two of them), so the items become the clusters and `clusteredBy` says so.
 */
export function reduceToClusters(fn: string, values: readonly number[], structure: Structure): ClusteredValues {
  return reduceGrouped(values, groupLabels(fn, values.length, structure));
}

/** The grouping of `n` values by `structure`'s labels (see `reduceToClusters`). */
export function groupLabels(fn: string, n: number, structure: Structure): Grouping {
  checkLength(fn, "items", structure.items, n);
  checkLength(fn, "clusters", structure.clusters, n);

  const itemIndex = new Map<string | number, number>();
  const itemOf = new Int32Array(n);
  const counts: number[] = [];
  const itemClusterLabel: (string | number)[] = [];
  const itemLabels: (string | number)[] = [];
  for (let j = 0; j < n; j++) {
    const label = structure.items === undefined ? j : structure.items[j];
    let i = itemIndex.get(label);
    const cluster = structure.clusters === undefined ? label : structure.clusters[j];
    if (i === undefined) {
      i = counts.length;
      itemIndex.set(label, i);
      counts.push(0);
      itemClusterLabel.push(cluster);
      itemLabels.push(label);
    } else if (itemClusterLabel[i] !== cluster) {
      throw new RangeError(
        `${fn}: item ${JSON.stringify(label)} is labelled with two clusters, ` +
          `${JSON.stringify(itemClusterLabel[i])} and ${JSON.stringify(cluster)}; an item belongs to one cluster`,
      );
    }
    itemOf[j] = i;
    counts[i] += 1;
  }

  const nItems = counts.length;
  const clusterIndex = new Map<string | number, number>();
  const labelledCluster = new Int32Array(nItems);
  for (let i = 0; i < nItems; i++) {
    let c = clusterIndex.get(itemClusterLabel[i]);
    if (c === undefined) {
      c = clusterIndex.size;
      clusterIndex.set(itemClusterLabel[i], c);
    }
    labelledCluster[i] = c;
  }

  const declared = structure.clusters !== undefined;
  const oneCluster = clusterIndex.size < 2 && nItems >= 2;
  return {
    itemOf,
    itemCounts: Float64Array.from(counts),
    itemCluster: oneCluster ? Int32Array.from({ length: nItems }, (_, i) => i) : labelledCluster,
    nValues: n,
    nItems,
    nClusters: oneCluster ? nItems : clusterIndex.size,
    clusteredBy: declared && !oneCluster ? "cluster" : "item",
    clusterLabels: oneCluster ? itemLabels : [...clusterIndex.keys()],
  };
}

/** `values` reduced to item means and cluster totals by a grouping of as many values. */
export function reduceGrouped(values: readonly number[], grouping: Grouping): ClusteredValues {
  const { itemOf, itemCounts, itemCluster, nValues, nItems, nClusters, clusteredBy, clusterLabels } = grouping;
  if (values.length !== nValues) throw new RangeError(`reduceGrouped: the grouping is of ${nValues} values, got ${values.length}`);
  const itemMeans = new Float64Array(nItems);
  for (let j = 0; j < nValues; j++) itemMeans[itemOf[j]] += values[j];
  for (let i = 0; i < nItems; i++) itemMeans[i] /= itemCounts[i];
  const totals = new Float64Array(nClusters);
  const sizes = new Float64Array(nClusters);
  for (let i = 0; i < nItems; i++) {
    const c = itemCluster[i];
    totals[c] += itemMeans[i];
    sizes[c] += 1;
  }
  return { itemMeans, itemCluster, totals, sizes, nValues, nItems, nClusters, clusteredBy, clusterLabels };
}

/** The mean over items, each item counting once whatever its number of values; 0 without items. */
export function itemWeightedMean(data: ClusteredValues): number {
  if (data.nItems === 0) return 0;
  let sum = 0;
  for (const total of data.totals) sum += total;
  return sum / data.nItems;
}

function checkLength(fn: string, name: string, labels: Labels | undefined, n: number): void {
  if (labels !== undefined && labels.length !== n) {
    throw new RangeError(`${fn}: ${name} must have one label per value (${n}), got ${labels.length}`);
  }
}
