// The page's language: English, German or Dutch. Every text is an English msgid with
// {name} placeholders (gettext style), translated through the catalogue the server
// builds from the .po files (GET /i18n/<lang>.json; docs/web.md, "Languages"):
//   t("Seat {n}", { n: 2 })                      → "Platz 2"
//   tn("{n} tile", "{n} tiles", 3)               → "3 Plättchen"   (n is also {n})
// The choice is remembered in this browser; without one, the page follows the language
// the server read from Accept-Language (<html lang data-asked>), else navigator.languages.
// This module loads its catalogue before anything imports it, so nothing is ever drawn
// in the wrong language.

export const LANGUAGES = { en: "English", de: "Deutsch", nl: "Nederlands" };
const KEY = "boardgames.language.v1";

let lang = "en";
let messages = {};
let plurals = ["one", "other"];
let rules = new Intl.PluralRules("en");
const listeners = new Set();

function fill(text, args) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in args && args[name] !== undefined && args[name] !== null ? String(args[name]) : whole));
}

/** The text of ``msgid`` in the page's language, placeholders filled from ``args``. */
export function t(msgid, args = {}) {
  const found = messages[msgid];
  return fill(typeof found === "string" && found ? found : msgid, args);
}

/** The singular or plural text for ``n`` (by Intl.PluralRules), ``{n}`` filled too. */
export function tn(singular, plural, n, args = {}) {
  const all = { n, ...args };
  const forms = messages[singular];
  if (Array.isArray(forms)) {
    const index = plurals.indexOf(rules.select(n));
    const form = forms[index >= 0 && index < forms.length ? index : forms.length - 1];
    if (form) return fill(form, all);
  }
  return fill(n === 1 ? singular : plural, all);
}

/** ``msgid`` in ``context`` (gettext's pgettext): the same English words that another
 * language says differently, e.g. ("you", "took {tile}") — "nahmst" rather than "nahm". */
export function tp(context, msgid, args = {}) {
  const found = messages[`${context}\u0004${msgid}`];
  return fill(typeof found === "string" && found ? found : msgid, args);
}

/** ``text`` (already translated) as a list of strings and nodes: each ``{name}`` whose
 * ``nodes[name]`` is a DOM node (or a list of them) becomes that node; others stay text. */
export function withNodes(text, nodes) {
  const parts = [];
  let at = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    if (!(m[1] in nodes)) continue;
    if (m.index > at) parts.push(text.slice(at, m.index));
    parts.push(nodes[m[1]]);
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** The page's language code ("en", "de", "nl"). */
export function language() {
  return lang;
}

/** A place: "1st" / "1." / "1e". */
export function ordinal(n) {
  if (lang === "de") return `${n}.`;
  if (lang === "nl") return `${n}e`;
  const suffix = n % 10 === 1 && n % 100 !== 11 ? "st"
    : n % 10 === 2 && n % 100 !== 12 ? "nd"
    : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th";
  return `${n}${suffix}`;
}

/** A seat's name as shown: a bot's is its label (a msgid) in the page's language, and
 * so is the name the server gives a seat open to the lobby ("Open seat"). */
export function seatLabel(seat) {
  if (!seat) return "";
  if (seat.kind === "bot") return t(seat.name);
  // the server's name for it (server/rows.py, OPEN_NAME)
  if (seat.open && !seat.invited && seat.name === "Open seat") return t("Open seat");
  return seat.name;
}

/** A bot's name from its label (a msgid, "Planner strong", "Greedy (casual)"), in the
 * page's language and without the remark in brackets: "Planer stark", "Gierig". Never
 * its spec ("planner:strong"): that is for programs. */
export function botName(label) {
  return t(label).replace(/\s*\([^()]*\)$/, "");
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy" in the page's language. */
export function listNames(names) {
  if (names.length < 2) return names.join("");
  return t("{names} and {last}", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** A time left in words, its two largest units: "2 days 4 h", "3 h 5 min", "7 min 20 s",
 * "45 s" (translated, with the language's plural for days). */
export function durationWords(seconds) {
  const total = Math.max(0, Math.floor(seconds)); // never more than is left
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const parts = [];
  if (days) parts.push(tn("{n} day", "{n} days", days), hours ? t("{n} h", { n: hours }) : "");
  else if (hours) parts.push(t("{n} h", { n: hours }), minutes ? t("{n} min", { n: minutes }) : "");
  else if (minutes) parts.push(t("{n} min", { n: minutes }), secs && minutes < 10 ? t("{n} s", { n: secs }) : "");
  else parts.push(t("{n} s", { n: secs }));
  return parts.filter(Boolean).join(" ");
}

/** ``value`` written in the page's language (Intl), never the browser's: ``digits``
 * decimals ("33.5" / "33,5"), thousands grouped ("1,200" / "1.200"). */
export function formatNumber(value, digits = 0) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** A change with its sign, one decimal: "+0.8", "-1.2", "0.0" (in the page's language). */
export function formatChange(value) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "exceptZero" }).format(value);
}

/** A moment, date and time, in the page's language: "Nov 26, 2026, 12:21 AM",
 * "26.11.2026, 00:21", "26 nov 2026, 00:21". */
export function formatDateTime(date) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(date));
}

/** A day ("2026-11-28", a UTC date such as a daily challenge's) in the page's language:
 * "November 28, 2026", "28. November 2026", "28 november 2026"; anything else as it is. */
export function formatDay(isoDay) {
  if (typeof isoDay !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(isoDay)) return String(isoDay ?? "");
  const day = new Date(`${isoDay}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return isoDay;
  return new Intl.DateTimeFormat(lang, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(day);
}

/** When a deadline falls, in the page's language (Intl): "Fri 14:05", or with the date
 * when it is a week or more away. */
export function deadlineWords(date) {
  const far = date - Date.now() > 6 * 86400 * 1000;
  const format = far
    ? { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }
    : { weekday: "short", hour: "2-digit", minute: "2-digit" };
  return new Intl.DateTimeFormat(lang, format).format(date);
}

function stored() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // storage refused (private mode)
  }
}

/** The language to start in: the remembered choice, else what the browser asks for. */
function initial() {
  const choice = stored();
  if (choice in LANGUAGES) return choice;
  const asked = document.documentElement.dataset.asked;
  if (asked in LANGUAGES) return asked;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const primary = String(tag).toLowerCase().split("-")[0];
    if (primary in LANGUAGES) return primary;
  }
  return "en";
}

async function load(code) {
  let catalogue = { messages: {}, plurals: ["one", "other"] };
  if (code !== "en") {
    try {
      const response = await fetch(`/i18n/${code}.json`);
      if (!response.ok) throw new Error(String(response.status));
      catalogue = await response.json();
    } catch {
      code = "en"; // no catalogue (offline, or an old server): English rather than nothing
    }
  }
  lang = code;
  messages = catalogue.messages || {};
  plurals = catalogue.plurals || ["one", "other"];
  rules = new Intl.PluralRules(code);
  document.documentElement.lang = code;
}

/** Switch the page to ``code`` and remember the choice; the listeners redraw. */
export async function setLanguage(code) {
  if (!(code in LANGUAGES)) return;
  try { localStorage.setItem(KEY, code); } catch { /* this page only */ }
  await load(code);
  for (const listener of listeners) listener(code);
}

/** Call ``listener(code)`` after each switch of language. */
export function onLanguageChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

await load(initial());

// Another tab of this page chose a language: follow it, as the colour symbols do.
window.addEventListener("storage", (event) => {
  if (event.key === KEY && event.newValue in LANGUAGES && event.newValue !== lang) {
    load(event.newValue).then(() => {
      for (const listener of listeners) listener(lang);
    });
  }
});
