"""A command-line assistant: answers stream to the terminal unless asked to be quiet."""

from openai import OpenAI

client = OpenAI()


def ask(question: str, quiet: bool = False) -> str:
    completion = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": question}],
        stream=not quiet,
    )
    response = ""
    if quiet:
        response = completion.choices[0].message.content
    else:
        for chunk in completion:
            content = chunk.choices[0].delta.content
            if content is not None:
                response += content
                print(content, end="")
        print()
    return response


def main() -> None:
    streamed = ask("Name a colour of the rainbow.")
    quiet = ask("Name a primary colour.", quiet=True)
    print(f"streamed {len(streamed)} characters; quiet answer: {quiet}")


if __name__ == "__main__":
    main()
