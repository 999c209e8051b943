"""The one message catalogue of BALL Toolbox: Babel `.po` files in `ball/locales/`.

Every user-visible string — web pages, page scripts, the table clock and the printed
regulation's form labels — is a message of the `messages` domain here. It sits below every
layer that shows text (`ball.printing` and `ball.web` both read it), so printing never
imports the web. Messages that must read differently on paper than on screen carry a
message context (`pN_("printed form", "…")`).

Extract and update with `bash scripts/i18n.sh` (docs/web.md, "Translations").
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path
from typing import NamedTuple

LOCALES = Path(__file__).with_name("locales")
# Each language's name in that language (language switches, the printed colophon).
LANGUAGES: dict[str, str] = {"en": "English", "ko": "한국어", "bg": "Български"}
DEFAULT_LANGUAGE = "en"
DOMAIN = "messages"


class Marked(NamedTuple):
    """A message id with its context, marked for extraction and translated where shown."""

    context: str
    message: str


def N_(message: str) -> str:
    """Marks a message id for extraction; translated where it is shown."""
    return message


def pN_(context: str, message: str) -> Marked:
    """Marks a message id with a context (babel.cfg keyword `pN_:1c,2`)."""
    return Marked(context, message)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalogue of `lang`: the compiled `.mo` when present, else compiled from `.po`."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    folder = LOCALES / lang / "LC_MESSAGES"
    mo, po = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fh:
            return gettext.GNUTranslations(fh)
    if po.is_file():
        # A checkout without compiled catalogues still works: compile in memory. Babel is
        # imported here only: every `import ball.i18n` (the registry of games, so `ball
        # --help`) would pay ~50 ms for it.
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        with po.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        return gettext.GNUTranslations(buffer)
    return gettext.NullTranslations()


def gettext_for(lang: str):
    return translations(lang).gettext


def translate(lang: str, message: str | Marked) -> str:
    """`message` in `lang`: plain ids by gettext, context-marked ones by pgettext."""
    if isinstance(message, Marked):
        return translations(lang).pgettext(message.context, message.message)
    return translations(lang).gettext(message)
