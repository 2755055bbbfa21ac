// Behaviour every page shares. The CSP allows scripts only from static files, so pages
// declare behaviour with data- attributes and this file attaches it (no inline handlers).
(function () {
  "use strict";

  // <form data-confirm="Pertanyaan?">: ask before a plain (non-htmx) form submits.
  // htmx forms use hx-confirm instead.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
})();
