// Moderation (issue 46): a player page's Block and Report controls, the warnings a
// moderator gave you (shown until you acknowledge them), and the moderators' page
// (/moderation): the open reports with their context, the actions on a reported account
// (warn, mute its chat for a time, close it, or dismiss the report) and the log.
// Everything a player wrote is shown as text (textContent through h()), never as HTML.
import { api } from "./api.js";
import { formatDateTime, t } from "./i18n.js";
import { toast } from "./toast.js";
import { h } from "./util.js";

const REASONS = () => ({ spam: t("Spam"), abuse: t("Abuse"), cheating: t("Cheating"), other: t("Other") });
const ACTIONS = () => ({ warn: t("Warned"), mute: t("Muted"), close: t("Closed the account"), dismiss: t("Dismissed the report") });
const MUTES = () => [[1, t("1 hour")], [24, t("1 day")], [24 * 7, t("1 week")], [0, t("Lift the mute")]];

// -- a player's page: block or unblock, report ----------------------------------------------

/** The controls under another player's profile for the signed-in ``me`` (none for yourself
 * or signed out): block or unblock them, and report them with a reason. */
export async function playerControls(me, name) {
  if (!me || me.name === name) return null;
  const { blocked } = await api("/api/account/blocks");
  let isBlocked = blocked.some((b) => b.name === name);
  const button = h("button", { class: "btn ghost small", type: "button", "data-testid": "block-toggle" });
  const label = () => {
    button.textContent = isBlocked ? t("Unblock {name}", { name }) : t("Block {name}", { name });
    button.setAttribute("aria-pressed", isBlocked ? "true" : "false");
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await api(isBlocked ? "/api/account/blocks/remove" : "/api/account/blocks", { method: "POST", body: { name } });
      isBlocked = !isBlocked;
      label();
      toast(isBlocked ? t("{name} is blocked: you will not meet in games, invitations or mails.", { name }) : t("{name} is no longer blocked.", { name }), "ok");
    } catch (err) {
      toast(err.message, "error");
    } finally {
      button.disabled = false;
    }
  });
  label();
  return h("section", { class: "card moderation-player", "data-testid": "player-controls", "aria-labelledby": "player-controls-title" },
    h("h2", { id: "player-controls-title" }, t("Block or report")),
    h("p", { class: "muted" }, t("A blocked player cannot invite you, join your games or sit at a table with you; they are not told.")),
    h("div", { class: "row wrap" }, button),
    reportForm(name));
}

/** A report of ``name`` to the moderators: a reason and a few words. */
function reportForm(name, extra = {}) {
  const reasons = REASONS();
  const reason = h("select", { id: "report-reason", "data-testid": "report-reason" },
    ...Object.entries(reasons).map(([value, text]) => h("option", { value }, text)));
  const words = h("textarea", { id: "report-text", rows: 3, maxlength: 500, "data-testid": "report-text" });
  const send = h("button", { class: "btn small", type: "submit", "data-testid": "report-send" }, t("Send the report"));
  const form = h("form", { class: "report-form", "data-testid": "report-form" },
    h("label", { class: "field", for: "report-reason" }, h("span", {}, t("Reason")), reason),
    h("label", { class: "field wide", for: "report-text" }, h("span", {}, t("What happened (optional)")), words),
    h("div", { class: "row wrap" }, send));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    send.disabled = true;
    try {
      await api("/api/reports", { method: "POST", body: { account: name, reason: reason.value, text: words.value, ...extra } });
      words.value = "";
      toast(t("Thank you: the moderators will look at your report."), "ok");
    } catch (err) {
      toast(err.message, "error");
    } finally {
      send.disabled = false;
    }
  });
  return h("details", { class: "report" }, h("summary", { "data-testid": "report-open" }, t("Report {name}", { name })), form);
}

// -- your warnings ------------------------------------------------------------------------------

let shownWarnings = null; // the box on show, if any

/** Show the warnings a moderator gave the signed-in account, each until acknowledged. */
export async function showWarnings() {
  let warnings;
  try {
    ({ warnings } = await api("/api/account/warnings"));
  } catch {
    return; // signed out meanwhile, or the server is away: the next page load asks again
  }
  shownWarnings?.remove();
  shownWarnings = null;
  if (!warnings.length) return;
  const box = h("section", { class: "warnings card", role: "alert", "data-testid": "warnings", "aria-labelledby": "warnings-title" },
    h("h2", { id: "warnings-title" }, t("A warning from the moderators")));
  for (const warning of warnings) {
    box.append(h("div", { class: "warning" },
      h("p", { class: "muted" }, formatDateTime(warning.at)),
      h("p", { class: "warning-text", "data-testid": "warning-text" }, warning.text),
      h("button", { class: "btn small", type: "button", "data-testid": "warning-ack", onclick: async () => {
        try {
          await api(`/api/account/warnings/${warning.id}/acknowledge`, { method: "POST" });
        } catch (err) {
          toast(err.message, "error");
        }
        showWarnings();
      } }, t("I have read it"))));
  }
  document.getElementById("app").before(box);
  shownWarnings = box;
}

// a moderator's warning while a page is open: the account socket says so (live.js)
window.addEventListener("tabletop:warning", () => showWarnings());

// -- the moderators' page -------------------------------------------------------------------------

export async function showModeration(root) {
  document.title = `${t("Moderation")} · Tabletop`;
  const page = h("div", { class: "moderation-page", "data-testid": "moderation" });
  root.append(page);
  let data;
  try {
    data = await api("/api/moderation");
  } catch (err) {
    page.append(h("section", { class: "card narrow center", "data-testid": "moderation-refused" },
      h("h1", {}, t("Moderation")),
      h("p", {}, err.status === 401 ? t("Sign in first.") : t("This page is for the moderators.")),
      err.status === 401 ? h("a", { class: "btn primary", href: "/me" }, t("Sign in")) : null));
    return {};
  }
  const redraw = () => { page.remove(); showModeration(root); }; // the reports as they are now
  page.append(
    h("section", { class: "card" },
      h("h1", {}, t("Moderation")),
      h("p", { class: "muted" }, t("Signed in as {name}, a moderator. Every action is logged.", { name: data.moderator }))),
    h("section", { class: "card", "aria-labelledby": "reports-title", "data-testid": "reports" },
      h("h2", { id: "reports-title" }, t("Open reports")),
      data.reports.length
        ? h("ul", { class: "report-list" }, ...data.reports.map((r) => h("li", {}, reportCard(r, redraw))))
        : h("p", { class: "muted", "data-testid": "no-reports" }, t("No open reports."))),
    logCard(data.log));
  return {};
}

function reportCard(report, redraw) {
  const reasons = REASONS();
  const context = report.context || {};
  const heading = `report-${report.id}-title`;
  return h("article", { class: "report-card", "data-testid": `report-${report.id}`, "aria-labelledby": heading },
    h("h3", { id: heading }, t("{account}: {reason}", { account: report.account, reason: reasons[report.reason] || report.reason })),
    h("p", { class: "muted" }, report.reporter
      ? t("Reported by {name}, {when}", { name: report.reporter, when: formatDateTime(report.at) })
      : t("Reported by a deleted account, {when}", { when: formatDateTime(report.at) })),
    report.text ? h("blockquote", { class: "report-text", "data-testid": "report-words" }, report.text) : null,
    h("p", { class: "muted" },
      context.created ? t("Account made {when}", { when: formatDateTime(context.created) }) : null,
      report.game ? [" · ", h("a", { href: `/g/${encodeURIComponent(report.game)}` }, t("the game"))] : null),
    context.messages?.length ? chatContext(context.messages, report.message) : null,
    actions(report, redraw));
}

/** The reported message and those before it, as text (a link stays a word, not a link). */
function chatContext(messages, reported) {
  return h("ol", { class: "chat-context", "aria-label": t("The chat before the reported message"), "data-testid": "chat-context" },
    ...messages.map((m) => h("li", { class: m.id === reported ? "reported" : null },
      h("strong", {}, m.name ?? "?"), ": ", String(m.text ?? m.phrase ?? ""))));
}

/** Warn, mute for a time, close the account (asked twice), or dismiss the report. */
function actions(report, redraw) {
  const id = report.id;
  const act = (path, body, done) => async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      await api(path, { method: "POST", body });
      toast(done, "ok");
      redraw();
    } catch (err) {
      toast(err.message, "error");
      button.disabled = false;
    }
  };
  const on = { account: report.account, report: id };
  const warning = h("textarea", { id: `warn-${id}`, rows: 2, maxlength: 1000, "data-testid": `warn-text-${id}` });
  const hours = h("select", { id: `mute-${id}`, "data-testid": `mute-hours-${id}` },
    ...MUTES().map(([n, text]) => h("option", { value: n }, text)));
  const close = h("button", { class: "btn ghost small danger", type: "button", "data-testid": `close-${id}`, onclick: () => {
    close.replaceWith(h("button", { class: "btn small danger", type: "button", "data-testid": `close-confirm-${id}`,
      onclick: act("/api/moderation/close", on, t("{name}'s account is closed.", { name: report.account })) },
    t("Yes, close {name}'s account", { name: report.account })));
  } }, t("Close the account"));
  return h("div", { class: "moderation-actions", role: "group", "aria-label": t("Actions on {name}", { name: report.account }) },
    h("label", { class: "field wide", for: `warn-${id}` }, h("span", {}, t("Warning to {name}", { name: report.account })), warning),
    h("div", { class: "row wrap" },
      h("button", { class: "btn small", type: "button", "data-testid": `warn-${id}`, onclick: async (event) => {
        if (!warning.value.trim()) {
          toast(t("Write the warning first."), "error");
          return;
        }
        await act("/api/moderation/warn", { ...on, text: warning.value }, t("{name} is warned.", { name: report.account }))(event);
      } }, t("Warn"))),
    h("div", { class: "row wrap" },
      h("label", { class: "field", for: `mute-${id}` }, h("span", {}, t("Mute the chat for")), hours),
      h("button", { class: "btn small", type: "button", "data-testid": `mute-${id}`,
        onclick: (event) => act("/api/moderation/mute", { ...on, hours: Number(hours.value) }, t("{name}'s chat is muted.", { name: report.account }))(event) }, t("Mute"))),
    h("div", { class: "row wrap" },
      close,
      h("button", { class: "btn ghost small", type: "button", "data-testid": `dismiss-${id}`,
        onclick: act(`/api/moderation/reports/${id}/dismiss`, {}, t("The report is dismissed.")) }, t("Dismiss the report"))));
}

function logCard(log) {
  const actionNames = ACTIONS();
  const detail = (line) => {
    const d = line.details || {};
    if (line.action === "mute") return d.until ? t("until {when}", { when: formatDateTime(d.until * 1000) }) : t("mute lifted");
    return d.text || d.note || "";
  };
  return h("section", { class: "card", "aria-labelledby": "log-title", "data-testid": "moderation-log" },
    h("h2", { id: "log-title" }, t("Log")),
    log.length
      ? h("ul", { class: "game-list moderation-log" }, ...log.map((line) => h("li", { "data-testid": "log-line" },
        h("span", { class: "muted" }, formatDateTime(line.at)), " ",
        t("{moderator} · {action} · {account}", { moderator: line.moderator, action: actionNames[line.action] || line.action, account: line.account }),
        detail(line) ? h("span", { class: "log-detail" }, " — ", detail(line)) : null)))
      : h("p", { class: "muted" }, t("Nothing yet.")));
}
