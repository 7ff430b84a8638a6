// What this browser keeps of a signed-in player goes when he logs out (templates/base.html's
// logout form): the table pages the service worker cached (templates/battles/log/sw.js) and the
// entries the table page keeps in IndexedDB while offline (static/js/table.js). Entries not sent
// yet are asked about first. A page read by another user than the last one clears the cached
// pages too (a session that ended without logging out), so the service worker never serves one
// player's table to another.
(function () {
  "use strict";
  var form = document.querySelector("form[data-logout]");
  if (!form) {
    return;
  }
  var DB = "annuminas-table"; // static/js/table.js
  var WHO = "annuminas-user";
  var STATIC = form.dataset.static || "/static/";

  // The offline database, only if it exists: opening it must not create it (table.js creates
  // it with its stores when it first needs it).
  function openExisting() {
    return new Promise(function (resolve) {
      if (!window.indexedDB) {
        resolve(null);
        return;
      }
      var open;
      try {
        open = indexedDB.open(DB);
      } catch (error) {
        resolve(null);
        return;
      }
      open.onupgradeneeded = function () {
        open.transaction.abort(); // it did not exist: leave it so
      };
      open.onsuccess = function () { resolve(open.result); };
      open.onerror = function (event) {
        event.preventDefault();
        resolve(null);
      };
      open.onblocked = function () { resolve(null); };
    });
  }
  function eachStore(db, mode, work) {
    var names = Array.prototype.slice.call(db.objectStoreNames);
    if (!names.length) {
      return Promise.resolve([]);
    }
    return new Promise(function (resolve, reject) {
      var tx = db.transaction(names, mode);
      var requests = names.map(function (name) { return work(tx.objectStore(name)); });
      tx.oncomplete = function () {
        resolve(requests.map(function (r) { return r.result; }));
      };
      tx.onerror = function () { reject(tx.error); };
    });
  }
  function pending() {
    return openExisting().then(function (db) {
      if (!db) {
        return 0;
      }
      var queue = Array.prototype.indexOf.call(db.objectStoreNames, "queue") >= 0;
      var count = queue
        ? new Promise(function (resolve) {
            var request = db.transaction("queue").objectStore("queue").count();
            request.onsuccess = function () { resolve(request.result); };
            request.onerror = function () { resolve(0); };
          })
        : Promise.resolve(0);
      return count.then(function (n) {
        db.close();
        return n;
      });
    }).catch(function () { return 0; });
  }
  // Emptied first (other connections of this page may hold it open, which blocks a deletion),
  // then deleted.
  function clearDatabase() {
    return openExisting().then(function (db) {
      if (!db) {
        return null;
      }
      return eachStore(db, "readwrite", function (store) { return store.clear(); }).then(function () {
        db.close();
        return new Promise(function (resolve) {
          var request = indexedDB.deleteDatabase(DB);
          request.onsuccess = request.onerror = request.onblocked = function () { resolve(); };
        });
      });
    }).catch(function () {});
  }
  // Every cached page (the table's, the home page); the static files stay.
  function clearPages() {
    if (!window.caches) {
      return Promise.resolve();
    }
    return caches.keys().then(function (names) {
      return Promise.all(names.map(function (name) {
        return caches.open(name).then(function (cache) {
          return cache.keys().then(function (requests) {
            return Promise.all(requests.filter(function (request) {
              return new URL(request.url).pathname.indexOf(STATIC) !== 0;
            }).map(function (request) { return cache.delete(request); }));
          });
        });
      }));
    }).catch(function () {});
  }
  function question(count) {
    var text = count === 1 ? form.dataset.askOne : form.dataset.askMany;
    return (text || "").replace("%(count)s", String(count));
  }
  function forget() {
    try {
      localStorage.removeItem(WHO);
    } catch (error) { /* storage refused: nothing kept either */ }
    return Promise.all([clearPages(), clearDatabase()]);
  }

  var leaving = false;
  form.addEventListener("submit", function (event) {
    if (leaving) {
      return;
    }
    event.preventDefault();
    pending().then(function (count) {
      if (count && !window.confirm(question(count))) {
        return;
      }
      leaving = true;
      // Logging out never waits long on the browser's storage.
      var late = new Promise(function (resolve) { setTimeout(resolve, 3000); });
      Promise.race([forget(), late]).then(function () {
        form.dataset.cleared = "1";
        form.submit();
      });
    });
  });

  // Another player than the last one on this browser: the pages cached for the last one go.
  var user = form.dataset.user || "";
  try {
    var last = localStorage.getItem(WHO);
    if (last && last !== user) {
      clearPages();
    }
    localStorage.setItem(WHO, user);
  } catch (error) { /* storage refused */ }
})();
