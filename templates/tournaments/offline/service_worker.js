{% load static %}/* Tablescore's service worker: a copy of the table and player pages, and of what they load, for a phone whose
 * network is gone.
 *
 * It answers only for the pages of table and player links (/t/..., /p/...) and the static files they load; the
 * network answers first, and its answer is kept. When the network fails, or does not answer within a few seconds,
 * the kept copy is shown instead: the page's own script then puts back the sheets this phone kept and sends them
 * when the server answers again. Organiser pages never pass through here.
 */
"use strict";

const PAGES = "tablescore-pages";
const STATIC_PREFIX = "{% get_static_prefix as prefix %}{{ prefix|escapejs }}";
const WAIT_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

function kept(request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) {
    return false;
  }
  if (request.mode === "navigate") {
    return /^\/[tp]\//.test(url.pathname);
  }
  return url.pathname.startsWith(STATIC_PREFIX);
}

async function networkFirst(event) {
  const request = event.request;
  const cache = await caches.open(PAGES);
  const network = fetch(request).then((response) => {
    if (response.ok && !response.redirected) {
      event.waitUntil(cache.put(request, response.clone()));
    }
    return response;
  });
  event.waitUntil(network.catch(() => null));
  const late = new Promise((resolve) => setTimeout(resolve, WAIT_MS, null));
  try {
    const answer = await Promise.race([network, late]);
    if (answer) {
      return answer;
    }
  } catch (error) {
    /* No network: the copy below. */
  }
  const copy = await cache.match(request, { ignoreVary: true });
  return copy || network;
}

self.addEventListener("fetch", (event) => {
  if (kept(event.request)) {
    event.respondWith(networkFirst(event));
  }
});
