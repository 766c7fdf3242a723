{% load static %}/* Tablescore's service worker: a copy of the table and player pages, and of what they load, for a phone whose
 * network is gone.
 *
 * It answers only for the pages of table and player links (/t/..., /p/...) and the static files they load, and
 * asks the server first. It keeps an answer only when it is a whole 200 from this site that the server lets a
 * browser keep (no ``no-store``), with the moment it was kept. Only when the network fails, or does not answer
 * within a few seconds, does it show the kept copy, marked so that the page says it may be out of date and when
 * it was kept; the page's own script then puts back the sheets this phone kept and sends them when the server
 * answers again. When the server says a link is gone (404, 410), every copy kept for that link is deleted and its
 * open pages are told to load again. Organiser pages never pass through here.
 */
"use strict";

const COPIES = "tablescore-copies";
const STATIC_PREFIX = "{% get_static_prefix as prefix %}{{ prefix|escapejs }}";
const WAIT_MS = 4000;
/* The header of a kept copy: when it was kept (ms since 1970). */
const KEPT_AT = "X-Kept-At";
/* The mark in a page (the outbox's section) that says, once filled in a shown copy, when the copy was kept. */
const KEPT_MARK = 'data-kept-at=""';
/* A table's or a player's link: its kind and its token, the first part of every page of that link. */
const LINK = /^\/[tp]\/[^/]+\//;

self.addEventListener("install", (event) => {
  event.waitUntil(self.skipWaiting());
});

/* Copies kept by an earlier version of this script are dropped: they were kept without asking the answer's
 * Cache-Control, nor when. */
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== COPIES).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

/* Whether this worker answers for a GET of ``url``: a page of a table's or player's link, or a static file. */
function handled(url, page) {
  const address = new URL(url, self.location.href);
  if (address.origin !== self.location.origin) {
    return false;
  }
  return page ? /^\/[tp]\//.test(address.pathname) : address.pathname.startsWith(STATIC_PREFIX);
}

/* Whether an answer may be kept: a whole 200 from this site, not redirected, that does not say ``no-store``. */
function storable(response) {
  if (response.status !== 200 || response.type !== "basic" || response.redirected) {
    return false;
  }
  const control = (response.headers.get("Cache-Control") || "").toLowerCase();
  return !control.split(",").some((directive) => directive.trim() === "no-store");
}

function gone(response) {
  return response.status === 404 || response.status === 410;
}

/* Its body as read, and when: the length and encoding the server sent no longer describe it. */
async function keep(cache, url, response) {
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  headers.delete("Content-Encoding");
  headers.set(KEPT_AT, String(Date.now()));
  const body = await response.blob();
  await cache.put(url, new Response(body, { status: response.status, statusText: response.statusText, headers }));
}

/* Delete every copy of the link starting ``prefix`` and tell its open pages, which load again from the server. */
async function forget(cache, prefix) {
  const keys = await cache.keys();
  const own = (url) => new URL(url).pathname.startsWith(prefix);
  await Promise.all(keys.filter((key) => own(key.url)).map((key) => cache.delete(key)));
  const windows = await self.clients.matchAll({ type: "window" });
  windows.filter((client) => own(client.url)).forEach((client) => client.postMessage({ type: "tablescore:gone" }));
}

/* The server answered for ``url``: keep what may be kept, drop a copy it may no longer keep. When a page of a link
 * is gone, the link's first page is asked too: all of the link's copies go when the link itself is gone (a player
 * no longer at a table keeps their own page). */
async function learn(cache, url, response) {
  if (storable(response)) {
    await keep(cache, url, response);
    return;
  }
  if (response.status !== 200 && !gone(response)) {
    return;
  }
  await cache.delete(url, { ignoreVary: true });
  const link = gone(response) ? LINK.exec(new URL(url).pathname) : null;
  if (!link) {
    return;
  }
  const first = new URL(link[0], url).href;
  if (first !== url) {
    const answer = await fetch(first, { credentials: "same-origin" }).catch(() => null);
    if (!answer || !gone(answer)) {
      if (answer) {
        await learn(cache, first, answer);
      }
      return;
    }
  }
  await forget(cache, link[0]);
}

/* A kept page as shown: its outbox section says when it was kept, so that the page says it may be out of date. */
async function shown(copy) {
  const keptAt = Number(copy.headers.get(KEPT_AT)) || 0;
  if (!(copy.headers.get("Content-Type") || "").startsWith("text/html")) {
    return copy;
  }
  const html = (await copy.text()).replace(KEPT_MARK, `data-kept-at="${keptAt}"`);
  return new Response(html, { status: copy.status, statusText: copy.statusText, headers: copy.headers });
}

async function networkFirst(event) {
  const request = event.request;
  const url = request.url;
  const cache = await caches.open(COPIES);
  let learned = null;
  const network = fetch(request).then((response) => {
    learned = learn(cache, url, response.clone());
    return response;
  });
  event.waitUntil(network.then(() => learned, () => null).catch(() => null));
  const late = new Promise((resolve) => setTimeout(resolve, WAIT_MS, null));
  try {
    const answer = await Promise.race([network, late]);
    if (answer) {
      return answer;
    }
  } catch (error) {
    /* No network: the copy below. */
  }
  const copy = await cache.match(url, { ignoreVary: true });
  if (!copy) {
    return network;
  }
  return request.mode === "navigate" ? shown(copy) : copy;
}

/* What a page asks to be kept (itself and what it loaded): fetched now unless a copy is kept already, or always
 * when ``fresh`` (the page changed on the server). */
async function keepPages(urls, fresh) {
  const cache = await caches.open(COPIES);
  await Promise.all(
    urls
      .filter((url) => typeof url === "string" && (handled(url, true) || handled(url, false)))
      .map(async (url) => {
        const address = new URL(url, self.location.href).href;
        if (!fresh && (await cache.match(address, { ignoreVary: true }))) {
          return;
        }
        const response = await fetch(address, { credentials: "same-origin" }).catch(() => null);
        if (response) {
          await learn(cache, address, response);
        }
      })
  );
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "tablescore:keep" && Array.isArray(data.urls)) {
    event.waitUntil(keepPages(data.urls.slice(0, 32), Boolean(data.fresh)));
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method === "GET" && handled(request.url, request.mode === "navigate")) {
    event.respondWith(networkFirst(event));
  }
});
