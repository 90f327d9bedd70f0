"""Questions asked at once with asyncio.gather, and a list of answers read in a loop."""

import asyncio

from openai import AsyncOpenAI, OpenAI


async def ask_all(client: AsyncOpenAI) -> None:
    tasks = [
        client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": f"Spell {word}."}])
        for word in ["cat", "dog"]
    ]
    results = await asyncio.gather(*tasks)
    print(sorted(result.choices[0].message.content for result in results))
    first, second = await asyncio.gather(
        client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "One?"}]),
        client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "Two?"}]),
    )
    print(sorted([first.choices[0].message.content, second.choices[0].message.content]))


def main() -> None:
    client = OpenAI()
    answers = [
        client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": q}])
        for q in ["Red?", "Blue?"]
    ]
    for answer in answers:
        print(answer.choices[0].message.content, answer.usage.completion_tokens)
    print(len(answers), answers[-1].usage.prompt_tokens)
    asyncio.run(ask_all(AsyncOpenAI()))


if __name__ == "__main__":
    main()
