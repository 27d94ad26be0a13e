// Polite, self-dismissing notices in a corner of the screen.
import { h } from "./util.js";
import { capitalise } from "./api.js";
import { t } from "./i18n.js";

export function toast(message, kind = "info", ms) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const text = capitalise(message instanceof Error ? message.message : message);
  // The same message twice in a row: refresh the old one instead of stacking.
  for (const old of box.children) {
    if (old.dataset.text === text) old.remove();
  }
  const icon = { error: "!", ok: "✓", info: "i" }[kind] || "i";
  const el = h("div", { class: `toast toast-${kind}`, "data-testid": "toast", dataset: { text }, role: kind === "error" ? "alert" : "status" },
    h("span", { class: "toast-icon", "aria-hidden": "true" }, icon),
    h("span", { class: "toast-text" }, text),
    h("button", { class: "toast-close", "aria-label": t("Dismiss"), onclick: () => el.remove() }, "×"));
  box.append(el);
  while (box.children.length > 4) box.firstChild.remove();
  setTimeout(() => el.classList.add("toast-out"), (ms ?? (kind === "error" ? 7000 : 3500)));
  setTimeout(() => el.remove(), (ms ?? (kind === "error" ? 7000 : 3500)) + 400);
}
