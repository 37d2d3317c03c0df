/**
 * Runs in the page. Its jobs:
 * - draws each embedded Vega spec with Vega's own View (SVG renderer, hover on, Vega's built-in
 *   tooltip), scaled down to the width of its box; a chart that fails says so in place and logs
 *   the error, so it is never silently blank;
 * - unpacks each experiment's data (see packed-data.ts) with the browser's DecompressionStream;
 * - lists the asks that pass the filters a page at a time, grouped by scenario, and builds an
 *   ask's drill-down table when it is opened, with DOM text nodes only, so no string from the
 *   results can become markup;
 * - applies the filters: rows and tables of other ablations and categories are hidden, the
 *   baseline stays in view for comparison, and the ask list holds every ask that passes;
 * - shows a summary cell's note (p-values, Holm family, wins/ties/losses) when the cell is tapped
 *   or clicked, in a panel at the foot of the window.
 */
export const CLIENT_SCRIPT = `(function () {
  "use strict";
  function drawChart(container, spec) {
    var view = new vega.View(vega.parse(spec), { renderer: "svg", container: container, hover: true });
    return view.runAsync().then(function () {
      // A viewBox lets the style sheet scale the chart down to a narrow window, marks and all.
      var svg = container.querySelector("svg");
      if (svg && !svg.hasAttribute("viewBox")) svg.setAttribute("viewBox", "0 0 " + svg.getAttribute("width") + " " + svg.getAttribute("height"));
      container.setAttribute("data-rendered", "true");
    }).catch(function (error) {
      container.textContent = "This chart could not be drawn: " + error.message;
      container.setAttribute("data-rendered", "error");
      console.error(error);
    });
  }

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

  function unpack(id) {
    var text = document.getElementById(id).textContent;
    var bytes = Uint8Array.from(atob(text), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Response(stream).text().then(JSON.parse);
  }

  var PAGE_SIZE = 50;
  var note = document.querySelector("body > .note");
  function showNote(text, from) {
    note.querySelector("p").textContent = text;
    note.hidden = false;
    Array.prototype.forEach.call(document.querySelectorAll("button.cell[aria-pressed]"), function (b) { b.removeAttribute("aria-pressed"); });
    from.setAttribute("aria-pressed", "true");
  }
  function hideNote() {
    note.hidden = true;
    Array.prototype.forEach.call(document.querySelectorAll("button.cell[aria-pressed]"), function (b) { b.removeAttribute("aria-pressed"); });
  }
  note.querySelector("[data-close]").addEventListener("click", hideNote);
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") hideNote(); });

  Array.prototype.forEach.call(document.querySelectorAll("section.experiment"), function (section) {
    var loaded = unpack(section.getAttribute("data-data"));
    var form = section.querySelector("form.filters");
    var asks = section.querySelector(".asks");
    var list = asks.querySelector(".ask-list");
    var pager = asks.querySelector(".pager");
    var pageSelect = pager.querySelector("select[data-page]");
    var range = pager.querySelector(".range");
    var data = null, shown = [], page = 0;
    function value(name) {
      var select = form && form.querySelector('select[data-filter="' + name + '"]');
      return select ? select.value : "";
    }
    function hideAblations() {
      var ablation = value("ablation");
      Array.prototype.forEach.call(section.querySelectorAll("[data-ablation]"), function (node) {
        node.hidden = ablation !== "" && !node.hasAttribute("data-baseline") && node.getAttribute("data-ablation") !== ablation;
      });
    }
    function hideCategories() {
      var category = value("category");
      Array.prototype.forEach.call(section.querySelectorAll("details.group[data-category]"), function (node) {
        node.hidden = category !== "" && node.getAttribute("data-category") !== category;
        if (category !== "" && !node.hidden) node.open = true;
      });
    }
    function select() {
      var scenario = value("scenario"), category = value("category");
      shown = [];
      data.asks.scenarios.forEach(function (s, si) {
        if (scenario !== "" && s.name !== scenario) return;
        s.asks.forEach(function (ask, ai) {
          if (category === "" || ask.category === category) shown.push([si, ai]);
        });
      });
    }
    function scenarioHead(si, count) {
      var s = data.asks.scenarios[si];
      var head = el("div", "scenario");
      head.setAttribute("data-scenario", s.name);
      var title = el("h4");
      title.appendChild(document.createTextNode("Scenario "));
      title.appendChild(el("code", "", s.name));
      title.appendChild(el("span", "count", count + " ask" + (count === 1 ? "" : "s") + (count < s.asks.length ? " of " + s.asks.length : "")));
      head.appendChild(title);
      var about = asks.querySelector('template[data-about="' + si + '"]');
      if (about) {
        var details = el("details", "about");
        details.appendChild(el("summary", "", "About this scenario"));
        var body = el("div", "description");
        body.appendChild(about.content.cloneNode(true));
        details.appendChild(body);
        head.appendChild(details);
      }
      return head;
    }
    function askItem(si, ai) {
      var ask = data.asks.scenarios[si].asks[ai];
      var details = el("details", "ask");
      details.setAttribute("data-ask", si + ":" + ai);
      details.setAttribute("data-category", ask.category || "");
      var summary = el("summary");
      summary.appendChild(el("code", "", ask.id));
      summary.appendChild(document.createTextNode(" " + ask.query));
      if (ask.category) { summary.appendChild(document.createTextNode(" ")); summary.appendChild(el("span", "tag", ask.category)); }
      details.appendChild(summary);
      return details;
    }
    function draw() {
      var pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
      page = Math.min(Math.max(page, 0), pages - 1);
      list.textContent = "";
      var counts = {};
      shown.forEach(function (at) { counts[at[0]] = (counts[at[0]] || 0) + 1; });
      var last = -1;
      shown.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE).forEach(function (at) {
        if (at[0] !== last) { list.appendChild(scenarioHead(at[0], counts[at[0]])); last = at[0]; }
        list.appendChild(askItem(at[0], at[1]));
      });
      if (shown.length === 0) list.appendChild(el("p", "none", "No ask passes these filters."));
      pageSelect.textContent = "";
      for (var i = 0; i < pages; i++) {
        var option = el("option", "", String(i + 1));
        option.value = String(i);
        pageSelect.appendChild(option);
      }
      pageSelect.value = String(page);
      range.textContent = shown.length === 0 ? "0 asks" : "Asks " + (page * PAGE_SIZE + 1) + "–" + Math.min(shown.length, (page + 1) * PAGE_SIZE) + " of " + shown.length;
      pager.querySelector('[data-step="-1"]').disabled = page === 0;
      pager.querySelector('[data-step="1"]').disabled = page >= pages - 1;
      asks.setAttribute("data-page", String(page));
    }
    var chosen = null;
    function apply() {
      hideAblations();
      hideCategories();
      // Only a change of scenario or category changes the list; an ablation leaves open asks open.
      var now = JSON.stringify([value("scenario"), value("category")]);
      if (data && now !== chosen) { chosen = now; select(); page = 0; draw(); }
    }
    if (form) {
      form.addEventListener("change", apply);
      form.addEventListener("submit", function (event) { event.preventDefault(); });
    }
    pager.addEventListener("click", function (event) {
      var step = event.target.closest && event.target.closest("[data-step]");
      if (!step || !data) return;
      page += Number(step.getAttribute("data-step"));
      draw();
    });
    pageSelect.addEventListener("change", function () { page = Number(pageSelect.value); draw(); });
    list.addEventListener("toggle", function (event) {
      var details = event.target;
      if (!details.classList || !details.classList.contains("ask") || !details.open || details.hasAttribute("data-drawn")) return;
      var at = details.getAttribute("data-ask").split(":");
      var ask = data.asks.scenarios[Number(at[0])].asks[Number(at[1])];
      details.appendChild(facts(ask));
      var wrap = el("div", "table-wrap");
      wrap.appendChild(drillTable(data.asks, ask));
      details.appendChild(wrap);
      details.setAttribute("data-drawn", "true");
      hideAblations();
    }, true);
    section.addEventListener("toggle", function (event) {
      var details = event.target;
      if (!details.classList || !details.classList.contains("group") || !details.open || details.hasAttribute("data-drawn")) return;
      details.setAttribute("data-drawn", "true");
      loaded.then(function (d) {
        // The table's markup was escaped when the report was written, exactly as the visible tables were.
        details.insertAdjacentHTML("beforeend", d.groups[Number(details.getAttribute("data-group"))]);
        hideAblations();
      });
    }, true);
    section.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("button.cell");
      if (!button) return;
      loaded.then(function (d) { showNote(d.notes[Number(button.getAttribute("data-note"))], button); });
    });
    loaded.then(function (d) {
      Array.prototype.forEach.call(section.querySelectorAll(".chart[data-spec]"), function (container) {
        drawChart(container, d.charts[Number(container.getAttribute("data-spec"))]);
      });
      data = d;
      apply();
      asks.setAttribute("data-ready", "true");
    }).catch(function (error) {
      range.textContent = "This report's data could not be unpacked: " + error.message;
      Array.prototype.forEach.call(section.querySelectorAll(".chart"), function (container) {
        container.textContent = "This chart could not be drawn: " + error.message;
        container.setAttribute("data-rendered", "error");
      });
      asks.setAttribute("data-ready", "error");
      console.error(error);
    });
  });
})();`;
