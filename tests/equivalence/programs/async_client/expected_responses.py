"""Translate a phrase into several languages with the async client."""

import asyncio

from openai import AsyncOpenAI

LANGUAGES = ["French", "German", "Japanese"]


async def translate(client: AsyncOpenAI, phrase: str, language: str) -> str:
    completion = await client.responses.create(
        model="gpt-4o-mini",
        instructions="You translate short phrases. Answer with the translation only.",
        input=f"Translate into {language}: {phrase}",
    )
    return completion.output_text


async def main() -> None:
    client = AsyncOpenAI()
    for language in LANGUAGES:  # one at a time: the answers must come back in this order
        translation = await translate(client, "Good morning", language)
        print(f"{language}: {translation}")


if __name__ == "__main__":
    asyncio.run(main())
