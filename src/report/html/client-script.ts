/**
 * Runs in the page. Three jobs:
 * - draws each embedded Vega spec with Vega's own View (SVG renderer, hover on, Vega's built-in
 *   tooltip); a chart that fails says so in place and logs the error, so it is never silently blank;
 * - builds an ask's drill-down table from the experiment's JSON island when the ask is opened,
 *   with DOM text nodes only, so no string from the results can become markup;
 * - applies the filters: rows, tables and asks of other ablations, scenarios and categories are
 *   hidden; the baseline stays in view for comparison.
 */
export const CLIENT_SCRIPT = `(function () {
  "use strict";
  function draw(container) {
    var source = document.getElementById(container.getAttribute("data-spec"));
    var spec = JSON.parse(source.textContent);
    var view = new vega.View(vega.parse(spec), { renderer: "svg", container: container, hover: true });
    return view.runAsync().then(function () {
      container.setAttribute("data-rendered", "true");
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll(".chart[data-spec]"), function (container) {
    draw(container).catch(function (error) {
      container.textContent = "This chart could not be drawn: " + error.message;
      container.setAttribute("data-rendered", "error");
      console.error(error);
    });
  });

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function none(text) { return el("span", "none", text); }
  function idList(ids, gold, stale) {
    var span = el("span");
    if (ids.length === 0) { span.appendChild(none("none")); return span; }
    ids.forEach(function (id, i) {
      if (i > 0) span.appendChild(document.createTextNode(" "));
      var node;
      if (stale.indexOf(id) >= 0) { node = el("del", "stale", id); node.title = "stale at this ask"; }
      else if (gold.indexOf(id) >= 0) { node = el("mark", "", id); node.title = "gold"; }
      else node = el("code", "", id);
      span.appendChild(node);
    });
    return span;
  }
  function lines(parts) {
    var cell = el("td");
    parts.forEach(function (part, i) {
      if (i > 0) cell.appendChild(el("br"));
      cell.appendChild(part);
    });
    return cell;
  }
  function fixed(x) { return x.toFixed(3); }
  function breakdown(g) {
    var span = el("span");
    span.appendChild(el("code", "", g[0]));
    span.appendChild(document.createTextNode(" "));
    span.appendChild(el("span", "section", g[1] === null ? "not a candidate" : g[1]));
    if (g.length < 6) return span;
    span.appendChild(document.createTextNode(" rel " + fixed(g[2]) + " · rec " + fixed(g[3]) + " · imp " + fixed(g[4]) + " → "));
    span.appendChild(el("b", "", fixed(g[5])));
    return span;
  }
  function drillTable(data, ask) {
    var table = el("table", "drill");
    var head = table.createTHead().insertRow();
    ["ablation", "seed", "kept (block order)", "gold ranks", "gold score breakdown", "coverage", "leaked"].forEach(function (name) {
      var th = el("th", "", name); th.scope = "col"; head.appendChild(th);
    });
    var body = table.createTBody();
    data.ablations.forEach(function (ablation, a) {
      data.seeds.forEach(function (seed, s) {
        var row = ask.rows[a * data.seeds.length + s];
        var tr = body.insertRow();
        tr.setAttribute("data-ablation", ablation);
        if (ablation === data.baseline) tr.setAttribute("data-baseline", "");
        var th = el("th", "", ablation); th.scope = "row"; tr.appendChild(th);
        tr.appendChild(el("td", "", String(seed)));
        if (row === null) { var missing = el("td", "none", "not run"); missing.colSpan = 5; tr.appendChild(missing); return; }
        var kept = row[0] === 0 ? none("not recorded") : idList(row[0], ask.expect, row[4]);
        var keptCell = lines([kept]); keptCell.className = "ids"; tr.appendChild(keptCell);
        tr.appendChild(lines(ask.expect.map(function (id, i) {
          var span = el("span"); span.appendChild(el("code", "", id));
          span.appendChild(document.createTextNode(" " + (row[1][i] == null ? "–" : "#" + row[1][i])));
          return span;
        })));
        var scores = row[2] === 0 ? lines([none("not recorded")]) : lines(row[2].map(breakdown));
        scores.className = "scores"; tr.appendChild(scores);
        tr.appendChild(el("td", "", row[3] === null ? "–" : row[3].toFixed(2)));
        tr.appendChild(lines([row[4].length > 0 ? idList(row[4], ask.expect, row[4]) : none("none")]));
      });
    });
    return table;
  }
  function facts(ask) {
    var dl = el("dl");
    [["expected", idList(ask.expect, ask.expect, [])], ["required", idList(ask.required, [], [])], ["stale", idList(ask.stale, [], ask.stale)]].forEach(function (pair) {
      dl.appendChild(el("dt", "", pair[0]));
      var dd = el("dd"); dd.appendChild(pair[1]); dl.appendChild(dd);
    });
    return dl;
  }

  Array.prototype.forEach.call(document.querySelectorAll("section.experiment"), function (section) {
    var asks = section.querySelector(".asks[data-asks]");
    var data = asks ? JSON.parse(document.getElementById(asks.getAttribute("data-asks")).textContent) : null;
    var form = section.querySelector("form.filters");
    function value(name) {
      var select = form && form.querySelector('select[data-filter="' + name + '"]');
      return select ? select.value : "";
    }
    function apply() {
      var ablation = value("ablation"), scenario = value("scenario"), category = value("category");
      Array.prototype.forEach.call(section.querySelectorAll("[data-ablation]"), function (node) {
        node.hidden = ablation !== "" && !node.hasAttribute("data-baseline") && node.getAttribute("data-ablation") !== ablation;
      });
      Array.prototype.forEach.call(section.querySelectorAll("details.group[data-category]"), function (node) {
        node.hidden = category !== "" && node.getAttribute("data-category") !== category;
        if (category !== "" && !node.hidden) node.open = true;
      });
      Array.prototype.forEach.call(section.querySelectorAll("details.scenario"), function (group) {
        var shown = 0;
        Array.prototype.forEach.call(group.querySelectorAll("details.ask"), function (node) {
          node.hidden = category !== "" && node.getAttribute("data-category") !== category;
          if (!node.hidden) shown++;
        });
        group.hidden = (scenario !== "" && group.getAttribute("data-scenario") !== scenario) || shown === 0;
        if (scenario !== "" && !group.hidden) group.open = true;
      });
    }
    if (form) {
      form.addEventListener("change", apply);
      form.addEventListener("submit", function (event) { event.preventDefault(); });
    }
    if (data) {
      asks.addEventListener("toggle", function (event) {
        var details = event.target;
        if (!details.classList || !details.classList.contains("ask") || !details.open || details.hasAttribute("data-drawn")) return;
        var at = details.getAttribute("data-ask").split(":");
        var ask = data.scenarios[Number(at[0])].asks[Number(at[1])];
        details.appendChild(facts(ask));
        var wrap = el("div", "table-wrap");
        wrap.appendChild(drillTable(data, ask));
        details.appendChild(wrap);
        details.setAttribute("data-drawn", "true");
        apply();
      }, true);
    }
  });
})();`;
