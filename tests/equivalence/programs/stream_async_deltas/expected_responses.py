"""Stream a haiku with the async client, printing each piece as it arrives."""

import asyncio

from openai import AsyncOpenAI


async def main() -> None:
    client = AsyncOpenAI()
    stream = await client.responses.create(
        model="gpt-4o-mini",
        input="Write a haiku about autumn.",
        stream=True,
    )
    async for event in stream:
        if event.type == "response.output_text.delta":
            print(event.delta, end="", flush=True)
    print()


if __name__ == "__main__":
    asyncio.run(main())
