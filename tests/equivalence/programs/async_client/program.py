"""Translate a phrase into several languages with the async client."""

import asyncio

from openai import AsyncOpenAI

LANGUAGES = ["French", "German", "Japanese"]


async def translate(client: AsyncOpenAI, phrase: str, language: str) -> str:
    completion = await client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "system", "content": "You translate short phrases. Answer with the translation only."},
            {"role": "user", "content": f"Translate into {language}: {phrase}"},
        ],
    )
    return completion.choices[0].message.content


async def main() -> None:
    client = AsyncOpenAI()
    for language in LANGUAGES:  # one at a time: the answers must come back in this order
        translation = await translate(client, "Good morning", language)
        print(f"{language}: {translation}")


if __name__ == "__main__":
    asyncio.run(main())
