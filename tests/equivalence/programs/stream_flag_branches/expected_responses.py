"""A command-line assistant: answers stream to the terminal unless asked to be quiet."""

from openai import OpenAI

client = OpenAI()


def ask(question: str, quiet: bool = False) -> str:
    completion = client.responses.create(
        model="gpt-4o-mini",
        input=question,
        stream=not quiet,
    )
    response = ""
    if quiet:
        response = completion.output_text
    else:
        for event in completion:
            if event.type == "response.output_text.delta":
                content = event.delta
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
