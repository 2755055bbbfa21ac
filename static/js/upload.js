// Upload page: drag-and-drop into the file input and an early, per-file check against the
// limits the server enforces anyway (size and format), so nobody waits on a doomed upload.
(function () {
  "use strict";
  const form = document.getElementById("upload-form");
  if (!form) return;
  const input = document.getElementById("id_files");
  const zone = document.getElementById("dropzone");
  const list = document.getElementById("file-list");
  const maxBytes = Number(form.dataset.maxBytes);
  const extensions = form.dataset.extensions.split(",");
  const legacy = { doc: "docx", xls: "xlsx", ppt: "pptx" };

  function humanSize(bytes) {
    const units = ["B", "KB", "MB", "GB"];
    let value = bytes;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit += 1; }
    return value.toFixed(unit === 0 ? 0 : 1).replace(".", ",") + " " + units[unit];
  }

  function problem(file) {
    const dot = file.name.lastIndexOf(".");
    const ext = dot >= 0 ? file.name.slice(dot + 1).toLowerCase() : "";
    if (legacy[ext]) return "Format ." + ext + " lama tidak didukung; simpan ulang sebagai ." + legacy[ext] + ".";
    if (!extensions.includes(ext)) return "Jenis berkas tidak didukung (" + (ext ? "." + ext : "tanpa ekstensi") + ").";
    if (file.size > maxBytes) return "Berkas terlalu besar (" + humanSize(file.size) + "); batas maksimum " + humanSize(maxBytes) + ".";
    if (file.size === 0) return "Berkas kosong (0 byte).";
    return "";
  }

  function render() {
    list.replaceChildren();
    for (const file of input.files) {
      const item = document.createElement("li");
      const reason = problem(file);
      item.className = reason ? "bad" : "good";
      const name = document.createElement("span");
      name.textContent = file.name + " · " + humanSize(file.size);
      item.append(name);
      if (reason) {
        const note = document.createElement("span");
        note.className = "reason";
        note.textContent = reason;
        item.append(note);
      }
      list.append(item);
    }
  }

  input.addEventListener("change", render);
  ["dragenter", "dragover"].forEach((type) => zone.addEventListener(type, (event) => {
    event.preventDefault();
    zone.classList.add("over");
  }));
  ["dragleave", "drop"].forEach((type) => zone.addEventListener(type, () => zone.classList.remove("over")));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    const transfer = new DataTransfer();
    for (const file of input.files) transfer.items.add(file);
    for (const file of event.dataTransfer.files) transfer.items.add(file);
    input.files = transfer.files;
    render();
  });
  document.body.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.elt === form && event.detail.successful) {
      input.value = "";
      render();
    }
  });
})();
