/* Tablescore: after a manche's sheet is saved or refused, show the player what the answer says.
 *
 * A refused sheet scrolls its first mistake (a field marked invalid, or a list of messages) to the middle of the
 * screen; a saved or confirmed one scrolls its notice and result into view. Nothing is focused, so a phone's
 * keyboard does not open by itself. Without this script the page stays where it was.
 *
 * While the server does not answer, the live check cannot say how far each card is filled in: the progress line
 * ("Filled in: ...") is then counted here from what is typed, and says so, until the server's next answer draws
 * it again.
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

  var STATES = ["done", "partial", "empty", "problem"];

  /* How far a card is filled in from what is typed in its lines: "done", "partial", "empty", or "" when it has no
   * line to count (a game's own part). */
  function typedState(card) {
    var filled = {};
    card.querySelectorAll(".card-fields .line input, .card-fields .line select").forEach(function (control) {
      if (!control.name || control.type === "hidden") {
        return;
      }
      var has = control.type === "radio" || control.type === "checkbox" ? control.checked : control.value.trim() !== "";
      filled[control.name] = filled[control.name] || has;
    });
    var names = Object.keys(filled);
    var count = names.filter(function (name) {
      return filled[name];
    }).length;
    if (!names.length) {
      return "";
    }
    return count === names.length ? "done" : count ? "partial" : "empty";
  }

  function mark(link, state, words) {
    var holder = link.querySelector(".progress-mark");
    var icon = document.createElement("span");
    var said = document.createElement("span");
    icon.setAttribute("aria-hidden", "true");
    icon.textContent = state === "done" ? "\u2713" : "\u2026";
    said.className = "visually-hidden";
    said.textContent = state === "done" ? words.dataset.done : words.dataset.notYet;
    holder.textContent = "";
    holder.appendChild(icon);
    holder.appendChild(said);
  }

  /* The manche's progress line counted from what is typed, with the line saying it was counted on this phone; a card
   * the rules last marked to check keeps its mark. */
  function countTyped(form) {
    var line = form && form.querySelector(".progress");
    var note = line && line.querySelector(".progress-offline");
    if (!note) {
      return;
    }
    line.querySelectorAll("a[href^='#card-']").forEach(function (link) {
      var card = document.getElementById(link.getAttribute("href").slice(1));
      var state = card ? typedState(card) : "";
      if (!state || link.classList.contains("progress-problem")) {
        return;
      }
      STATES.forEach(function (old) {
        link.classList.remove("progress-" + old);
        card.classList.remove("progress-" + old);
      });
      link.classList.add("progress-" + state);
      card.classList.add("progress-" + state);
      mark(link, state, note);
    });
    note.hidden = false;
  }

  function liveCheck(elt) {
    return Boolean(elt && elt.matches && elt.matches("[data-live-check]"));
  }

  function unanswered(event) {
    if (liveCheck(event.detail.elt)) {
      countTyped(event.detail.elt.closest("form.sheet"));
    }
  }

  document.addEventListener("htmx:sendError", unanswered);
  document.addEventListener("htmx:timeout", unanswered);
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && (xhr.status === 502 || xhr.status === 504)) {
      unanswered(event);
    }
  });

  /* A live check the page holds back while the server does not answer (network.js) is never sent: count at once. */
  function typed(event) {
    var network = window.tablescoreNetwork;
    var form = event.target && event.target.closest && event.target.closest("form.sheet");
    if (form && event.target.closest("[data-live-check]") && network && network.down()) {
      countTyped(form);
    }
  }

  document.addEventListener("input", typed);
  document.addEventListener("change", typed);

  document.addEventListener("htmx:afterSettle", function (event) {
    var section = event.detail.elt;
    if (section && section.classList && section.classList.contains("manche")) {
      shown(section);
    }
  });
})();
