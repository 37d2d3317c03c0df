/**
 * Runs in the page: compiles each embedded Vega-Lite spec with the inlined vega-lite bundle and
 * draws it with Vega's own View (SVG renderer, hover on, Vega's built-in tooltip). A chart that
 * fails says so in place and logs the error, so a broken chart is never silently blank.
 */
export const CLIENT_SCRIPT = `(function () {
  "use strict";
  function draw(container) {
    var source = document.getElementById(container.getAttribute("data-spec"));
    var spec = JSON.parse(source.textContent);
    var compiled = vegaLite.compile(spec).spec;
    var view = new vega.View(vega.parse(compiled), { renderer: "svg", container: container, hover: true });
    return view.runAsync().then(function () {
      container.setAttribute("data-rendered", "true");
    });
  }
  var charts = document.querySelectorAll(".chart[data-spec]");
  Array.prototype.forEach.call(charts, function (container) {
    draw(container).catch(function (error) {
      container.textContent = "This chart could not be drawn: " + error.message;
      container.setAttribute("data-rendered", "error");
      console.error(error);
    });
  });
})();`;
