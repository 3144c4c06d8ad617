/* Registers the service worker (/sw.js, docs/push.md) on every page: the installable app's
   shell and offline page. Its address comes from this script tag's data-sw attribute. */
(function () {
  "use strict";
  const script = document.currentScript;
  if (!script || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(script.dataset.sw).catch(function () {
    /* no worker (private mode, an old browser): the site works without it */
  });
})();
