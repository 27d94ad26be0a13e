// Small DOM helpers shared by the shell and the game modules.

const SVG_NS = "http://www.w3.org/2000/svg";

function put(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key === "text") el.textContent = value;
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, v);
        else el.style[prop] = v;
      }
    }
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** h("div", {class: "x", onclick: f}, child, ...) — an HTML element. */
export function h(tag, attrs, ...children) {
  return put(document.createElement(tag), attrs, children);
}

/** s("circle", {r: 3}) — an SVG element. */
export function s(tag, attrs, ...children) {
  return put(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function plural(n, word, many) {
  return `${n} ${n === 1 ? word : many || word + "s"}`;
}

export function ordinal(n) {
  const suffix = n % 10 === 1 && n % 100 !== 11 ? "st"
    : n % 10 === 2 && n % 100 !== 12 ? "nd"
    : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th";
  return `${n}${suffix}`;
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { style: { position: "fixed", opacity: "0" } });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    area.remove();
    return ok;
  }
}

const sheets = new Map(); // href → promise: each stylesheet is added once

/** Adds the stylesheet at ``url`` to the page; resolves once it applies, so nothing is drawn
 * unstyled. A failed load resolves too: the page then works, if plainly, rather than not at all. */
export function stylesheet(url) {
  const href = String(url);
  if (!sheets.has(href)) {
    sheets.set(href, new Promise((resolve) => {
      document.head.append(h("link", { rel: "stylesheet", href, onload: resolve, onerror: resolve }));
    }));
  }
  return sheets.get(href);
}

/** The module ``load()`` imports. After an upgrade this page's version of the code is gone
 * from the server (only the current one is served): a failed load says what helps. */
export async function loadCode(load) {
  try {
    return await load();
  } catch (err) {
    throw new Error(`The page's code could not be loaded (${err.message}). Reload the page: the server may have been updated.`, { cause: err });
  }
}
