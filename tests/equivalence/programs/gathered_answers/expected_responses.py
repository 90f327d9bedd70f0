"""Questions asked at once with asyncio.gather, and a list of answers read in a loop."""

import asyncio

from openai import AsyncOpenAI, OpenAI


async def ask_all(client: AsyncOpenAI) -> None:
    tasks = [
        client.responses.create(model="gpt-4o-mini", input=f"Spell {word}.")
        for word in ["cat", "dog"]
    ]
    results = await asyncio.gather(*tasks)
    print(sorted(result.output_text for result in results))
    first, second = await asyncio.gather(
        client.responses.create(model="gpt-4o-mini", input="One?"),
        client.responses.create(model="gpt-4o-mini", input="Two?"),
    )
    print(sorted([first.output_text, second.output_text]))


def main() -> None:
    client = OpenAI()
    answers = [
        client.responses.create(model="gpt-4o-mini", input=q)
        for q in ["Red?", "Blue?"]
    ]
    for answer in answers:
        print(answer.output_text, answer.usage.output_tokens)
    print(len(answers), answers[-1].usage.input_tokens)
    asyncio.run(ask_all(AsyncOpenAI()))


if __name__ == "__main__":
    main()
