// The table's "My notes" panel (templates/games/_private_notes.html): save the form without
// reloading the page, and keep an unsaved draft in this tab across a reload of the table
// (a move arriving reloads it). Only an enhancement: without JavaScript the form posts and
// the page comes back with the notes saved.
(function () {
  "use strict";
  var form = document.querySelector("form[data-private-notes]");
  // Run again after a live swap (static/js/table.js reruns the region's scripts): the
  // panel it keeps is the same element, already listened to.
  if (!form || form.dataset.notesReady) return;
  form.dataset.notesReady = "1";
  var field = form.querySelector("textarea");
  var status = form.querySelector("[data-notes-status]");
  var key = "piratz.notes-draft." + form.dataset.privateNotes;
  var saving = false;

  function remember() {
    try {
      if (field.value !== field.defaultValue) {
        window.sessionStorage.setItem(key, field.value);
      } else {
        window.sessionStorage.removeItem(key);
      }
    } catch (e) { /* storage off: no draft kept, the form still saves */ }
  }

  function tell(text, failed) {
    status.textContent = text;
    status.classList.toggle("error", !!failed);
  }

  // A draft typed before the page reloaded comes back, still unsaved (the field's
  // defaultValue stays the saved text, so the page knows it holds unsent input).
  try {
    var draft = window.sessionStorage.getItem(key);
    if (draft !== null && draft !== field.defaultValue) {
      field.value = draft;
      tell(form.dataset.draftText || "", false);
    }
  } catch (e) { /* storage off */ }

  field.addEventListener("input", remember);

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (saving) return;
    saving = true;
    var sent = field.value;
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
      .then(function (response) {
        return response.json().then(function (answer) { return { ok: response.ok, answer: answer }; });
      })
      .then(function (result) {
        if (!result.ok) {
          tell(result.answer.detail || "", true);
          return;
        }
        field.defaultValue = result.answer.text;
        // Typed on while it was saving: keep that, still unsaved.
        if (field.value === sent) field.value = result.answer.text;
        remember();
        tell(result.answer.detail, false);
      })
      .catch(function () {
        // Offline, or an answer that is not ours (a sign-in page): post the plain form.
        form.submit();
      })
      .then(function () { saving = false; });
  });
})();
