/* Tablescore: quiet while the server does not answer.
 *
 * A page's polls (live standings, the clock, the desk's board) and the live check of a sheet being typed wait
 * while the server does not answer, longer after each failure (3 s, 6 s, 12 s... at most 30 s), instead of
 * asking every few seconds; none of them waits more than 15 s for an answer, so requests never pile up. The
 * first answer, the browser coming back online or the page becoming visible again lets them go at once. While
 * the server does not answer, the page says so in one quiet line ([data-connection]), which says "not sent" when
 * what failed was a person's own request (a confirmation, a dispute), and keeps saying it, even once a poll or a
 * request sent before it is answered, until a request the person makes after it is answered; a sheet's save is
 * kept by outbox.js, whose bar then says it all (the quiet line steps aside, .has-outbox).
 *
 * Other scripts share the state: window.tablescoreNetwork.failed() and .answered() count their own requests,
 * and the document hears "tablescore:reachable" when the server answers again.
 */
(function () {
  "use strict";
  if (window.tablescoreNetwork) {
    return;
  }

  var FIRST_WAIT = 3000;
  var LONGEST_WAIT = 30000;
  var QUIET_TIMEOUT = 15000;
  var failures = 0;
  var quietUntil = 0;
  var sent = 0;
  var unsent = false;
  var unsentAfter = 0;

  /* How long to wait after ``count`` failures in a row: 3 s, 6 s, 12 s..., at most ``longest`` ms (30 s). */
  function waitAfter(count, longest) {
    var wait = Math.min(longest || LONGEST_WAIT, FIRST_WAIT * Math.pow(2, Math.max(0, count - 1)));
    return wait * (0.8 + 0.4 * Math.random());
  }

  function show() {
    var line = document.querySelector("[data-connection]");
    if (!line) {
      return;
    }
    line.hidden = failures === 0 && !unsent;
    line.classList.toggle("unsent", unsent);
    line.textContent = unsent ? line.dataset.unsent : line.dataset.waiting;
  }

  /* ``byPerson``: what failed was something the person asked for (confirm, dispute...), not a poll. */
  function failed(byPerson) {
    failures += 1;
    quietUntil = Date.now() + waitAfter(failures);
    if (byPerson === true) {
      unsent = true;
      unsentAfter = sent;
    }
    show();
  }

  /* ``ownRequest``: the number of the person's own request that was answered, if it was one; one sent after what
   * was not sent means nothing of theirs is left unsent. */
  function answered(ownRequest) {
    var wasDown = failures > 0;
    failures = 0;
    quietUntil = 0;
    if (ownRequest > unsentAfter) {
      unsent = false;
    }
    show();
    if (wasDown) {
      document.dispatchEvent(new CustomEvent("tablescore:reachable"));
    }
  }

  function letGo() {
    quietUntil = 0;
    document.dispatchEvent(new CustomEvent("tablescore:retry"));
  }

  /* A poll ("every 3s") or a live check of a sheet being typed ([data-live-check]): asked by the page, not by the
   * person. */
  function quiet(elt) {
    if (!elt || !elt.getAttribute) {
      return false;
    }
    var trigger = elt.getAttribute("hx-trigger") || "";
    return /(^|,)\s*every\s/.test(trigger) || elt.hasAttribute("data-live-check");
  }

  function unanswered(status) {
    return status === 0 || status === 502 || status === 504;
  }

  document.addEventListener("htmx:configRequest", function (event) {
    if (quiet(event.detail.elt) && !event.detail.timeout) {
      event.detail.timeout = QUIET_TIMEOUT;
    }
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (quiet(event.detail.elt) && Date.now() < quietUntil) {
      event.preventDefault();
    }
  });

  document.addEventListener("htmx:beforeSend", function (event) {
    sent += 1;
    event.detail.xhr.tablescoreNumber = sent;
  });

  /* A request the person made that nothing else keeps: a sheet's save is kept by outbox.js. */
  function own(elt) {
    return !quiet(elt) && !(elt && elt.matches && elt.matches("form.sheet"));
  }

  /* An aborted request (a newer one replaced it) says nothing about the server. */
  function requestFailed(event) {
    failed(own(event.detail.elt));
  }

  document.addEventListener("htmx:sendError", requestFailed);
  document.addEventListener("htmx:timeout", requestFailed);
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status === 0) {
      return;
    }
    if (unanswered(xhr.status)) {
      failed();
    } else {
      answered(own(event.detail.elt) ? xhr.tablescoreNumber : 0);
    }
  });

  window.addEventListener("online", letGo);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      letGo();
    }
  });

  window.tablescoreNetwork = {
    down: function () {
      return failures > 0 || navigator.onLine === false;
    },
    failed: failed,
    answered: answered,
    unanswered: unanswered,
    waitAfter: waitAfter,
  };
})();
