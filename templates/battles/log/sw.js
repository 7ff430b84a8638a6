{% load static %}// The table's service worker: the table page (the last copy seen) and the site's static
// files when the network is gone, and the cards' forms (see table.js). Entries are kept by the page itself (IndexedDB), not here.
"use strict";
var CACHE = "{{ version }}";
var SHELL = [
  "{% static 'vendor/pico-2.1.1.min.css' %}",
  "{% static 'vendor/htmx-2.0.11.min.js' %}",
  "{% static 'css/site.css' %}",
  "{% static 'css/shell.css' %}",
  "{% static 'css/battlelog.css' %}",
  "{% static 'js/site.js' %}",
  "{% static 'js/menu.js' %}",
  "{% static 'js/table.js' %}",
  "{% static 'img/favicon.svg' %}",
  "{% static 'manifest.webmanifest' %}"
];
var STATIC = "{% get_static_prefix %}";
var TABLE = /^\/battles\/\d+\/table\/$/;
var CARD = /^\/battles\/\d+\/table\/cards\/\d+\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); }));
  self.skipWaiting();
});
self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
    }).then(function () { return self.clients.claim(); })
  );
});
self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") {
    return;
  }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (url.pathname.indexOf(STATIC) === 0) {
    event.respondWith(
      caches.match(request).then(function (hit) {
        return hit || fetch(request).then(function (response) {
          var copy = response.clone();
          if (response.ok) {
            caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
          }
          return response;
        });
      })
    );
    return;
  }
  if (CARD.test(url.pathname)) {
    // A card's forms: from the network, kept; the copy kept (or put there by the page, which
    // fetches every card's forms when it is idle) when the network is gone.
    event.respondWith(
      fetch(request).then(function (response) {
        var copy = response.clone();
        if (response.ok) {
          caches.open(CACHE).then(function (cache) { cache.put(url.href, copy); });
        }
        return response;
      }).catch(function () {
        return caches.match(url.href).then(function (hit) { return hit || Response.error(); });
      })
    );
    return;
  }
  if (request.mode === "navigate" && (TABLE.test(url.pathname) || url.pathname === "/")) {
    // The page from the network, kept for later; the last copy when the network is gone.
    event.respondWith(
      fetch(request).then(function (response) {
        var copy = response.clone();
        if (response.ok) {
          caches.open(CACHE).then(function (cache) { cache.put(url.pathname, copy); });
        }
        return response;
      }).catch(function () {
        return caches.match(url.pathname).then(function (hit) { return hit || Response.error(); });
      })
    );
  }
});
