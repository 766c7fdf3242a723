/* Tablescore: a row of the standings opened on a phone stays open when the live standings are redrawn. */
(function () {
  "use strict";
  if (window.tablescoreStandings) {
    return;
  }
  window.tablescoreStandings = true;

  var opened = [];

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "standings") {
      return;
    }
    opened = Array.prototype.map.call(target.querySelectorAll("li[data-player] > details[open]"), function (details) {
      return details.parentNode.dataset.player;
    });
  });

  document.addEventListener("htmx:afterSwap", function () {
    var standings = document.getElementById("standings");
    if (!standings) {
      return;
    }
    opened.forEach(function (player) {
      var details = standings.querySelector('li[data-player="' + player + '"] > details');
      if (details) {
        details.open = true;
      }
    });
    opened = [];
  });
})();
