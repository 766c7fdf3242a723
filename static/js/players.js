/* Tablescore: the players page at a desk. The roll call: arrows pick among the players the typed text matches, Enter
   checks the one picked (or the only one) in, then the box is cleared for the next arrival; with several and none
   picked, the list stays to pick from. Ticking every player shown at once for the actions on the ticked players. The
   toolbar's menus close on a click elsewhere or Escape, the one for adding a player puts the cursor in its first
   field. Choosing a filter shows the list it filters (no need for the Filter button, hidden at a desk). */
(function () {
  "use strict";
  if (window.tablescorePlayers) {
    return;
  }
  window.tablescorePlayers = true;

  function box() {
    return document.getElementById("roll-call-text");
  }

  function pick() {
    return document.getElementById("roll-call-pick");
  }

  function choices() {
    return Array.prototype.slice.call(document.querySelectorAll("#roll-call-matches button[name=player]"));
  }

  function highlight(index) {
    var buttons = choices();
    buttons.forEach(function (button, at) {
      var on = at === index;
      button.classList.toggle("highlighted", on);
      if (on) {
        button.setAttribute("aria-current", "true");
      } else {
        button.removeAttribute("aria-current");
      }
    });
    pick().value = index >= 0 && buttons[index] ? buttons[index].value : "";
  }

  document.addEventListener("keydown", function (event) {
    if (event.target !== box() || (event.key !== "ArrowDown" && event.key !== "ArrowUp" && event.key !== "Escape")) {
      return;
    }
    var buttons = choices();
    if (event.key === "Escape") {
      highlight(-1);
      return;
    }
    if (!buttons.length) {
      return;
    }
    event.preventDefault();
    var current = buttons.findIndex(function (button) {
      return button.classList.contains("highlighted");
    });
    var step = event.key === "ArrowDown" ? 1 : -1;
    highlight((current + step + buttons.length) % buttons.length);
  });

  document.addEventListener("input", function (event) {
    if (event.target === box()) {
      highlight(-1);
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "roll-call-matches" || !event.detail.xhr.responseURL) {
      return;
    }
    var asked = new URL(event.detail.xhr.responseURL).searchParams.get("name") || "";
    if (asked !== box().value) {
      event.detail.shouldSwap = false;
    }
  });

  document.addEventListener("rollCallDone", function () {
    box().value = "";
    pick().value = "";
    box().focus();
  });

  function menus() {
    return Array.prototype.slice.call(document.querySelectorAll("details.tool-menu[open]"));
  }

  document.addEventListener("click", function (event) {
    menus().forEach(function (menu) {
      if (!menu.contains(event.target)) {
        menu.open = false;
      }
    });
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") {
      return;
    }
    menus().forEach(function (menu) {
      if (menu.contains(document.activeElement)) {
        menu.open = false;
        menu.querySelector("summary").focus();
      }
    });
  });

  document.addEventListener(
    "toggle",
    function (event) {
      var menu = event.target;
      if (!menu.matches || !menu.matches("details.add-menu") || !menu.open) {
        return;
      }
      var field = menu.querySelector("input:not([type=hidden])");
      if (field) {
        field.focus();
      }
    },
    true
  );

  document.addEventListener("change", function (event) {
    if (event.target.id !== "pick-all") {
      return;
    }
    document.querySelectorAll("input[form=players-bulk][name=player]").forEach(function (input) {
      input.checked = event.target.checked;
    });
  });

  document.addEventListener("change", function (event) {
    var search = event.target.closest && event.target.closest("form.player-search");
    if (search && event.target.tagName === "SELECT") {
      search.requestSubmit();
    }
  });

  function ready() {
    var all = document.getElementById("pick-all");
    if (all) {
      all.hidden = false;
    }
    var search = document.querySelector("form.player-search");
    if (search) {
      search.classList.add("live");
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
