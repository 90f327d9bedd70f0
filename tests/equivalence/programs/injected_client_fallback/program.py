"""A translator that takes a client from its caller, or makes one, and a cached client for one-off questions."""

import functools
from typing import Optional

from openai import OpenAI

PHRASES = ["Good morning", "Where is the station?"]


@functools.lru_cache(maxsize=None)
def shared_client():
    return OpenAI()


class Translator:
    def __init__(self, client: Optional[OpenAI] = None, language: str = "French") -> None:
        self.client = client or OpenAI()
        self.language = language

    def translate(self, phrase: str) -> str:
        completion = self.client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[
                {"role": "system", "content": f"Translate into {self.language}. Reply with the translation only."},
                {"role": "user", "content": phrase},
            ],
        )
        return completion.choices[0].message.content or ""


def main() -> None:
    translator = Translator()
    for phrase in PHRASES:
        print(f"{phrase} -> {translator.translate(phrase)}")
    answer = shared_client().chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": "Which language is spoken in Quebec?"}]
    )
    print(answer.choices[0].message.content)


if __name__ == "__main__":
    main()
