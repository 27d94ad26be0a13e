"""What each mail says: the texts of every kind of mail the server sends
(``MAIL_KINDS``), in the reader's language, as ``mail.Mail`` values.

Text from players (seat names, account names) goes into the body only, as one
visible line (``mail.plain_text``); the one name a subject carries is the inviter's
account name (letters, digits, spaces and ``-_.``), and ``Mail.wire`` neutralises
any subject once more. Game titles and bots' names come from the code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote, urlsplit

from ..i18n import LANGUAGES, fill, translate
from .mail import Mail, MailSettings, plain_text
from .rows import MailRow

#: every kind of mail the server sends; ``Composer.<kind>_mail`` writes each
MAIL_KINDS = ("verification", "turn", "invitation", "digest")


class Texts:
    """A mail's sentences in one language (msgids, translated as the page's are)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGUAGES else "en"

    def __call__(self, msgid: str, **args: Any) -> str:
        return fill(translate(self.lang, msgid), args)

    def name(self, name: str, kind: str) -> str:
        """A seat's name as one visible line: a bot's is a label the page translates too."""
        return translate(self.lang, name) if kind == "bot" else plain_text(name)

    def names(self, seats: Sequence[tuple[str, str]]) -> str:
        """Seats' names (``(name, kind)`` pairs), comma-separated."""
        return ", ".join(self.name(name, kind) for name, kind in seats)


class Composer:
    """Writes the mails; ``unsubscribe_token(account, address)`` signs each mail's
    link that stops them (notify.Signer)."""

    def __init__(
        self, settings: MailSettings, unsubscribe_token: Callable[[int, str], str]
    ) -> None:
        self.settings = settings
        self._unsubscribe_token = unsubscribe_token

    def verification_mail(self, to: MailRow, token: str) -> Mail:
        t = Texts(to.lang)
        body = [
            t("Hello {name},", name=plain_text(to.name)),
            "",
            t("please confirm that this is your e-mail address for game notifications:"),
            self.link(f"/mail/verify?token={quote(token)}"),
            "",
            t("The link works for three days. If you did not ask for this, ignore this mail."),
        ]
        return self.message(to, t("Confirm your e-mail address"), body)

    def turn_mail(
        self, to: MailRow, game_id: str, title: str, others: Sequence[tuple[str, str]]
    ) -> Mail:
        t = Texts(to.lang)
        body = [
            t("Hello {name},", name=plain_text(to.name)),
            "",
            t("it is your turn in {game} with {players}.", game=title, players=t.names(others)),
            "",
            t("Open the game:"),
            self.link(f"/g/{game_id}"),
        ]
        return self.message(to, t("Your turn: {game}", game=title), body)

    def invitation_mail(
        self, to: MailRow, inviter: str, title: str, others: Sequence[tuple[str, str]]
    ) -> Mail:
        t = Texts(to.lang)
        inviter = plain_text(inviter)
        body = [
            t("Hello {name},", name=plain_text(to.name)),
            "",
            t(
                "{inviter} invites you to {game} with {players}.",
                inviter=inviter,
                game=title,
                players=t.names(others),
            ),
            "",
            t("Accept or decline the invitation in My games:"),
            self.link("/me"),
        ]
        subject = t("{inviter} invites you to {game}", inviter=inviter, game=title)
        return self.message(to, subject, body)

    def digest_mail(self, to: MailRow, games: Sequence[dict[str, Any]]) -> Mail:
        """``games``: as *My games* lists them (``title``, ``url``, ``seat``, ``seats``)."""
        t = Texts(to.lang)
        body = [
            t("Hello {name},", name=plain_text(to.name)),
            "",
            t("these games are waiting for your move:"),
            "",
        ]
        for game in games:
            others = [(s["name"], s["kind"]) for s in game["seats"] if s["seat"] != game["seat"]]
            body += ["* " + t("{game} with {players}", game=game["title"], players=t.names(others))]
            body += [f"  {self.link(game['url'])}"]
        subject = t("{n} games are waiting for your move", n=len(games))
        if len(games) == 1:
            subject = t("A game is waiting for your move")
        return self.message(to, subject, body)

    # -- every mail -------------------------------------------------------------------------

    def link(self, path: str) -> str:
        return self.settings.public_url.rstrip("/") + path

    def message(self, to: MailRow, subject: str, body: list[str]) -> Mail:
        """A plain-text mail to ``to`` with an unsubscribe link: in the text, and as
        ``List-Unsubscribe`` (one click: RFC 8058), a plain ``<https://...>`` on one line
        however long (RFC 2369; an encoded or folded URL is one mail programs miss)."""
        t = Texts(to.lang)
        token = quote(self._unsubscribe_token(to.account_id, to.address))
        unsubscribe = self.link(f"/mail/unsubscribe?token={token}")
        host = urlsplit(self.settings.public_url).hostname or "localhost"
        footer = [
            "",
            "-- ",
            t("You get this mail because you asked for it on {site}.", site=host),
            t("No more mails: {link}", link=unsubscribe),
        ]
        headers = (
            ("Content-Language", t.lang),
            ("Auto-Submitted", "auto-generated"),
            ("List-Unsubscribe", f"<{self.link(f'/api/mail/unsubscribe?token={token}')}>"),
            ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
        )
        text = "\n".join([*body, *footer]) + "\n"
        return Mail(self.settings.sender, to.address, subject, text, headers)
