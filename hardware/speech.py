"""Spoken announcements: sentences turned into speech with espeak-ng (or Piper), on the Pi's audio output.

Two ways out: :func:`write_wav` writes one text as a WAV file (``replay
--narrate --speak OUT.wav``), and a :class:`Speaker` says sentences aloud on
the default ALSA device, one at a time, on its own worker thread. Like the other
adapters there is a mock side: :class:`MockSpeaker` only records what it was
asked to say.

The engine is espeak-ng (Debian package ``espeak-ng``; it speaks to the audio
device itself). Piper is used instead when its ``piper`` binary is on the PATH
and ``$CLUE_PIPER_VOICES`` names a directory holding a voice model for the
language (``de_DE-thorsten-medium.onnx`` for de-DE, else any ``de_*.onnx``);
Piper writes a WAV, which ``aplay`` plays. Text always goes to the engine on
standard input, never on its command line.

Speech must never hold up the game: :meth:`Speaker.say` only queues the
sentence (a small queue that drops its oldest sentence when full), and a
sentence still speaking after its time limit is killed.

>>> speaker = MockSpeaker()
>>> speaker.say("Miss Scarlet rolls 4.", "en-GB")
>>> speaker.said
[('Miss Scarlet rolls 4.', 'en-GB')]
>>> voice_for("en-GB"), voice_for("de"), voice_for("fr-CH")
('en-gb', 'de', 'fr-ch')
>>> pronounce("Dr. Black and Mrs. White", "de")
'Doktor Black and Missis White'
"""

from __future__ import annotations

import collections
import logging
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.rules.errors import ClueError

__all__ = ["ENGINES", "PRONUNCIATIONS", "MockSpeaker", "Speaker", "SpeechError", "Voice", "choose_voice", "feed",
           "pronounce", "voice_for", "write_wav"]

log = logging.getLogger(__name__)

ENGINES = ("auto", "espeak-ng", "piper")
PIPER_VOICES = "CLUE_PIPER_VOICES"  # a directory of Piper voice models (*.onnx with their *.onnx.json)
# espeak-ng's voice per locale tag, then per language (``espeak-ng --voices`` lists them).
VOICES = {"en-us": "en-us", "en-gb": "en-gb", "fr-ch": "fr-ch", "es-419": "es-419",
          "en": "en-us", "de": "de", "fr": "fr-fr", "es": "es", "nb": "nb", "no": "nb"}
# Words an espeak-ng voice says wrong, per locale tag or language: (written, what espeak-ng is given instead),
# plain spelling or espeak-ng's [[phoneme]] input. Each was found in the phonemes ``espeak-ng -q -x -v VOICE TEXT``
# prints (espeak-ng(1); version 1.51, as in Debian 12; not heard on a Pi): an abbreviation's full stop ends a
# clause (a pause: "Missus. White"), and de/es spell "Dr."/"Mrs." letter by letter ("De Er", "eme erre ese").
# The comments give the phonemes before -> after. Only espeak-ng gets these; Piper reads the text as written.
PRONUNCIATIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("Mrs.", "Mrs"), ("Mr.", "Mr"), ("Dr.", "Dr"), ("Rev.", "Reverend"), ("Prof.", "Professor")),
    "de": (("Cluedo", "[[klu'e:do:]]"),  # kl'u:e:d,o: -> klu'e:do: (German Wikipedia: mostly said [kluˈeːdo])
           ("CLUE", "Kluh"),  # kl'y: (German ü) -> kl'u:
           ("Mrs.", "Missis"), ("Mr.", "Mister"), ("Dr.", "Doktor"), ("Rev.", "Reverend"), ("Prof.", "Professor"),
           ("Gatow", "Gato"),  # g'Ato:f -> g'A:to: (-ow as in Berlin-Gatow)
           ("Bloom", "Bluhm"),  # bl'o:m -> bl'u:m
           ("Madame", "[[mad'am]]"),  # m'AdA:m@ -> mad'am
           ("Curry", "Körry"),  # k'URi: -> k'WRi:
           ("Evelyn", "Evelin")),  # 'e:v@l,y:n -> ,e:v@l'i:n
    "fr": (("Cluedo", "Cluédo"),  # kly@d'o -> klyed'o
           ("CLUE", "Clou"),  # kl'y -> kl'u
           ("Mrs.", "Mrs"), ("Mr.", "Monsieur"), ("Dr.", "Docteur"), ("Rev.", "Révérend"), ("Prof.", "Professeur"),
           ("Evelyn", "Évelyne"),  # evEl'E~ -> evl'in
           ("Dunkel", "[[dunk'El]]")),  # dW~k'El -> dunk'El
    "es": (("CLUE", "Clu"),  # klu'e -> kl'u
           ("Mrs.", "Misis"), ("Mr.", "Míster"), ("Dr.", "Doctor"), ("Rev.", "Reverendo"), ("Prof.", "Profesor"),
           ("Senorita", "Señorita"), ("Senora", "Señora")),  # s,eno**'ita -> s,en^o**'ita
}
QUEUE = 4  # sentences waiting to be spoken; more and the oldest is dropped (it is stale by then)
SAY_TIMEOUT = 20.0  # seconds one spoken sentence may take before it is killed


class SpeechError(ClueError, OSError):
    """No speech: the engine is missing, has no voice for the language, failed or took too long."""

    code = "speech"


def voice_for(language: str) -> str:
    """espeak-ng's voice for a locale tag ("en-GB") or a language ("de"); SpeechError if it has none."""
    tag = language.strip().replace("_", "-").lower()
    voice = VOICES.get(tag) or VOICES.get(tag.split("-", 1)[0])
    if voice is None:
        raise SpeechError("no voice for the language {language!r}", language=language)
    return voice


def pronounce(text: str, language: str) -> str:
    """``text`` as espeak-ng is given it in ``language``: the words of :data:`PRONUNCIATIONS` replaced.

    The locale's own list comes first ("de-ch"), then its language's ("de"); only whole words are replaced.
    """
    tag = language.strip().replace("_", "-").lower()
    for key in dict.fromkeys((tag, tag.split("-", 1)[0])):
        for written, said in PRONUNCIATIONS.get(key, ()):
            # a function, not a template, so the replacement is taken as it is
            text = re.sub(rf"(?<![\w.]){re.escape(written)}(?!\w)", _said(said), text)
    return text


def _said(said: str) -> Callable[[re.Match[str]], str]:
    return lambda _match: said


@dataclass(frozen=True)
class Voice:
    """How one language is spoken: the engine's binary and, for Piper, its voice model."""

    engine: str  # "espeak-ng" or "piper"
    binary: str
    name: str  # espeak-ng's voice, or the Piper model's file name
    model: Path | None = None

    def wav_argv(self, path: Path) -> list[str]:
        """The command writing standard input's text as speech to the WAV file ``path``."""
        if self.model is not None:
            return [self.binary, "--model", str(self.model), "--output_file", str(path)]
        return [self.binary, "-v", self.name, "-w", str(path)]


def choose_voice(language: str, engine: str = "auto", environ: Mapping[str, str] | None = None) -> Voice:
    """The voice for ``language``: Piper if wanted (or, on "auto", available) for it, else espeak-ng."""
    if engine not in ENGINES:
        raise SpeechError("unknown speech engine {engine!r}", engine=engine)
    environ = os.environ if environ is None else environ
    if engine != "espeak-ng":
        piper = shutil.which("piper", path=environ.get("PATH"))
        model = _piper_model(language, environ.get(PIPER_VOICES))
        if piper and model:
            return Voice("piper", piper, model.name, model)
        if engine == "piper":
            raise SpeechError("Piper needs its piper binary on the PATH and a voice model for {language!r} in "
                              "$CLUE_PIPER_VOICES", language=language)
    binary = shutil.which("espeak-ng", path=environ.get("PATH"))
    if binary is None:
        raise SpeechError("espeak-ng is not installed: sudo apt install espeak-ng")
    return Voice("espeak-ng", binary, voice_for(language))


def _piper_model(language: str, folder: str | None) -> Path | None:
    """A Piper model for the locale ("de_DE-*.onnx"), else for its language ("de_*.onnx"), in ``folder``."""
    if not folder or not Path(folder).is_dir():
        return None
    tag = language.strip().replace("-", "_")
    first = tag.split("_", 1)[0].lower()
    for pattern in (f"{tag}-*.onnx", f"{first}_*.onnx"):
        models = sorted(Path(folder).glob(pattern))
        if models:
            return models[0]
    return None


def write_wav(text: str, language: str, path: str | os.PathLike[str], *, engine: str = "auto",
              timeout: float | None = None) -> None:
    """Write ``text`` spoken in ``language`` (a locale tag or a language) as a WAV file at ``path``.

    The time limit grows with the text (a whole game's narration takes a while); SpeechError says
    what went wrong.
    """
    voice = choose_voice(language, engine)
    limit = timeout if timeout is not None else 10.0 + len(text) / 100
    feed(voice.wav_argv(Path(path)), text if voice.model is not None else pronounce(text, language), limit)


def feed(argv: Sequence[str], text: str, timeout: float) -> None:
    """Run ``argv`` with ``text`` on standard input, within ``timeout`` seconds (killed after it)."""
    try:
        done = subprocess.run(argv, input=text.encode("utf-8"), capture_output=True, timeout=timeout, check=False)
    except FileNotFoundError:
        raise SpeechError("{program} is not installed", program=argv[0]) from None
    except subprocess.TimeoutExpired:
        raise SpeechError("{program} took longer than {seconds} s", program=Path(argv[0]).name,
                          seconds=round(timeout, 1)) from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        raise SpeechError("{program} failed: {why}", program=Path(argv[0]).name, why=why[0])


def _play(text: str, language: str, timeout: float) -> None:
    """Say ``text`` on the default audio device: espeak-ng itself, or Piper's WAV through aplay."""
    voice = choose_voice(language)
    if voice.model is None:
        feed([voice.binary, "-v", voice.name], pronounce(text, language), timeout)
        return
    with tempfile.TemporaryDirectory(prefix="clue-speech-") as folder:
        wav = Path(folder) / "sentence.wav"
        feed(voice.wav_argv(wav), text, timeout)
        feed(["aplay", "-q", str(wav)], "", timeout)


Play = Callable[[str, str, float], None]  # (text, language, timeout): speak it, or raise SpeechError


class Speaker:
    """Says sentences aloud one after another on a worker thread; :meth:`say` never waits.

    ``play`` does the speaking (default: espeak-ng or Piper on the audio device);
    tests give their own. A failing engine is logged once, then again only
    after it has worked in between, so a missing speaker does not fill the log.
    """

    def __init__(self, play: Play = _play, *, queue_size: int = QUEUE, timeout: float = SAY_TIMEOUT) -> None:
        self._play = play
        self._timeout = timeout
        self._waiting: collections.deque[tuple[str, str]] = collections.deque(maxlen=queue_size)
        self._ready = threading.Condition()
        self._closed = False
        self._failing = False
        self.spoken = 0  # sentences said (or tried) so far
        self.dropped = 0  # sentences dropped unsaid because the queue was full
        self._thread = threading.Thread(target=self._work, name="clue-speech", daemon=True)
        self._thread.start()

    def say(self, text: str, language: str) -> None:
        """Queue ``text`` to be said in ``language``; the oldest waiting sentence goes if the queue is full."""
        with self._ready:
            if self._closed:
                return
            if len(self._waiting) == self._waiting.maxlen:
                self.dropped += 1
            self._waiting.append((text, language))
            self._ready.notify()

    def close(self, timeout: float = 1.0) -> None:
        """Stop after the sentence being said (what is still queued is dropped)."""
        with self._ready:
            self._closed = True
            self._waiting.clear()
            self._ready.notify()
        self._thread.join(timeout)

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _next(self) -> tuple[str, str] | None:
        with self._ready:
            while not self._waiting and not self._closed:
                self._ready.wait()
            return None if self._closed else self._waiting.popleft()

    def _work(self) -> None:
        while (sentence := self._next()) is not None:
            try:
                self._play(*sentence, self._timeout)
            except SpeechError as err:
                if not self._failing:
                    log.warning("speech_failed", extra={"fields": {"error": str(err)}})
                self._failing = True
            else:
                self._failing = False
            self.spoken += 1


class MockSpeaker:
    """Records what it was asked to say, as (text, language) pairs; says nothing.

    Given a logger (``run --mock``) it also logs each sentence at INFO, as a ``say`` event.
    """

    def __init__(self, log: logging.Logger | None = None) -> None:
        self.said: list[tuple[str, str]] = []
        self._log = log
        self._lock = threading.Lock()

    def say(self, text: str, language: str) -> None:
        with self._lock:
            self.said.append((text, language))
        if self._log is not None:
            self._log.info("say", extra={"fields": {"text": text, "language": language}})

    def close(self) -> None:
        """Nothing to stop (the same interface as :class:`Speaker`)."""
