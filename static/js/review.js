// Review page: the keyboard loop (j/k move, a approve, r reject, e edit, Ctrl+Enter save,
// Esc leave the text), focus on the next pending chunk after each decision, the confirm
// step of "Setujui semua di atas X", and the page-image line highlight while editing.
(function () {
  "use strict";
  const SELECTOR = "article.review-chunk";

  function chunks() { return Array.from(document.querySelectorAll(SELECTOR)); }
  function pending() { return chunks().filter((c) => c.dataset.state === "pending"); }
  function current() { return document.querySelector(SELECTOR + ".is-current"); }

  function select(chunk, options) {
    if (!chunk) return;
    chunks().forEach((c) => c.classList.toggle("is-current", c === chunk));
    chunk.focus({ preventScroll: true });
    chunk.scrollIntoView({ block: (options && options.block) || "nearest" });
  }

  function move(step) {
    const list = chunks();
    if (!list.length) return;
    const index = list.indexOf(current());
    const next = index < 0 ? 0 : Math.min(Math.max(index + step, 0), list.length - 1);
    select(list[next]);
  }

  // After a decision the chunk is swapped: go to the next pending one after it (or before).
  function nextPendingFrom(id) {
    const list = chunks();
    const at = list.findIndex((c) => c.id === id);
    const after = list.slice(at + 1).find((c) => c.dataset.state === "pending");
    return after || pending()[0] || null;
  }

  function press(action) {
    const chunk = current();
    if (!chunk || chunk.dataset.state !== "pending") return;
    const button = chunk.querySelector('[data-review="' + action + '"]');
    if (button) button.click();
  }

  function typing(target) {
    return target && (target.tagName === "TEXTAREA" || target.tagName === "INPUT" ||
      target.tagName === "SELECT" || target.isContentEditable);
  }

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.metaKey) return;
    const target = event.target;
    if (typing(target)) {
      const chunk = target.closest(SELECTOR);
      if (!chunk) return;
      if (event.key === "Enter" && event.ctrlKey) {
        event.preventDefault();
        chunk.classList.add("is-current");
        press("save");
      } else if (event.key === "Escape") {
        event.preventDefault();
        select(chunk);
      }
      return;
    }
    if (event.ctrlKey) return;
    const actions = {
      j: () => move(1),
      k: () => move(-1),
      a: () => press("approve"),
      r: () => press("reject"),
      e: () => {
        const chunk = current();
        const text = chunk && chunk.querySelector("textarea");
        if (text) { text.focus(); text.setSelectionRange(0, 0); }
      },
    };
    const handler = actions[event.key];
    if (handler) { event.preventDefault(); handler(); }
  });

  // Clicking or tabbing into a chunk makes it the current one.
  document.addEventListener("focusin", (event) => {
    const chunk = event.target.closest && event.target.closest(SELECTOR);
    if (chunk) chunks().forEach((c) => c.classList.toggle("is-current", c === chunk));
  });

  let lastAction = null;
  document.body.addEventListener("htmx:beforeRequest", (event) => {
    const elt = event.detail.elt;
    const button = elt && elt.closest && elt.closest("[data-review]");
    const chunk = elt && elt.closest && elt.closest(SELECTOR);
    lastAction = button && chunk ? { id: chunk.id, action: button.dataset.review } : null;
  });

  document.body.addEventListener("htmx:afterSettle", (event) => {
    const target = event.detail.target;
    if (target && target.id === "approve-above-confirm") {
      const yes = document.getElementById("approve-above-yes");
      if (yes) yes.focus();
      return;
    }
    // The out-of-band status swap settles too; only the chunk's own swap moves focus.
    if (!lastAction || !target || target.id !== lastAction.id) return;
    const { id, action } = lastAction;
    lastAction = null;
    const swapped = document.getElementById(id);
    if (action === "save" || (swapped && swapped.querySelector(".alert-error"))) {
      select(swapped);  // still pending (or refused): stay, so "a" approves the correction
      return;
    }
    const next = nextPendingFrom(id);
    if (next) select(next, { block: "start" });
    else {
      const status = document.getElementById("review-status");
      if (status) { status.tabIndex = -1; status.focus(); }
    }
  });

  // The page image outlines every doubtful line; the line under the caret is highlighted.
  // Line offsets (data-o, data-n) count characters of the chunk text with whitespace
  // collapsed, as stored at ingestion; a correction shifts them only a little.
  function highlightLine(textarea) {
    const chunk = textarea.closest(SELECTOR);
    const lines = chunk ? Array.from(chunk.querySelectorAll(".page-overlay rect[data-o]")) : [];
    if (!lines.length) return;
    const before = textarea.value.slice(0, textarea.selectionStart);
    const position = before.replace(/\s+/g, " ").replace(/^ /, "").length;
    let active = null;
    for (const line of lines) {
      if (Number(line.dataset.o) <= position) active = line;
    }
    lines.forEach((line) => line.classList.toggle("line-active", line === active));
  }

  ["keyup", "click", "focusin", "input", "select"].forEach((type) => {
    document.addEventListener(type, (event) => {
      const target = event.target;
      if (target && target.tagName === "TEXTAREA" && target.closest(SELECTOR)) highlightLine(target);
    });
  });
  document.addEventListener("focusout", (event) => {
    const target = event.target;
    const chunk = target && target.tagName === "TEXTAREA" && target.closest(SELECTOR);
    if (chunk) chunk.querySelectorAll(".line-active").forEach((l) => l.classList.remove("line-active"));
  });

  // Start on the first pending chunk so the keys work at once.
  const first = pending()[0];
  if (first) select(first, { block: "nearest" });
})();
