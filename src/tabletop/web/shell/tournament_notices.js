// A tournament's start, as the account socket brings it to its entrants (server
// tournament_notices.py): five minutes before ("soon") and at the start ("started"). A
// notice on this page and, where notifications are on, a browser notification (one per
// event and stage: the tag) that opens the event's page.
import { durationWords, t } from "./i18n.js";
import { notifying } from "./live.js";
import { toast } from "./toast.js";

/** The notice's text, as the page words it (the event's name is the organiser's text:
 * only ever set as textContent, by toast and Notification). */
export function noticeText(msg) {
  const name = msg.tournament.name;
  return msg.event === "soon"
    ? t("The tournament {event} starts in {time}", { event: name, time: durationWords(msg.left) })
    : t("The tournament {event} has started", { event: name });
}

export function showTournamentNotice(msg) {
  const event = msg.tournament;
  const text = noticeText(msg);
  toast(text, "info", 15000);
  if (!notifying()) return;
  const note = new Notification(t("Tournament · {game}", { game: event.title }), { body: text, tag: `${event.id}:${msg.event}` });
  note.onclick = () => {
    window.focus();
    history.pushState(null, "", event.url);
    window.dispatchEvent(new PopStateEvent("popstate"));
    note.close();
  };
}
