import { zlibSync } from "fflate";

/**
 * Data the page's script reads, packed: JSON, zlib-deflated, in base64. A LoCoMo experiment's
 * asks are 161,000 (ask, ablation, seed) rows of repetitive JSON, about 3 MB each; deflated they
 * are a tenth of that, and the browser unpacks them with its own DecompressionStream("deflate").
 * fflate rather than node:zlib: Node's zlib may pick a different match on another CPU, and the
 * report must be the same bytes wherever it is rendered. Base64 holds no character that could end
 * a <script> element.
 */
export function packJson(value: unknown): string {
  return Buffer.from(zlibSync(new TextEncoder().encode(JSON.stringify(value)), { level: 9 })).toString("base64");
}
