export const STYLE = `
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --accent: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; }
header.page { padding: 1.2rem 2rem; border-bottom: 1px solid var(--line); background: var(--soft); }
header.page h1 { margin: 0 0 .3rem; font-size: 1.5rem; }
nav ul { margin: .4rem 0 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; }
nav a, a { color: var(--accent); }
main { padding: 0 2rem 3rem; max-width: 1400px; }
section.experiment { border-bottom: 1px solid var(--line); padding-bottom: 1.5rem; }
h2 { margin-top: 2rem; font-size: 1.35rem; }
h3 { margin-top: 1.6rem; font-size: 1.1rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
h4 { margin: 1.1rem 0 .4rem; font-size: 1rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .5rem 0; }
dl.facts dt, .ask dl dt { color: var(--muted); }
.ask dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .5rem 0; }
dd { margin: 0; }
.legend { color: var(--muted); font-size: .9rem; max-width: 70rem; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: .88rem; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; vertical-align: top; text-align: left; }
thead th { background: var(--soft); white-space: nowrap; }
table.summary td { white-space: nowrap; text-align: right; }
table.summary th[scope=row] { white-space: nowrap; }
.mean { font-weight: bold; }
.ci { color: var(--muted); font-size: .85em; }
.beats { color: #1a7f37; font-weight: bold; margin-left: .15em; }
.diff { font-size: .85em; }
.diff.better { color: #1a7f37; font-weight: bold; }
.diff.worse { color: #cf222e; font-weight: bold; }
.diff.same { color: var(--muted); }
.letter { display: inline-block; min-width: 1.2em; font-weight: bold; color: var(--accent); }
.tag { font-size: .75em; background: #ddf4ff; color: #0550ae; border-radius: 1em; padding: .05em .5em; white-space: nowrap; }
.charts { display: flex; flex-direction: column; gap: 1.2rem; }
figure.chart-figure { margin: 0; }
figure.chart-figure figcaption { font-weight: bold; margin-bottom: .3rem; }
.chart { min-height: 60px; overflow-x: auto; }
details { margin: .3rem 0; }
details > summary { cursor: pointer; }
details.ask { border: 1px solid var(--line); border-radius: 6px; padding: .35rem .6rem; }
details.ask[open] { background: #fcfcfd; }
details.ask > summary code { font-weight: bold; }
table.drill td.ids, table.drill td.scores { min-width: 16rem; }
mark { background: #fff8c5; padding: 0 .15em; border-radius: 3px; }
del.stale { color: #cf222e; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .9em; }
.none { color: var(--muted); font-style: italic; }
.section { color: var(--muted); font-size: .85em; }
`;
