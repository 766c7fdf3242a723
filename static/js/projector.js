/* Tablescore: the projector shows as many rows of standings as its screen holds, none hidden below the edge.
 *
 * The server sends a page of a default number of rows (data-rows); this script measures how many rows fit between
 * the top of the table's body and the foot line, and asks for pages of that many from the first page on. It measures
 * again after every page (a longer name, the round clock appearing) and whenever the window changes size; after a
 * page whose last rows did not fit it never asks for more rows again until the window changes.
 * Without this script the default page fits a screen whose clock is shown.
 */
(function () {
  "use strict";
  if (window.tablescoreProjector) {
    return;
  }
  window.tablescoreProjector = true;

  /* The fewest and most rows the server gives a page. */
  var FEWEST = 3;
  var MOST = 60;
  var asking = false;
  var asked = 0;
  var ceiling = MOST;

  function rowsThatFit(section) {
    var body = section.querySelector("tbody");
    var rows = body ? body.querySelectorAll("tr") : [];
    if (!rows.length) {
      return 0;
    }
    var foot = section.querySelector(".projector-foot");
    var top = body.getBoundingClientRect().top;
    var bottom = window.innerHeight - (foot ? foot.getBoundingClientRect().height : 0) - 0.02 * window.innerHeight;
    var last = rows[rows.length - 1].getBoundingClientRect().bottom;
    var fitting = Array.prototype.filter.call(rows, function (row) {
      return row.getBoundingClientRect().bottom <= bottom;
    }).length;
    var wanted = Math.floor((bottom - top) / ((last - top) / rows.length));
    if (fitting < rows.length) {
      ceiling = Math.max(FEWEST, fitting);
    }
    return Math.min(MOST, ceiling, Math.max(FEWEST, wanted));
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
  window.addEventListener("resize", function () {
    ceiling = MOST;
    asked = 0;
    fitSoon();
  });
})();
