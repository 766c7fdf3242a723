/* Tablescore: the projector shows as many rows of standings as its screen holds, none hidden below the edge.
 *
 * The server sends a page of a default number of rows (data-rows); this script measures how many rows fit between
 * the top of the table's body and the foot line, and asks for pages of that many from the first page on. It asks
 * again whenever the window changes size or something above the table (the round clock) appears or goes.
 * Without this script the default page fits a screen whose clock is shown.
 */
(function () {
  "use strict";
  if (window.tablescoreProjector) {
    return;
  }
  window.tablescoreProjector = true;

  var asking = false;
  var asked = 0;
  /* The most rows the server gives a page. */
  var MOST = 60;

  function rowsThatFit(section) {
    var body = section.querySelector("tbody");
    var row = body && body.querySelector("tr");
    var foot = section.querySelector(".projector-foot");
    if (!row) {
      return 0;
    }
    var rowHeight = row.getBoundingClientRect().height;
    var footHeight = foot ? foot.getBoundingClientRect().height : 0;
    var room = window.innerHeight - body.getBoundingClientRect().top - footHeight - 0.02 * window.innerHeight;
    return Math.min(MOST, Math.max(3, Math.floor(room / rowHeight)));
  }

  function fit() {
    var section = document.getElementById("projector-page");
    if (!section || asking || !window.htmx) {
      return;
    }
    var rows = rowsThatFit(section);
    if (!rows || rows === Number(section.dataset.rows) || rows === asked) {
      return;
    }
    asking = true;
    asked = rows;
    var url = section.dataset.firstPage + "&rows=" + rows;
    window.htmx.ajax("GET", url, { target: section, swap: "outerHTML" }).then(
      function () { asking = false; },
      function () { asking = false; }
    );
  }

  var waiting = null;
  function fitSoon() {
    window.clearTimeout(waiting);
    waiting = window.setTimeout(fit, 150);
  }

  document.addEventListener("DOMContentLoaded", fit);
  document.addEventListener("htmx:afterSettle", fitSoon);
  window.addEventListener("resize", fitSoon);
})();
