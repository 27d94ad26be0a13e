// Translation: t("English text with {name}", {name}) and tn(singular, plural, n, args).
// A minimal stand-in (English only) until the catalogues arrive; callers stay the same.

function fill(text, args) {
  return String(text).replace(/\{(\w+)\}/g, (whole, key) => (key in args ? String(args[key]) : whole));
}

export function t(msgid, args = {}) {
  return fill(msgid, args);
}

export function tn(singular, plural, n, args = {}) {
  return fill(n === 1 ? singular : plural, { n, ...args });
}
