// "Salin sitasi": copy a search hit's citation. Loaded as a static file (strict CSP); the
// buttons carry the text in data-copy-citation and are wired by delegation, so results
// swapped in by htmx work without re-binding.
(function () {
  "use strict";

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      // A clipboard write can hang without window focus: give it a moment, then fall back.
      const timeout = new Promise((_, reject) => window.setTimeout(() => reject(new Error("timeout")), 1500));
      return Promise.race([navigator.clipboard.writeText(text), timeout]).catch(() =>
        copyBySelection(text),
      );
    }
    return copyBySelection(text);
  }

  // Plain-HTTP intranet pages (and a refused clipboard permission) have no clipboard API:
  // copy from a selected, off-screen textarea instead.
  function copyBySelection(text) {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "sr-only";
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok ? Promise.resolve() : Promise.reject(new Error("copy failed"));
  }

  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("[data-copy-citation]");
    if (!button) return;
    const original = button.textContent;
    copyText(button.dataset.copyCitation).then(
      () => {
        button.textContent = button.dataset.copiedLabel || original;
        button.dataset.copied = "true";
        window.setTimeout(() => {
          button.textContent = original;
          delete button.dataset.copied;
        }, 2000);
      },
      () => {
        button.dataset.copied = "false";
      },
    );
  });
})();
