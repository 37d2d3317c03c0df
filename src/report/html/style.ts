/**
 * The page fits any window from a 390 px phone to a 1,280 px desktop: nothing is wider than the
 * window except inside a scroll box (.table-wrap, .chart), charts scale down to their box, and
 * long names break rather than push the page sideways. A narrow window gets smaller margins and
 * filters that scroll away, so they do not cover half the screen.
 */
export const STYLE = `
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --accent: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; overflow-wrap: anywhere; }
header.page { padding: 1.2rem 2rem; border-bottom: 1px solid var(--line); background: var(--soft); }
header.page h1 { margin: 0 0 .3rem; font-size: 1.5rem; }
nav ul { margin: .4rem 0 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; }
nav a, a { color: var(--accent); }
main { padding: 0 2rem 3rem; max-width: 1400px; }
section.findings { margin: 1.5rem 0 0; padding: .8rem 1.2rem; border: 1px solid #54aeff; border-left-width: 6px; border-radius: 6px; background: #ddf4ff; }
section.findings h2 { margin: 0 0 .4rem; font-size: 1.2rem; }
section.findings h3 { margin: .6rem 0 .2rem; font-size: 1rem; border: 0; }
section.findings ul { margin: 0; padding-left: 1.2rem; }
section.experiment { border-bottom: 1px solid var(--line); padding-bottom: 1.5rem; }
h2 { margin-top: 2rem; font-size: 1.35rem; }
h3 { margin-top: 1.6rem; font-size: 1.1rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
.description p { margin: .4rem 0; max-width: 70rem; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .15rem 1rem; margin: .5rem 0; }
dl.facts dt, .ask dl dt { color: var(--muted); }
.ask dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .15rem 1rem; margin: .5rem 0; }
dd { margin: 0; }
form.filters { position: sticky; top: 0; z-index: 3; display: flex; flex-wrap: wrap; align-items: center; gap: .4rem 1.2rem; padding: .5rem .8rem; margin: 1rem 0; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; }
form.filters select { font: inherit; max-width: min(20rem, 100%); }
form.filters label { max-width: 100%; }
.legend { color: var(--muted); font-size: .9rem; max-width: 70rem; }
.table-wrap { overflow-x: auto; max-width: 100%; border: 1px solid var(--line); border-radius: 4px; margin: .4rem 0; }
table { border-collapse: separate; border-spacing: 0; font-size: .88rem; }
th, td { border-right: 1px solid var(--line); border-bottom: 1px solid var(--line); padding: .3rem .5rem; vertical-align: top; text-align: left; background: #fff; }
thead th { background: var(--soft); white-space: nowrap; }
th[scope=row], thead th:first-child { position: sticky; left: 0; z-index: 1; white-space: nowrap; box-shadow: 1px 0 0 var(--line); }
thead th:first-child { z-index: 2; }
th[scope=row] { background: #fff; }
table.summary td { white-space: nowrap; text-align: right; }
table.ablations td { min-width: 20rem; }
.mean { font-weight: bold; }
.ci { color: var(--muted); font-size: .85em; }
.beats { color: #1a7f37; font-weight: bold; margin-left: .15em; }
.diff { font-size: .85em; }
.diff.better { color: #1a7f37; font-weight: bold; }
.diff.worse { color: #cf222e; font-weight: bold; }
.diff.same { color: var(--muted); }
.letter { display: inline-block; min-width: 1.2em; font-weight: bold; color: var(--accent); }
.tag { font-size: .75em; background: #ddf4ff; color: #0550ae; border-radius: 1em; padding: .05em .5em; white-space: nowrap; }
.count { color: var(--muted); font-size: .85em; margin-left: .4em; }
.charts { display: flex; flex-direction: column; gap: 1.2rem; }
figure.chart-figure { margin: 0; max-width: 100%; }
.chart { min-height: 60px; overflow-x: auto; max-width: 100%; }
.chart svg { display: block; max-width: 100%; height: auto; }
button.cell { all: unset; display: block; cursor: pointer; border-radius: 3px; }
button.cell:hover, button.cell[aria-pressed] { background: #ddf4ff; }
button.cell:focus-visible { outline: 2px solid var(--accent); }
.note { position: fixed; left: 0; right: 0; bottom: 0; z-index: 5; display: flex; gap: 1rem; align-items: flex-start; padding: .7rem 1rem; background: #fff; border-top: 2px solid var(--accent); box-shadow: 0 -2px 8px rgba(0, 0, 0, .12); font-size: .9rem; }
.note p { margin: 0; flex: 1; min-width: 0; }
.pager { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem 1rem; margin: .6rem 0; }
.pager button, .pager select { font: inherit; }
.asks .scenario { margin-top: 1rem; }
.asks .scenario h4 { margin: .2rem 0; }
details { margin: .3rem 0; }
details > summary { cursor: pointer; }
details.ask { border-top: 1px solid var(--line); padding: .3rem 0 .3rem .8rem; }
details.ask[open] { background: #fcfcfd; }
details.ask > summary code { font-weight: bold; }
table.drill td.ids, table.drill td.scores { min-width: 16rem; }
mark { background: #fff8c5; padding: 0 .15em; border-radius: 3px; }
del.stale { color: #cf222e; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .9em; }
.none { color: var(--muted); font-style: italic; }
.section { color: var(--muted); font-size: .85em; }
[hidden] { display: none !important; }
@media (max-width: 700px) {
  header.page { padding: 1rem; }
  main { padding: 0 .8rem 2rem; }
  form.filters { position: static; }
  table.ablations td { min-width: 12rem; }
  table.drill td.ids, table.drill td.scores { min-width: 12rem; }
  th[scope=row], thead th:first-child { white-space: normal; max-width: 9.5rem; overflow-wrap: break-word; }
}
`;
