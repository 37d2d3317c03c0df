import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The one family every chart spec names, so that layout, SVG and PNG agree on the font. */
export const FONT_FAMILY = "DejaVu Sans";

/**
 * The DejaVu files come from an npm package rather than the machine, so a PNG looks the same on
 * every machine and CI and never depends on which system fonts happen to be installed.
 */
export function fontFiles(): string[] {
  return [
    require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
    require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"),
  ];
}
