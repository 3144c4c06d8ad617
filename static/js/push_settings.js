/* The settings page's "Notify me on this device" (docs/push.md): ask for permission,
   register the service worker, subscribe with the site's VAPID key and post the
   subscription to the API. Texts and addresses come from the section's data-* attributes
   (translated by the template). */
(function () {
  "use strict";
  const box = document.querySelector("[data-push]");
  if (!box) return;
  const button = box.querySelector("[data-push-subscribe]");
  const status = box.querySelector("[data-push-status]");
  const csrf = box.querySelector("input[name=csrfmiddlewaretoken]");

  function say(name) {
    status.textContent = box.dataset[name] || "";
  }

  function keyBytes(base64url) {
    const base64 = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = window.atob(base64);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function post(subscription) {
    return fetch(box.dataset.api, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": csrf ? csrf.value : "",
      },
      body: JSON.stringify(subscription),
    }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    });
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window) || !box.dataset.vapidKey) {
    say("msgUnsupported");
    return;
  }
  button.hidden = false;
  button.addEventListener("click", function () {
    button.disabled = true;
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") {
          say("msgDenied");
          return null;
        }
        return navigator.serviceWorker.register(box.dataset.sw)
          .then(function () { return navigator.serviceWorker.ready; })
          .then(function (registration) {
            return registration.pushManager.subscribe({
              userVisibleOnly: true,
              applicationServerKey: keyBytes(box.dataset.vapidKey),
            });
          })
          .then(function (subscription) { return post(subscription.toJSON()); })
          .then(function () { say("msgOn"); });
      })
      .catch(function () { say("msgFailed"); })
      .then(function () { button.disabled = false; });
  });
})();
