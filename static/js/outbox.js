/* Tablescore: a phone keeps every sheet it was given until the server has answered for it.
 *
 * Each save of a sheet (form.sheet) is written to this phone's storage before it is sent, with its own key, the
 * version it was based on and the moment it was saved; it leaves storage once the server has answered for it:
 * saved, refused by the rules, or changed meanwhile, each shown at its manche as any answer is. A save that gets
 * no answer (no network, the laptop gone, a timeout) stays, and the page says so ([data-outbox]). It is sent again
 * by itself, waiting longer after each failure, at once when the browser is back online, when the page becomes
 * visible again or when the server answers anything, and by "Send now". A save sent twice is stored once: the
 * server knows its key. A newer save of the same manche takes the place of a kept one and names it, so the
 * phone's own unanswered save is not taken for somebody else's change.
 *
 * Opening the page again (a reload, the browser reopened) puts what was kept back in its form. Where the page is
 * a secure context a service worker keeps a copy of the page and of what it loads, so that a reload without any
 * network still shows the kept sheets; this script asks it to take that copy again, after answered saves, when the
 * page is put away. A page shown from that copy says so, with the time it was kept; a page whose link the server
 * has turned off meanwhile loads again, to show the server's answer.
 */
(function () {
  "use strict";
  if (window.tablescoreOutbox) {
    return;
  }
  window.tablescoreOutbox = true;

  var STORE = "tablescore:outbox";
  var SAVE_TIMEOUT = 20000;
  /* A kept sheet is tried again at least this often (ms): a few bytes, so that it arrives soon after the server
   * is back even when nothing else on the page asks. */
  var LONGEST_WAIT = 15000;
  /* The shortest wait between two tries of one kept sheet but for "Send now" and the browser going online (ms). */
  var SOON = 2000;
  var network = window.tablescoreNetwork;
  var sending = false;
  var timer = null;
  var sent = "";

  /* Storage ---------------------------------------------------------------------------------------------------- */

  function read() {
    try {
      var entries = JSON.parse(window.localStorage.getItem(STORE) || "[]");
      return Array.isArray(entries) ? entries : [];
    } catch (error) {
      return [];
    }
  }

  function write(entries) {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(entries));
    } catch (error) {
      /* Storage full or refused: the open page still holds the sheet. */
    }
    show();
  }

  function change(key, how) {
    write(
      read()
        .map(function (entry) {
          return entry.key === key ? how(entry) : entry;
        })
        .filter(Boolean)
    );
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map
      .call(bytes, function (byte) {
        return (byte < 16 ? "0" : "") + byte.toString(16);
      })
      .join("");
  }

  function here(entry) {
    return entry.page === window.location.pathname;
  }

  /* Saving: every save is kept before it leaves ------------------------------------------------------------------ */

  function isSave(elt) {
    return Boolean(elt && elt.matches && elt.matches("form.sheet"));
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (!isSave(detail.elt) || detail.parameters.redraw !== undefined) {
      return;
    }
    var form = detail.elt;
    var earlier = read().filter(function (entry) {
      return entry.url === detail.path;
    })[0];
    var key = newKey();
    var replaces = earlier ? [earlier.key].concat(earlier.replaces || []).slice(0, 16) : [];
    var version = earlier ? earlier.version : String(detail.parameters.version);
    var fields = [];
    detail.formData.forEach(function (value, name) {
      if (typeof value === "string" && name !== "csrfmiddlewaretoken") {
        fields.push([name, name === "version" ? version : value]);
      }
    });
    detail.parameters.version = version;
    detail.parameters.key = key;
    detail.parameters.kept_ms = "0";
    if (replaces.length) {
      detail.parameters.replaces = replaces.join(",");
    }
    detail.timeout = SAVE_TIMEOUT;
    form.dataset.outboxKey = key;
    var entries = read().filter(function (entry) {
      return entry.url !== detail.path;
    });
    var section = form.closest("section.manche");
    entries.push({
      key: key,
      url: detail.path,
      page: window.location.pathname,
      anchor: section ? section.id : "",
      label: form.dataset.keptLabel || "",
      fields: fields,
      version: version,
      enteredAt: Date.now(),
      replaces: replaces,
      tries: 0,
      nextAt: Date.now() + SAVE_TIMEOUT,
      fresh: true,
    });
    write(entries);
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    var xhr = event.detail.xhr;
    if (xhr && xhr.status >= 200 && xhr.status < 300 && event.detail.requestConfig.verb !== "get") {
      refreshCopy();
    }
    if (!isSave(form) || !form.dataset.outboxKey) {
      return;
    }
    var status = xhr ? xhr.status : 0;
    var key = form.dataset.outboxKey;
    var outcome = outcomeOf(status, xhr ? xhr.responseText : "");
    if (outcome === "retry") {
      failedOnce(key, false);
    } else if (outcome === "stuck") {
      change(key, function (entry) {
        entry.stuck = status;
        return entry;
      });
    } else {
      change(key, function () {
        return null;
      });
    }
  });

  /* What an answer means for a kept save: "retry" (nobody answered for it), "done" (saved), "answered" (refused or
   * changed meanwhile: shown at the manche), "stuck" (an answer that no retry changes: shown to the player). */
  function outcomeOf(status, text) {
    if (status === 0 || status === 408 || status === 429 || status >= 500) {
      return "retry";
    }
    if (status >= 200 && status < 300) {
      return "done";
    }
    if (status === 400 || status === 409 || (status === 403 && text.indexOf('class="manche"') !== -1)) {
      return "answered";
    }
    return "stuck";
  }

  /* A kept save got no answer that counts (``unreachable``: none at all); it waits longer before its next try. */
  function failedOnce(key, unreachable) {
    change(key, function (entry) {
      entry.fresh = false;
      entry.tries = (entry.tries || 0) + 1;
      entry.triedAt = Date.now();
      entry.nextAt = entry.triedAt + network.waitAfter(entry.tries, LONGEST_WAIT);
      return entry;
    });
    if (unreachable) {
      network.failed();
    }
    schedule();
  }

  /* Something says the server may answer again (another request got an answer, the page is looked at again): the
   * kept saves go as soon as their last try is SOON ms old, never in a burst. */
  function soon() {
    var now = Date.now();
    write(
      read().map(function (entry) {
        if (!entry.fresh && entry.triedAt) {
          entry.nextAt = Math.min(entry.nextAt || now, Math.max(now, entry.triedAt + SOON));
        }
        return entry;
      })
    );
    flush(false);
  }

  /* Sending what was kept ----------------------------------------------------------------------------------------- */

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (field) {
      return field.value;
    }
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  /* Kept saves this page may send now: not stuck, and, for one the server already answered elsewhere, only on its
   * own page, where the answer can be shown. */
  function sendable(entry, force) {
    if (entry.stuck || (entry.answered && !here(entry)) || (entry.fresh && entry.nextAt > Date.now())) {
      return false;
    }
    return force || entry.answered || (entry.nextAt || 0) <= Date.now();
  }

  function flush(force) {
    if (sending) {
      return;
    }
    var entry = read().filter(function (kept) {
      return sendable(kept, force);
    })[0];
    if (!entry) {
      schedule();
      return;
    }
    sending = true;
    show();
    send(entry).then(function (again) {
      sending = false;
      show();
      if (again) {
        flush(force);
      } else {
        schedule();
      }
    });
  }

  function send(entry) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (pair) {
      body.append(pair[0], pair[1]);
    });
    body.set("key", entry.key);
    body.set("kept_ms", String(Math.max(0, Date.now() - entry.enteredAt)));
    if (entry.replaces && entry.replaces.length) {
      body.set("replaces", entry.replaces.join(","));
    }
    var token = csrfToken();
    body.set("csrfmiddlewaretoken", token);
    var controller = new AbortController();
    var limit = window.setTimeout(function () {
      controller.abort();
    }, SAVE_TIMEOUT);
    return window
      .fetch(entry.url, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: { "HX-Request": "true", "HX-Current-URL": window.location.href, "X-CSRFToken": token },
        signal: controller.signal,
      })
      .then(function (response) {
        return response.text().then(function (text) {
          return arrived(entry, response.status, text);
        });
      })
      .catch(function () {
        failedOnce(entry.key, true);
        return false;
      })
      .finally(function () {
        window.clearTimeout(limit);
      });
  }

  /* The server answered for a kept save: show the answer at its manche when this page has it; elsewhere a saved
   * sheet is said to be sent, and any other answer waits for its own page. True when the next may go now. */
  function arrived(entry, status, text) {
    var outcome = outcomeOf(status, text);
    if (outcome === "retry") {
      failedOnce(entry.key, network.unanswered(status));
      return false;
    }
    network.answered();
    var section = here(entry) && entry.anchor ? document.getElementById(entry.anchor) : null;
    if (outcome === "stuck") {
      change(entry.key, function (kept) {
        kept.stuck = status;
        return kept;
      });
      return true;
    }
    if (here(entry)) {
      change(entry.key, function () {
        return null;
      });
      if (section && window.htmx) {
        window.htmx.swap(section, text, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 20 });
      }
      refreshCopy();
    } else if (outcome === "done") {
      said(entry.label);
      change(entry.key, function () {
        return null;
      });
    } else {
      change(entry.key, function (kept) {
        kept.answered = status;
        return kept;
      });
    }
    return true;
  }

  function schedule() {
    window.clearTimeout(timer);
    var waiting = read().filter(function (entry) {
      return !entry.stuck && !entry.answered;
    });
    if (!waiting.length) {
      return;
    }
    var next = Math.min.apply(
      null,
      waiting.map(function (entry) {
        return entry.nextAt || 0;
      })
    );
    timer = window.setTimeout(flush, Math.max(250, next - Date.now()));
  }

  function sendNow() {
    write(
      read().map(function (entry) {
        entry.nextAt = 0;
        return entry;
      })
    );
    flush(true);
  }

  /* Putting kept sheets back in their forms ------------------------------------------------------------------------ */

  function restore() {
    read()
      .filter(here)
      .forEach(function (entry) {
        var form = document.querySelector('form.sheet[action="' + entry.url + '"]');
        if (!form) {
          return;
        }
        entry.fields.forEach(function (pair) {
          var field = form.elements.namedItem(pair[0]);
          if (!field) {
            return;
          }
          if (field.type === "checkbox") {
            field.checked = true;
          } else if (field.type !== "hidden" || pair[0] === "version") {
            field.value = pair[1];
          }
        });
        restoreSeat(entry);
        var fold = form.closest("details");
        if (fold) {
          fold.open = true;
        }
      });
  }

  /* The "I am" of the kept save, when the page does not say it already (its copy was kept before it was chosen). */
  function restoreSeat(entry) {
    var seat = entry.fields.filter(function (pair) {
      return pair[0] === "seat";
    })[0];
    var choice = document.getElementById("i-am");
    if (!seat || !choice || choice.querySelector("input:checked")) {
      return;
    }
    var radio = choice.querySelector('input[name="seat"][value="' + seat[1] + '"]');
    if (radio) {
      radio.checked = true;
    }
  }

  /* The page's copy for a reload without network ------------------------------------------------------------------- */

  var copyBehind = false;

  /* The page changed on the server (a save, "I am"): its copy is taken again when the page is put away (the phone
   * locked, another tab), the moment a browser may discard it, rather than after every save. */
  function refreshCopy() {
    copyBehind = Boolean(window.caches && navigator.serviceWorker);
  }

  /* Ask this page's service worker to keep ``urls``: afresh when ``fresh``, else those it has no copy of. */
  function askToKeep(urls, fresh) {
    var worker = navigator.serviceWorker;
    var message = { type: "tablescore:keep", urls: urls, fresh: fresh };
    if (worker.controller) {
      worker.controller.postMessage(message);
      return;
    }
    worker.ready.then(function (registration) {
      if (registration.active) {
        registration.active.postMessage(message);
      }
    });
  }

  function takeCopy() {
    if (!copyBehind) {
      return;
    }
    copyBehind = false;
    askToKeep([window.location.pathname], true);
  }

  /* Register the service worker for this kind of page (/t/ or /p/), and once the page has loaded, have it keep a
   * copy of the page and of what it loads when none is kept yet: it keeps the copies of later visits itself. */
  function keepCopies(box) {
    if (!box.dataset.worker || !("serviceWorker" in navigator) || !window.caches) {
      return;
    }
    var scope = "/" + window.location.pathname.split("/")[1] + "/";
    navigator.serviceWorker.register(box.dataset.worker, { scope: scope }).catch(function () {});
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "tablescore:gone") {
        window.location.reload();
      }
    });
    navigator.serviceWorker.startMessages();
    var assets = Array.prototype.map.call(document.querySelectorAll("script[src], link[rel=stylesheet]"), function (
      element
    ) {
      return element.src || element.href;
    });
    function copyMissing() {
      askToKeep(assets.concat([window.location.pathname]), false);
    }
    if (document.readyState === "complete") {
      copyMissing();
    } else {
      window.addEventListener("load", copyMissing);
    }
  }

  /* "Offline: this page was kept on this phone at 21:04 ...", at the top of a page the service worker showed from
   * its copy (it fills in ``data-kept-at``); the day too when the copy is older than today. */
  function sayKeptCopy(box) {
    var keptAt = Number(box.dataset.keptAt);
    if (!keptAt || document.querySelector(".kept-copy")) {
      return;
    }
    var kept = new Date(keptAt);
    var lang = document.documentElement.lang || undefined;
    var when = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
    if (kept.toDateString() !== new Date().toDateString()) {
      when.day = "numeric";
      when.month = "short";
    }
    var note = document.createElement("p");
    note.className = "kept-copy";
    note.setAttribute("role", "status");
    note.textContent = say(box.dataset.keptCopy, { time: kept.toLocaleString(lang, when) });
    var main = document.querySelector("main") || document.body;
    main.insertBefore(note, main.firstChild);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") {
      takeCopy();
    }
  });
  window.addEventListener("pagehide", takeCopy);

  var sentTimer = null;

  /* "Sent: Table 3 · Manche 2" for a while, for a sheet sent from another page than its own. */
  function said(label) {
    sent = label;
    window.clearTimeout(sentTimer);
    sentTimer = window.setTimeout(function () {
      sent = "";
      show();
    }, 8000);
  }

  /* What the page says ---------------------------------------------------------------------------------------------- */

  function say(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return values[name] === undefined ? whole : values[name];
    });
  }

  function show() {
    var box = document.querySelector("[data-outbox]");
    if (!box) {
      return;
    }
    var entries = read().filter(function (entry) {
      return !entry.fresh;
    });
    var waiting = entries.filter(function (entry) {
      return !entry.stuck && !entry.answered;
    });
    box.hidden = entries.length === 0 && !sent;
    document.body.classList.toggle("has-outbox", !box.hidden);
    box.querySelector("[data-outbox-count]").textContent = waiting.length
      ? say(box.dataset.waiting, { count: waiting.length })
      : sent
        ? say(box.dataset.sent, { label: sent })
        : "";
    var next = Math.min.apply(
      null,
      waiting.map(function (entry) {
        return entry.nextAt || 0;
      })
    );
    var seconds = Math.ceil((next - Date.now()) / 1000);
    box.querySelector("[data-outbox-state]").textContent = sending
      ? box.dataset.sending
      : waiting.length && seconds > 0
        ? say(box.dataset.next, { seconds: seconds })
        : "";
    box.querySelector("[data-send-now]").hidden = waiting.length === 0;
    var signature = JSON.stringify(
      entries.map(function (entry) {
        return [entry.key, entry.stuck, entry.answered];
      })
    );
    if (signature !== shown) {
      shown = signature;
      list(box, entries);
    }
    document.querySelectorAll("section.manche").forEach(function (section) {
      var kept = entries.some(function (entry) {
        return here(entry) && entry.anchor === section.id && !entry.stuck && !entry.answered;
      });
      var note = section.querySelector(":scope > .kept-note");
      if (kept && !note) {
        note = document.createElement("p");
        note.className = "kept-note";
        note.textContent = box.dataset.keptNote;
        section.querySelector("h2").insertAdjacentElement("afterend", note);
      } else if (!kept && note) {
        note.remove();
      }
    });
  }

  var shown = "";

  function list(box, entries) {
    var items = box.querySelector("[data-outbox-list]");
    items.textContent = "";
    entries.forEach(function (entry) {
      var item = document.createElement("li");
      var what = entry.stuck ? say(box.dataset.stuck, { status: entry.stuck }) : entry.answered ? box.dataset.answered : "";
      var link = document.createElement("a");
      link.href = (here(entry) ? "" : entry.page) + (entry.anchor ? "#" + entry.anchor : "");
      link.textContent = entry.label;
      item.appendChild(link);
      if (what) {
        item.appendChild(document.createTextNode(" · " + what));
      }
      if (entry.stuck) {
        var discard = document.createElement("button");
        discard.type = "button";
        discard.className = "link";
        discard.textContent = box.dataset.discard;
        discard.addEventListener("click", function () {
          change(entry.key, function () {
            return null;
          });
        });
        item.appendChild(document.createTextNode(" "));
        item.appendChild(discard);
      }
      items.appendChild(item);
    });
  }

  function start() {
    var box = document.querySelector("[data-outbox]");
    if (!box || !network) {
      return;
    }
    box.querySelector("[data-send-now]").addEventListener("click", sendNow);
    write(
      read().map(function (entry) {
        entry.fresh = false;
        return entry;
      })
    );
    restore();
    show();
    sayKeptCopy(box);
    keepCopies(box);
    flush(true);
    window.setInterval(show, 1000);
  }

  window.addEventListener("online", sendNow);
  document.addEventListener("tablescore:reachable", soon);
  document.addEventListener("tablescore:retry", soon);
  window.addEventListener("storage", function (event) {
    if (event.key === STORE) {
      show();
      schedule();
    }
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
