/* Tablescore: after a manche's sheet is saved or refused, show the player what the answer says.
 *
 * A refused sheet scrolls its first mistake (a field marked invalid, or a list of messages) to the middle of the
 * screen; a saved or confirmed one scrolls its notice and result into view. Nothing is focused, so a phone's
 * keyboard does not open by itself. Without this script the page stays where it was.
 */
(function () {
  "use strict";
  if (window.tablescoreEntry) {
    return;
  }
  window.tablescoreEntry = true;

  function shown(section) {
    if (section.querySelector(".save-refused")) {
      var mistake = section.querySelector("[aria-invalid='true'], .errorlist, .player-card .error");
      if (mistake) {
        mistake.scrollIntoView({ block: "center" });
      }
      return;
    }
    var notice = section.querySelector(".notice");
    if (notice && notice.getBoundingClientRect().top < 0) {
      notice.scrollIntoView({ block: "start" });
    }
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var section = event.detail.elt;
    if (section && section.classList && section.classList.contains("manche")) {
      shown(section);
    }
  });
})();
