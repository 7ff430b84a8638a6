// The table page (templates/battles/log/tracker.html): entries posted in the background, the
// live part refreshed every 2 s without losing what is typed, opened or scrolled, the dice a
// form still needs (the engine's plan, asked of the server), and entries kept on the phone
// (IndexedDB) while the network is gone, sent in order with their client_id and base_seq when
// it returns. No game rule lives here: the server's engine resolves every entry.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) {
    return;
  }
  var liveUrl = root.dataset.liveUrl;
  var planUrl = root.dataset.planUrl;
  var battle = root.dataset.battle;
  var text = root.dataset;
  var sending = false;
  var POLL_MS = 2000;

  function live() {
    return document.getElementById("battle-live");
  }
  function lastSeq() {
    return parseInt(live().dataset.lastSeq || "0", 10);
  }
  function uuid() {
    if (window.crypto && crypto.randomUUID) {
      return crypto.randomUUID();
    }
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64;
    b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  // ---- what the player is using: kept across a refresh --------------------------------------
  function isDirty(el) {
    if (el.type === "hidden" || el.type === "submit") {
      return false;
    }
    if (el.type === "checkbox" || el.type === "radio") {
      return el.checked !== el.defaultChecked;
    }
    if (el.tagName === "SELECT") {
      var initial = Array.prototype.findIndex.call(el.options, function (o) { return o.defaultSelected; });
      return el.selectedIndex !== (initial < 0 ? 0 : initial);
    }
    return el.value !== el.defaultValue;
  }
  function fieldKey(el) {
    var form = el.form;
    var key = form && form.dataset.key;
    if (!key || !el.name) {
      return null;
    }
    return key + "|" + el.name + (el.type === "checkbox" ? "|" + el.value : "");
  }
  function findField(scope, key) {
    var parts = key.split("|");
    var form = scope.querySelector('form[data-key="' + parts[0] + '"]');
    if (!form) {
      return null;
    }
    var fields = form.querySelectorAll('[name="' + parts[1] + '"]');
    for (var i = 0; i < fields.length; i++) {
      if (parts.length < 3 || fields[i].value === parts[2]) {
        return fields[i];
      }
    }
    return null;
  }
  function copyValue(from, to) {
    if (from.type === "checkbox" || from.type === "radio") {
      to.checked = from.checked;
    } else if (from.tagName === "SELECT") {
      Array.prototype.forEach.call(to.options, function (o) {
        var same = Array.prototype.find.call(from.options, function (p) { return p.value === o.value; });
        o.selected = !!(same && same.selected);
      });
    } else {
      to.value = from.value;
    }
  }

  // What the player is using in ``oldScope``, found again in ``freshScope``: pairs of fields to
  // copy the values over (a field being used, typed into or focused, keeps its value), and the
  // open folds opened again; null if the form of a field in use is gone (the player's input
  // first: the swap waits). Fields for which ``skip`` says yes move over as they are.
  function carry(oldScope, freshScope, skip) {
    var active = document.activeElement;
    var kept = [];
    var fields = oldScope.querySelectorAll("input, select, textarea");
    for (var i = 0; i < fields.length; i++) {
      var el = fields[i];
      if (skip && skip(el)) {
        continue;
      }
      if (isDirty(el) || (el === active && el.type !== "submit")) {
        var key = fieldKey(el);
        if (!key) {
          continue;
        }
        var twin = findField(freshScope, key);
        if (!twin) {
          return null;
        }
        kept.push([el, twin]);
      }
    }
    Array.prototype.forEach.call(oldScope.querySelectorAll("details[id]"), function (d) {
      var twin = freshScope.querySelector("#" + CSS.escape(d.id));
      if (twin && twin.tagName === "DETAILS") {
        twin.open = d.open;
      }
    });
    return kept;
  }
  function hasDirty(scope) {
    return Array.prototype.some.call(scope.querySelectorAll("input, select, textarea"), isDirty);
  }
  // ``replace`` puts the fresh part in; what is typed and focused comes back, and the part of the
  // page in use (``anchor``) stays where it was on the screen.
  function keepInPlace(kept, anchor, replace) {
    var active = document.activeElement;
    var anchorId = anchor && (anchor.closest("[id]") || {}).id;
    var before = anchor ? anchor.getBoundingClientRect().top : 0;
    var activeKey = active && fieldKey(active);
    var activeForm = activeKey && active.form;
    var fresh = replace();
    kept.forEach(function (pair) { copyValue(pair[0], pair[1]); });
    if (activeKey && document.activeElement !== active) {
      var again = activeForm && activeForm.isConnected ? active : findField(fresh, activeKey);
      if (again) {
        again.focus({ preventScroll: true });
      }
    }
    if (anchorId) {
      var now = document.getElementById(anchorId);
      if (now) {
        var shift = now.getBoundingClientRect().top - before;
        if (Math.abs(shift) > 1) {
          window.scrollBy(0, shift);
        }
      }
    }
  }

  // Swap the live part in. A field being used keeps its value; if its form is gone from the new
  // part, the swap waits. Open folds stay open. A card's forms fetched when it was opened move
  // over to the new card as they are (what is typed in them too), then are fetched again for
  // the new state of the battle.
  function swapLive(html, anchorEl) {
    var old = live();
    var holder = document.createElement("div");
    holder.innerHTML = html.trim();
    var fresh = holder.querySelector("#battle-live");
    if (!fresh) {
      return false;
    }
    var moving = [];
    Array.prototype.forEach.call(old.querySelectorAll(".fighter-card > .card-actions[data-loaded]"), function (actions) {
      var card = actions.parentNode;
      var twin = fresh.querySelector("#" + CSS.escape(card.id) + " > .card-actions");
      if (twin && (card.open || hasDirty(actions))) {
        moving.push([actions, twin]);
      }
    });
    var kept = carry(old, fresh, function (el) {
      return moving.some(function (pair) { return pair[0].contains(el); });
    });
    if (!kept) {
      return false; // his form is gone: keep his input, try again later
    }
    var active = document.activeElement;
    var anchor = anchorEl || (active && active !== document.body ? active : null);
    keepInPlace(kept, anchor, function () {
      moving.forEach(function (pair) { pair[1].replaceWith(pair[0]); });
      old.replaceWith(fresh);
      return fresh;
    });
    moving.forEach(function (pair) { refreshActions(pair[0].parentNode.id); });
    cardsChanged();
    return true;
  }

  // ---- a card's forms: fetched when it is first opened -----------------------------------------
  // The page comes with the cards folded and formless (a warband's forms are most of what a
  // phone would parse and lay out); opening a card brings its forms (from the set fetched when
  // the page was idle, else from the server, else, offline, from the service worker's copy).
  // Without JavaScript the card's link opens the page with that card's forms.
  var cardsUrl = root.dataset.cardsUrl;
  var cardForms = {};
  var cardFormsSeq = -1;
  function cardUrl(id) {
    return cardsUrl + id + "/";
  }
  function placeOf(cardId) {
    return document.querySelector("#" + CSS.escape(cardId) + " > .card-actions");
  }
  function parseActions(html) {
    var t = document.createElement("template");
    t.innerHTML = html.trim();
    return t.content.querySelector(".card-actions[data-loaded]");
  }
  function fetchActions(cardId) {
    return fetch(cardUrl(cardId.slice("fighter-".length)), {
      credentials: "same-origin",
      headers: { "X-Table": "1" },
    }).then(function (r) { return r.ok ? r.text() : null; });
  }
  function loadActions(card) {
    var place = placeOf(card.id);
    if (!place || place.hasAttribute("data-loaded") || place.dataset.loading) {
      return;
    }
    var cached = cardFormsSeq === lastSeq() && cardForms[card.id.slice("fighter-".length)];
    if (cached) {
      place.replaceWith(parseActions(cached));
      return;
    }
    place.dataset.loading = "1";
    place.setAttribute("aria-busy", "true");
    fetchActions(card.id)
      .then(function (html) {
        var now = placeOf(card.id);
        var actions = html && parseActions(html);
        if (actions && now && !now.hasAttribute("data-loaded")) {
          now.replaceWith(actions);
        }
      })
      .catch(function () {})
      .then(function () {
        delete place.dataset.loading;
        place.removeAttribute("aria-busy");
      });
  }
  // A card's forms fetched again after the battle moved on, what is typed in them kept; left as
  // they are if a form in use is gone (the server still judges what is sent).
  function refreshActions(cardId) {
    if (!navigator.onLine) {
      return;
    }
    var seq = lastSeq();
    fetchActions(cardId)
      .then(function (html) {
        var now = placeOf(cardId);
        var actions = html && parseActions(html);
        if (!actions || !now || !now.hasAttribute("data-loaded") || seq !== lastSeq()) {
          return;
        }
        var kept = carry(now, actions);
        if (kept) {
          keepInPlace(kept, now.parentNode, function () {
            now.replaceWith(actions);
            return actions;
          });
        }
      })
      .catch(function () {});
  }
  // Every card's forms, fetched when the page is idle and again a while after the battle moves
  // on: kept here, and in the service worker's cache for a card opened without network.
  function prefetchCards() {
    if (!cardsUrl || !navigator.onLine || !document.querySelector(".card-actions[data-actions]")) {
      return;
    }
    var seq = lastSeq();
    fetch(cardsUrl, { credentials: "same-origin", headers: { "X-Table": "1" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || seq !== lastSeq()) {
          return;
        }
        cardForms = data.cards;
        cardFormsSeq = seq;
        if (!window.caches || !root.dataset.swCache) {
          return null;
        }
        return caches.open(root.dataset.swCache).then(function (cache) {
          return Promise.all(Object.keys(data.cards).map(function (id) {
            var headers = { "Content-Type": "text/html; charset=utf-8" };
            return cache.put(new URL(cardUrl(id), window.location.href).href, new Response(data.cards[id], { headers: headers }));
          }));
        });
      })
      .then(function () {
        if (cardFormsSeq === seq) {
          root.dataset.cardsReady = String(seq); // every card opens without network now
        }
      })
      .catch(function () {});
  }
  var prefetchTimer = null;
  function whenIdle(work, delay) {
    clearTimeout(prefetchTimer);
    prefetchTimer = setTimeout(function () {
      if (window.requestIdleCallback) {
        window.requestIdleCallback(work, { timeout: 5000 });
      } else {
        work();
      }
    }, delay);
  }
  function cardsChanged() {
    whenIdle(prefetchCards, 10000);
  }
  document.addEventListener("toggle", function (event) {
    var card = event.target;
    if (card.classList && card.classList.contains("fighter-card") && card.open) {
      loadActions(card);
    }
  }, true);
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".card-open");
    var card = link && link.closest(".fighter-card");
    if (card) {
      event.preventDefault();
      loadActions(card);
    }
  });

  function poll() {
    if (document.hidden || sending || !navigator.onLine) {
      return;
    }
    fetch(liveUrl + "?seen=" + lastSeq(), { credentials: "same-origin", headers: { "X-Table": "1" } })
      .then(function (response) {
        if (response.status === 200) {
          return response.text().then(function (html) { swapLive(html); });
        }
      })
      .catch(function () { /* offline: the next poll tries again */ });
  }

  // ---- posting a form -----------------------------------------------------------------------
  function clearErrors(form) {
    Array.prototype.forEach.call(form.querySelectorAll(".field-error[data-error]"), function (e) { e.remove(); });
    Array.prototype.forEach.call(form.querySelectorAll("[aria-invalid]"), function (e) { e.removeAttribute("aria-invalid"); });
  }
  function showErrors(form, errors) {
    clearErrors(form);
    Object.keys(errors || {}).forEach(function (name) {
      var field = name !== "__all__" && form.querySelector('[name="' + name + '"]:not([type=hidden])');
      var note = document.createElement("p");
      note.className = "field-error";
      note.dataset.error = name;
      note.setAttribute("role", "alert");
      note.textContent = errors[name].join(" ");
      if (field) {
        field.setAttribute("aria-invalid", "true");
        (field.closest("label") || field).after(note);
      } else {
        var button = form.querySelector("button[type=submit]");
        (button || form.lastChild).before(note);
      }
    });
  }
  function formBody(form, submitter, extra) {
    var data = new FormData(form);
    if (submitter && submitter.name) {
      data.append(submitter.name, submitter.value);
    }
    Object.keys(extra || {}).forEach(function (k) { data.set(k, extra[k]); });
    return data;
  }
  function post(body) {
    return fetch(form_action(), {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-Table": "1", "X-CSRFToken": body.get("csrfmiddlewaretoken") || "" },
    });
  }
  function form_action() {
    return window.location.pathname;
  }

  function submit(form, submitter, extra) {
    var body = formBody(form, submitter, extra);
    if (!navigator.onLine) {
      // Kept to be sent later, unasked by the server: a decisive entry asks here first (a rout
      // test only when dice are typed: the server rolls the others).
      var ask = form.dataset.ask;
      if (ask && (form.dataset.key.indexOf("due-rout") !== 0 || body.get("faces"))) {
        if (!window.confirm(ask)) {
          return;
        }
      }
      enqueue(form, body);
      return;
    }
    sending = true;
    var button = submitter || form.querySelector("button[type=submit]");
    if (button) {
      button.setAttribute("aria-busy", "true");
    }
    post(body)
      .then(
        function (response) {
          return answered(form, submitter, extra, response, body);
        },
        function () {
          enqueue(form, body); // the network dropped on the way: kept, sent when it returns
        }
      )
      .catch(function () {
        showErrors(form, { __all__: [text.textRefused] });
      })
      .then(function () {
        sending = false;
        if (button) {
          button.removeAttribute("aria-busy");
        }
      });
  }
  function isJson(response) {
    return (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
  }
  // Whether the form still holds what was sent (nothing typed since): only then is it emptied.
  function unchangedSince(form, body) {
    return Array.prototype.every.call(form.elements, function (el) {
      if (!el.name || el.disabled || /^(hidden|submit|button|reset|file)$/.test(el.type)) {
        return true;
      }
      var sent = body.getAll(el.name);
      if (el.type === "checkbox" || el.type === "radio") {
        return (sent.indexOf(el.value) >= 0) === el.checked;
      }
      if (el.multiple) {
        return Array.prototype.every.call(el.options, function (o) {
          return (sent.indexOf(o.value) >= 0) === o.selected;
        });
      }
      return sent.indexOf(el.value) >= 0;
    });
  }
  function answered(form, submitter, extra, response, body) {
    var type = response.headers.get("Content-Type") || "";
    if (response.ok && type.indexOf("text/html") === 0) {
      return response.text().then(function (html) {
        clearErrors(form);
        if (!body || unchangedSince(form, body)) {
          form.reset();
        }
        swapLive(html, form.closest(".fighter-card") || form.closest("[id]"));
      });
    }
    if (!isJson(response)) {
      showErrors(form, { __all__: [text.textRefused + " (" + response.status + ")"] });
      return null;
    }
    return response.json().then(function (data) {
      if (data.redirect) {
        window.location.assign(data.redirect);
      } else if (data.confirm) {
        if (window.confirm(data.confirm)) {
          submit(form, submitter, Object.assign({}, extra, { confirmed: "1" }));
        }
      } else {
        showErrors(form, data.errors);
      }
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList.contains("entry-form") || !root.contains(form)) {
      return;
    }
    event.preventDefault();
    // A fresh client_id per sending: the form rendered once may send several entries.
    var extra = { client_id: uuid() };
    submit(form, event.submitter, extra);
  });

  // The bar's "Log" link opens the folded log.
  document.addEventListener("click", function (event) {
    var link = event.target.closest("[data-open]");
    if (link) {
      var target = document.getElementById(link.dataset.open);
      if (target && target.tagName === "DETAILS") {
        target.open = true;
      }
    }
  });

  // ---- the dice a form still needs -----------------------------------------------------------
  var planTimer = null;
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (!field.matches || !field.matches("input[data-plan]") || !navigator.onLine) {
      return;
    }
    clearTimeout(planTimer);
    planTimer = setTimeout(function () {
      var out = document.getElementById(field.getAttribute("aria-describedby"));
      fetch(planUrl, {
        method: "POST",
        body: formBody(field.form),
        credentials: "same-origin",
        headers: { "X-CSRFToken": new FormData(field.form).get("csrfmiddlewaretoken") || "" },
      })
        .then(function (r) { return r.ok ? r.text() : ""; })
        .then(function (html) {
          if (out) {
            out.innerHTML = html;
          }
        })
        .catch(function () {});
    }, 250);
  });

  // ---- entries kept on the phone while offline ----------------------------------------------
  var DB = "annuminas-table";
  function db() {
    return new Promise(function (resolve, reject) {
      var open = indexedDB.open(DB, 1);
      open.onupgradeneeded = function () {
        open.result.createObjectStore("queue", { keyPath: "n", autoIncrement: true });
      };
      open.onsuccess = function () { resolve(open.result); };
      open.onerror = function () { reject(open.error); };
    });
  }
  function store(mode, work) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var tx = d.transaction("queue", mode);
        var result = work(tx.objectStore("queue"));
        tx.oncomplete = function () { resolve(result && result.result !== undefined ? result.result : result); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }
  function queued() {
    return store("readonly", function (s) { return s.getAll(); }).then(function (all) {
      return all.filter(function (item) {
        return item.battle === battle && (!item.user || item.user === root.dataset.user);
      });
    });
  }
  function describeForm(form) {
    var card = form.closest(".fighter-card");
    var name = card ? card.querySelector(".card-name").textContent.trim() : "";
    var button = form.querySelector("button[type=submit]");
    return (name ? name + " · " : "") + (button ? button.textContent.trim() : "");
  }
  function enqueue(form, body) {
    var fields = [];
    body.forEach(function (value, key) {
      if (key !== "csrfmiddlewaretoken") {
        fields.push([key, String(value)]);
      }
    });
    var item = {
      battle: battle,
      user: root.dataset.user, // a queue is its player's own (static/js/logout.js clears it)
      fields: fields,
      base_seq: String(lastSeq()),
      label: describeForm(form),
      csrf: body.get("csrfmiddlewaretoken") || "",
    };
    // Emptied now, not when the phone has stored it: a player (or a robot) typing the next
    // entry meanwhile would otherwise see it wiped, and send an empty one.
    if (unchangedSince(form, body)) {
      form.reset();
    }
    store("readwrite", function (s) { return s.add(item); }).then(showQueue, function () {
      fields.forEach(function (pair) {  // not stored: what was typed comes back
        var field = form.elements.namedItem(pair[0]);
        if (field && field.type !== "hidden" && "value" in field && !field.value) {
          field.value = pair[1];
        }
      });
    });
  }
  function showQueue() {
    return queued().then(function (items) {
      var section = document.getElementById("queue");
      var list = section.querySelector(".queue-list");
      list.textContent = "";
      items.forEach(function (item) {
        var li = document.createElement("li");
        li.dataset.testid = "queued";
        li.setAttribute("data-testid", item.conflict ? "conflict" : "queued");
        li.textContent = item.label + " · " + (item.conflict ? item.conflict : text.textWaiting);
        if (item.conflict) {
          var resend = document.createElement("button");
          resend.type = "button";
          resend.textContent = text.textSend;
          resend.setAttribute("data-testid", "conflict-rebase");
          resend.addEventListener("click", function () { resolveConflict(item, true); });
          var drop = document.createElement("button");
          drop.type = "button";
          drop.className = "secondary";
          drop.textContent = text.textDrop;
          drop.setAttribute("data-testid", "conflict-drop");
          drop.addEventListener("click", function () { resolveConflict(item, false); });
          li.append(" ", resend, " ", drop);
        }
        list.append(li);
      });
      section.hidden = items.length === 0;
      return items;
    });
  }
  function resolveConflict(item, resend) {
    store("readwrite", function (s) {
      if (resend) {
        item.base_seq = String(lastSeq());
        delete item.conflict;
        return s.put(item);
      }
      return s.delete(item.n);
    }).then(function () {
      showQueue();
      flush();
    });
  }
  var flushing = false;
  // Send what waits, oldest first, one at a time: the same client_id twice is one entry (the
  // server replays it), so an entry sent when the page closed is never doubled.
  function flush() {
    if (flushing || !navigator.onLine) {
      return Promise.resolve();
    }
    flushing = true;
    sending = true;
    function next() {
      return queued().then(function (items) {
        var item = items.find(function (i) { return !i.conflict; });
        if (!item) {
          return null;
        }
        var body = new FormData();
        item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
        body.set("base_seq", String(effectiveBase(item)));
        body.set("confirmed", "1");
        var token = (document.querySelector("#table input[name=csrfmiddlewaretoken]") || {}).value || item.csrf;
        body.set("csrfmiddlewaretoken", token);
        return post(body).then(function (response) {
          var type = response.headers.get("Content-Type") || "";
          if (response.ok && type.indexOf("text/html") === 0) {
            return response.text().then(function (html) {
              swapLive(html);
              return store("readwrite", function (s) { return s.delete(item.n); }).then(next);
            });
          }
          if (!isJson(response)) {
            item.conflict = text.textRefused + " (" + response.status + ")";
            return store("readwrite", function (s) { return s.put(item); }).then(next);
          }
          return response.json().then(function (data) {
            var message = ((data.errors || {}).__all__ || [text.textRefused]).join(" ");
            if (response.status === 409) {
              item.conflict = text.textConflict + " (" + message + ")";
              return store("readwrite", function (s) { return s.put(item); }).then(next);
            }
            if (data.redirect) {
              return store("readwrite", function (s) { return s.delete(item.n); }).then(next);
            }
            // Refused for good (the rules say no): shown, not sent again.
            item.conflict = text.textRefused + ": " + flatten(data.errors);
            return store("readwrite", function (s) { return s.put(item); }).then(next);
          });
        });
      });
    }
    return next()
      .catch(function () { /* the network dropped again: the rest waits */ })
      .then(function () {
        flushing = false;
        sending = false;
        showQueue();
        poll();
      });
  }
  // The log this entry was written against, moved past the entries this player sent since (his
  // own never clash with it); any entry by someone else keeps it where it was, and the server
  // says whether it touches the same warriors.
  function effectiveBase(item) {
    var base = parseInt(item.base_seq, 10);
    var last = lastSeq();
    for (var seq = base + 1; seq <= last; seq++) {
      var line = live().querySelector('[data-seq="' + seq + '"]');
      if (!line || line.dataset.author !== root.dataset.user) {
        return base;
      }
    }
    return last;
  }
  function flatten(errors) {
    return Object.keys(errors || {}).map(function (k) { return errors[k].join(" "); }).join(" ");
  }

  function showNetwork() {
    var status = document.getElementById("offline-status");
    status.hidden = navigator.onLine;
    status.textContent = navigator.onLine ? "" : text.textOffline;
  }
  window.addEventListener("online", function () {
    showNetwork();
    flush();
  });
  window.addEventListener("offline", showNetwork);

  // The navigation's fragments htmx would load (the page goes without htmx: its script is most
  // of what a phone evaluates here).
  if (!window.htmx) {
    Array.prototype.forEach.call(document.querySelectorAll('[hx-get][hx-trigger="load"]'), function (el) {
      fetch(el.getAttribute("hx-get"), { credentials: "same-origin", headers: { "HX-Request": "true" } })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html !== null) {
            var t = document.createElement("template");
            t.innerHTML = html;
            el.replaceWith(t.content);
          }
        })
        .catch(function () {});
    });
  }

  showNetwork();
  showQueue().then(function () { flush(); });
  whenIdle(prefetchCards, 0);
  setInterval(poll, POLL_MS);
  setInterval(function () { if (navigator.onLine) { flush(); } }, 5000);

  if ("serviceWorker" in navigator && root.dataset.sw) {
    navigator.serviceWorker.register(root.dataset.sw, { scope: "/" }).catch(function () {});
  }
})();
