"""Stream answers with the SDK helper; the service fails partway through some of them, which the
program reports with the text it had. One answer is read whole once the stream ends."""

import asyncio

import openai
from openai import AsyncOpenAI, OpenAI

QUESTIONS = ["Tell me a story.", "Tell me another."]


def tell(client: OpenAI, question: str) -> None:
    text = ""
    try:
        with client.chat.completions.stream(model="gpt-4o-mini", messages=[{"role": "user", "content": question}]) as stream:
            for event in stream:
                if event.type == "content.delta":
                    text += event.delta
                elif event.type == "content.done":
                    print(f"({len(event.content)} characters)")
    except openai.APIError as error:
        print(f"failed after {text!r}: {error.message}")
        return
    print(f"answer: {text}")


async def show(client: AsyncOpenAI, question: str) -> None:
    try:
        async with client.chat.completions.stream(model="gpt-4o-mini", messages=[{"role": "user", "content": question}]) as stream:
            async for event in stream:
                if event.type == "content.delta":
                    print(event.delta, end="", flush=True)
        print()
    except openai.APIError as error:
        print(f"\nfailed: {error.message}")


def whole(client: OpenAI, question: str) -> str:
    with client.chat.completions.stream(model="gpt-4o-mini", messages=[{"role": "user", "content": question}]) as stream:
        for event in stream:
            if event.type == "content.delta":
                print(event.delta, end="", flush=True)
        completion = stream.get_final_completion()
    print()
    return completion.choices[0].message.content or ""


def main() -> None:
    client = OpenAI()
    for question in QUESTIONS:
        tell(client, question)
    asyncio.run(show(AsyncOpenAI(), "And a third."))
    asyncio.run(show(AsyncOpenAI(), "And a fourth."))
    print(f"whole: {whole(client, 'The end?')}")


if __name__ == "__main__":
    main()
